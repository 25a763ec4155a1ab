// A kernel that uses every opcode of the table (and every type each accepts, where it changes the
// emitted code), so the emitter and NVRTC see all of them.
#pragma once

namespace warpsim::test {

inline constexpr const char* kAllOpcodesKir = R"(
kernel all_opcodes(ptr.u32 out, ptr.f32 fout, ptr.u64 wout, ptr.s32 sout, u32 n, f32 scale, s32 k, u64 big, ptr.f64 dout, ptr.s64 lout, ptr.u8 bout, ptr.u16 hout, f64 dscale, s64 lk) {
    shared u32 words[64]
    shared f32 floats[32]
    shared u64 wides[8]
    local u32 scratch[8]
    reg u32 t, a, b, c, lane, mask
    reg s32 x, y
    reg u64 w, v, addr
    reg f32 f, g
    reg pred p, q, r
    reg s64 l, m
    reg f64 d, e
    reg u16 h
    reg s16 hs
    reg b16 hb
    reg b32 bb
    reg b64 wb

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
    mov.s64 l, lk
    add.s64 l, l, -9223372036854775808
    sub.s64 l, l, 1
    mul.s64 l, l, lk
    mad.s64 l, l, lk, 3
    div.s64 l, l, -1
    rem.s64 m, l, lk
    min.s64 m, m, l
    max.s64 m, m, -7
    neg.s64 m, m
    abs.s64 m, m
    shl.s64 m, m, 3
    shr.s64 m, m, 70
    and.s64 m, m, l
    setp.lt.s64 p, l, m
    selp.s64 l, l, m, p
    mov.f64 d, dscale
    add.f64 d, d, 0d3ff0000000000000
    sub.f64 d, d, 2.5
    mul.f64 d, d, dscale
    mad.f64 d, d, d, 1.0
    div.f64 e, d, dscale
    sqrt.f64 e, e
    min.f64 e, e, d
    max.f64 e, e, -1.0
    neg.f64 e, e
    abs.f64 e, e
    setp.ge.f64 q, d, e
    selp.f64 d, d, e, q
    cvt.f64.f32 d, f
    cvt.f32.f64 f, e
    cvt.f64.s32 e, x
    cvt.f64.u64 e, v
    cvt.f64.s64 e, l
    cvt.s32.f64 x, d
    cvt.u32.f64 a, d
    cvt.u64.f64 w, d
    cvt.s64.f64 l, e
    cvt.s64.f32 m, f
    cvt.s64.s32 m, x
    cvt.s32.s64 y, m
    cvt.f32.s64 g, m
    cvt.u8.f32 a, f
    cvt.s8.f64 x, d
    cvt.u16.u32 h, a
    cvt.s16.s32 hs, x
    cvt.s32.s16 y, hs
    cvt.u32.u8 a, a
    cvt.s32.s8 y, y
    mul.wide.u16 a, h, h
    mul.wide.s16 y, hs, -3
    add.u16 h, h, 65535
    mul.s16 hs, hs, hs
    shr.s16 hs, hs, 3
    div.s16 hs, hs, -1
    mov.b32 bb, f
    mov.b64 wb, d
    mov.b16 hb, h
    and.b16 hb, hb, 0xff
    or.b32 bb, bb, a
    xor.b64 wb, wb, v
    shl.b32 bb, bb, 2
    ld.global.u8 a, [bout]
    ld.global.s8 x, [bout+1]
    st.global.u8 [bout+2], a
    ld.global.u16 h, [hout]
    ld.global.s16 hs, [hout+2]
    st.global.u16 [hout+4], h
    st.global.b16 [hout+6], hb
    ld.global.f64 d, [dout]
    st.global.f64 [dout+8], d
    ld.global.s64 l, [lout]
    st.global.s64 [lout+8], l
    ld.global.b32 bb, [out]
    st.global.b64 [wout], wb
    atom.add.global.f64 d, [dout], 1.0
    atom.min.global.u64 v, [wout], w
    atom.max.global.s64 l, [lout], m
    atom.exch.global.b32 bb, [out], bb
    atom.exch.global.b64 wb, [wout], wb
    atom.cas.global.b32 bb, [out], bb, 0
    atom.cas.global.b64 wb, [wout], 0, wb
    mul.hi.u32 a, a, b
    mul.hi.s32 x, x, -3
    mul.hi.u64 v, v, w
    mul.hi.s64 l, l, m
    bfe.u32 a, a, 4, 8
    bfe.s32 x, x, b, 3
    bfe.u64 v, v, 40, a
    bfe.s64 l, l, 1, 63
    bfi.b32 bb, a, bb, 8, 4
    bfi.b64 wb, v, wb, a, 9
    popc.b32 a, bb
    popc.b64 b, wb
    clz.b32 a, bb
    clz.b64 b, wb
    brev.b32 bb, bb
    brev.b64 wb, wb
    prmt.b32 bb, bb, a, 0x3210
    fma.rn.f32 f, f, g, 1.0
    fma.rn.f64 d, d, e, d
    fma.rm.f32 f, f, g, 0f4B400001
    fma.f32 f, f, g, f
    add.rz.f32 f, f, g
    sub.rp.f64 d, d, e
    mul.rm.ftz.f32 f, f, g
    add.sat.f32 f, f, g
    add.sat.s32 x, x, y
    div.approx.f32 f, f, g
    div.full.f32 f, f, g
    div.rn.f64 d, d, e
    sqrt.approx.f32 f, f
    sqrt.rn.f64 d, d
    rcp.approx.f32 f, f
    rcp.rn.f64 d, d
    rsqrt.approx.f32 g, f
    ex2.approx.ftz.f32 f, f
    lg2.approx.f32 f, f
    sin.approx.f32 f, f
    cos.approx.f32 g, g
    cvt.rni.s32.f32 x, f
    cvt.rpi.u8.f32 a, f
    cvt.rmi.f32.f32 g, f
    cvt.sat.f32.f32 f, f
    cvt.rz.f32.f64 f, d
    cvt.rn.f32.s32 g, x
    cvt.rni.f64.f64 d, d
    ld.global.nc.f32 f, [fout]
    ld.global.nc.u8 a, [bout]
    st.shared.f64 [wides], d
    ld.shared.s64 l, [wides+8]
    st.global.f64 [dout], d
    st.global.s64 [lout], l
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
    atom.dec.global.u32 b, [out+16], 9
    atom.and.global.b32 b, [out+20], a
    atom.or.shared.b32 b, [words+20], a
    atom.xor.global.b64 v, [wout+24], w
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
    activemask.u32 mask
    shfl.xor.u32 a, a, 1, mask
    vote.any.pred p, p, mask
    bar.warp.sync mask
    bar.warp.sync
    st.local.v2.u32 [scratch+8], {a, b}
    ld.local.u32 c, [scratch+12]
    ld.global.v4.f32 {f, g, f, g}, [addr]
    st.global.v2.u32 [addr], {a, c}
    ld.shared.v2.u64 {w, v}, [wides]
    mov.b64 {a, b}, wb
    mov.b64 wb, {a, b}
    mov.b32 {hb, h}, bb
    mov.b32 bb, {hb, h}
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
