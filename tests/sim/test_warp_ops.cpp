#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

TEST_CASE("vote, ballot and activemask look only at the lanes taking part", "[sim][warp-ops]") {
  auto k = compile(R"(kernel votes(ptr.u32 out) {
    reg u32 t, bits, mask, any_, all_, odd_bit
    reg u64 off, p
    reg pred low, odd, any, all
    mov.u32 t, %tid.x
    setp.lt.u32 low, t, 20
    and.u32 odd_bit, t, 1
    setp.eq.u32 odd, odd_bit, 1
    mov.u32 bits, 0
    @low vote.ballot.u32 bits, odd
    @low vote.any.pred any, odd
    @low vote.all.pred all, low
    @!low bra skip
    activemask.u32 mask
skip:
    selp.u32 any_, 1, 0, any
    selp.u32 all_, 1, 0, all
    mul.wide.u32 off, t, 16
    add.u64 p, out, off
    st.global.u32 [p], bits
    st.global.u32 [p+4], mask
    st.global.u32 [p+8], any_
    st.global.u32 [p+12], all_
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(32 * 16, "out");
  auto r = gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32 * 4);
  for (unsigned t = 0; t < 32; ++t) {
    INFO(t);
    CHECK(v[t * 4 + 0] == (t < 20 ? 0x000aaaaau : 0u));
    CHECK(v[t * 4 + 1] == (t < 20 ? 0x000fffffu : 0u));
    CHECK(v[t * 4 + 2] == (t < 20 ? 1u : 0u));
    CHECK(v[t * 4 + 3] == (t < 20 ? 1u : 0u));
  }
  check_invariant(r.stats);
}

TEST_CASE("a shuffle from a lane out of range or not taking part returns the lane's own value", "[sim][warp-ops]") {
  auto k = compile(R"(kernel shuffles(ptr.u32 out) {
    reg u32 t, v, down, up, x, idx
    reg u64 off, p
    reg pred low
    mov.u32 t, %tid.x
    mul.u32 v, t, 10
    mov.u32 down, v
    mov.u32 up, v
    mov.u32 x, v
    mov.u32 idx, v
    setp.lt.u32 low, t, 16
    @low shfl.down.u32 down, v, 1
    shfl.up.u32 up, v, 3
    shfl.xor.u32 x, v, 1
    shfl.idx.u32 idx, v, 40
    mul.wide.u32 off, t, 16
    add.u64 p, out, off
    st.global.u32 [p], down
    st.global.u32 [p+4], up
    st.global.u32 [p+8], x
    st.global.u32 [p+12], idx
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(32 * 16, "out");
  gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32 * 4);
  for (unsigned t = 0; t < 32; ++t) {
    INFO(t);
    // Lane 15 reads lane 16, which does not take part: its own value. Lanes 16+ do not run it.
    CHECK(v[t * 4 + 0] == (t < 15 ? (t + 1) * 10 : t * 10));
    CHECK(v[t * 4 + 1] == (t >= 3 ? (t - 3) * 10 : t * 10));
    CHECK(v[t * 4 + 2] == (t ^ 1) * 10);
    CHECK(v[t * 4 + 3] == t * 10);  // index 40 is out of range
  }
}

TEST_CASE("atomics of one warp apply in lane order, each lane getting the value it saw", "[sim][warp-ops]") {
  auto k = compile(R"(kernel atomics(ptr.u32 counter, ptr.u32 olds, ptr.u32 wrap, ptr.f32 fsum) {
    shared f32 acc[1]
    reg u32 t, r, old, bound
    reg u64 off, p
    reg f32 one, total
    reg pred third
    mov.u32 t, %tid.x
    rem.u32 r, t, 3
    setp.eq.u32 third, r, 0
    mov.u32 old, 99
    @third atom.add.global.u32 old, [counter], 1
    mul.wide.u32 off, t, 4
    add.u64 p, olds, off
    st.global.u32 [p], old
    atom.inc.global.u32 old, [wrap], 4
    mov.f32 one, 0.5
    atom.add.shared.f32 total, [acc], one
    bar.sync
    ld.shared.f32 total, [acc]
    st.global.f32 [fsum], total
    exit
}
)");
  Gpu gpu;
  const auto counter = gpu.allocate(4, "counter"), olds = gpu.allocate(32 * 4, "olds"), wrap = gpu.allocate(4, "wrap"),
             fsum = gpu.allocate(4, "fsum");
  gpu.launch(spec(*k, {1}, {32}, {counter, olds, wrap, fsum}));
  CHECK(download<std::uint32_t>(gpu, counter, 1)[0] == 11);
  const auto v = download<std::uint32_t>(gpu, olds, 32);
  for (unsigned t = 0; t < 32; ++t) CHECK(v[t] == (t % 3 == 0 ? t / 3 : 99u));
  CHECK(download<std::uint32_t>(gpu, wrap, 1)[0] == 32 % 5);  // 0,1,2,3,4,0,... after 32 increments
  CHECK(download<float>(gpu, fsum, 1)[0] == 16.0f);
}

TEST_CASE("atom.cas, atom.exch, atom.min and atom.max", "[sim][warp-ops]") {
  auto k = compile(R"(kernel more_atomics(ptr.s32 m, ptr.u32 c) {
    reg s32 t, neg, old
    reg u32 ut, uold
    mov.u32 ut, %tid.x
    cvt.s32.u32 t, ut
    neg.s32 neg, t
    atom.min.global.s32 old, [m], neg
    atom.max.global.s32 old, [m+4], t
    atom.cas.global.u32 uold, [c], ut, 100
    atom.exch.global.u32 uold, [c+4], ut
    exit
}
)");
  Gpu gpu;
  const auto m = gpu.allocate(8, "m"), c = gpu.allocate(8, "c");
  std::vector<std::uint32_t> init = {5, 0};
  gpu.write(c, std::as_bytes(std::span<const std::uint32_t>(init)));
  gpu.launch(spec(*k, {1}, {32}, {m, c}));
  const auto mm = download<std::int32_t>(gpu, m, 2);
  CHECK(mm[0] == -31);
  CHECK(mm[1] == 31);
  const auto cc = download<std::uint32_t>(gpu, c, 2);
  CHECK(cc[0] == 100);  // lane 5 found 5 and swapped in 100
  CHECK(cc[1] == 31);   // the last lane's exchange wins
}
