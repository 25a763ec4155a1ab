// A kernel that uses every opcode of the table (and every type each accepts, where it changes the
// emitted code), so the emitter and NVRTC see all of them.
#pragma once

namespace warpsim::test {

inline constexpr const char* kAllOpcodesKir = R"(
kernel all_opcodes(ptr.u32 out, ptr.f32 fout, ptr.u64 wout, ptr.s32 sout, u32 n, f32 scale, s32 k, u64 big) {
    shared u32 words[64]
    shared f32 floats[32]
    shared u64 wides[8]
    reg u32 t, a, b, c, lane, mask
    reg s32 x, y
    reg u64 w, v, addr
    reg f32 f, g
    reg pred p, q, r

    mov.u32 t, %tid.x
    mov.u32 lane, %laneid
    add.u32 a, t, %warpid
    add.u32 a, a, %nwarpid
    add.u32 a, a, %warpsize
    add.u32 a, a, %ntid.y
    add.u32 a, a, %ctaid.y
    add.u32 a, a, %nctaid.z
    mov.u32 c, %clock
    mov.u64 w, %clock64
    sub.u32 b, a, 3
    mul.u32 b, b, a
    mul.wide.u32 w, a, b
    mul.wide.s32 v, k, -5
    mad.u32 c, a, b, c
    div.u32 c, c, a
    rem.u32 c, c, 7
    min.u32 c, c, b
    max.u32 c, c, 1
    and.u32 c, c, 0xff
    or.u32 c, c, 0x100
    xor.u32 c, c, lane
    not.u32 c, c
    shl.u32 c, c, 3
    shr.u32 c, c, 33
    mov.s32 x, k
    add.s32 x, x, 2147483647
    sub.s32 x, x, -2147483648
    mul.s32 x, x, k
    mad.s32 x, x, k, -1
    div.s32 x, x, -1
    rem.s32 y, x, k
    min.s32 y, y, x
    max.s32 y, y, -7
    neg.s32 y, y
    abs.s32 y, y
    shl.s32 y, y, 2
    shr.s32 y, y, 40
    and.s32 y, y, x
    add.u64 v, v, big
    sub.u64 v, v, 1
    mul.u64 v, v, w
    mad.u64 v, v, w, big
    div.u64 v, v, big
    rem.u64 v, v, 10
    min.u64 v, v, w
    max.u64 v, v, 0x100000000
    shl.u64 v, v, 4
    shr.u64 v, v, 64
    xor.u64 v, v, w
    cvt.f32.u32 f, a
    cvt.f32.s32 g, x
    add.f32 f, f, g
    sub.f32 f, f, 1.5
    mul.f32 f, f, scale
    mad.f32 f, f, g, 0f3f800000
    div.f32 f, f, g
    sqrt.f32 f, f
    min.f32 f, f, g
    max.f32 f, f, -2.0e-3
    neg.f32 f, f
    abs.f32 f, f
    cvt.f32.u64 g, v
    cvt.u32.f32 a, f
    cvt.s32.f32 x, g
    cvt.u64.f32 w, f
    cvt.u64.s32 v, x
    cvt.u32.u64 b, v
    cvt.s32.u32 y, b
    cvt.u32.s32 b, y
    setp.lt.u32 p, a, n
    setp.ge.s32 q, x, y
    setp.ne.f32 r, f, g
    setp.eq.u64 r, v, w
    and.pred p, p, q
    or.pred q, p, r
    xor.pred r, p, q
    not.pred r, r
    selp.u32 a, a, b, p
    selp.f32 f, f, g, q
    selp.s32 x, x, y, r
    selp.u64 w, w, v, p
    mad.u32 c, t, 4, words
    st.shared.u32 [c], a
    st.shared.f32 [floats+4], f
    st.shared.u64 [wides], w
    bar.sync
    ld.shared.u32 a, [c]
    ld.shared.f32 g, [floats]
    ld.shared.u64 v, [wides+8]
    atom.add.shared.u32 b, [words], 1
    atom.min.shared.s32 x, [words+4], y
    atom.max.shared.u32 b, [words+8], a
    atom.exch.shared.f32 g, [floats+8], f
    atom.cas.shared.u32 b, [words+12], 0, a
    atom.inc.shared.u32 b, [words+16], 15
    atom.add.shared.f32 g, [floats+12], 1.0
    mul.wide.u32 addr, t, 4
    add.u64 addr, out, addr
    ld.global.u32 c, [addr]
    st.global.u32 [addr+0], c
    atom.add.global.u32 b, [out], 1
    atom.add.global.s32 x, [sout], -1
    atom.add.global.u64 v, [wout], 1
    atom.add.global.f32 g, [fout], 0.5
    atom.min.global.u32 b, [out+4], a
    atom.max.global.s32 x, [sout+4], y
    atom.exch.global.u32 b, [out+8], a
    atom.exch.global.u64 v, [wout+8], w
    atom.exch.global.s32 x, [sout+8], y
    atom.cas.global.u64 v, [wout+16], w, v
    atom.cas.global.s32 x, [sout+12], 0, y
    atom.inc.global.u32 b, [out+12], 0xffffffff
    membar.cta
    membar.gl
    vote.any.pred p, p
    vote.all.pred q, q
    vote.ballot.u32 mask, r
    activemask.u32 mask
    @p activemask.u32 mask
    shfl.down.u32 a, a, 1
    shfl.up.s32 x, x, 2
    shfl.xor.f32 f, f, 16
    shfl.idx.u32 b, b, 40
    @!q shfl.down.f32 g, g, 4
    @p vote.any.pred q, r
    @q add.u32 a, a, mask
    @!r bra skip
    st.global.f32 [fout], f
    st.global.s32 [sout], x
    st.global.u64 [wout], v
skip:
    setp.eq.u32 p, t, 0
    @p exit
    st.global.u32 [out], a
    @q ret
    exit
}
)";

}  // namespace warpsim::test
