// Vector loads and stores (.v2, .v4), local memory (per-thread arrays), mov's packed form, and the
// membermask of shfl, vote and bar.warp.sync: results in both modes, the faults they raise, and
// what the timing model makes of them.
#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;
using Catch::Matchers::Contains;

namespace {


Config mode(Mode m) {
  Config c;
  c.mode = m;
  return c;
}

// out[4i .. 4i+3] = in[4i+3], in[4i+2], in[4i+1], in[4i] * 2: a float4 read and written whole.
const char* kReverse4 = R"(kernel reverse4(ptr.f32 in, ptr.f32 out) {
    reg u32 t
    reg u64 off, p, q
    reg f32 a, b, c, d
    mov.u32 t, %tid.x
    mul.wide.u32 off, t, 16
    add.u64 p, in, off
    add.u64 q, out, off
    ld.global.v4.f32 {a, b, c, d}, [p]
    mul.f32 a, a, 2.0
    st.global.v4.f32 [q], {d, c, b, a}
    exit
}
)";

}  // namespace

TEST_CASE("ld and st .v4 move four elements per lane in order, in both modes", "[sim][vector]") {
  auto k = compile(kReverse4);
  for (Mode m : {Mode::Timing, Mode::Functional}) {
    Gpu gpu(mode(m));
    std::vector<float> in(64 * 4);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) + 0.5f;
    const auto a = upload(gpu, in, "in");
    const auto out = gpu.allocate(in.size() * 4, "out");
    const auto r = gpu.launch(spec(*k, {1}, {64}, {a, out}));
    const auto v = download<float>(gpu, out, in.size());
    for (unsigned t = 0; t < 64; ++t) {
      INFO(t);
      CHECK(v[4 * t] == in[4 * t + 3]);
      CHECK(v[4 * t + 1] == in[4 * t + 2]);
      CHECK(v[4 * t + 2] == in[4 * t + 1]);
      CHECK(v[4 * t + 3] == in[4 * t] * 2.0f);
    }
    check_invariant(r.stats);
    if (m == Mode::Timing) {
      // 32 lanes x 16 bytes = 512 contiguous bytes: 16 sectors per warp request, 4 lines.
      CHECK(r.stats.timing.memory.global_load_requests == 2);
      CHECK(r.stats.timing.memory.global_store_requests == 2);
      CHECK(r.stats.timing.memory.global_sectors == 64);
    }
  }
}

TEST_CASE("a vector access must be aligned to the whole vector", "[sim][vector][errors]") {
  auto k = compile(kReverse4);
  Gpu gpu;
  const auto a = gpu.allocate(64 * 16 + 16, "in");
  const auto out = gpu.allocate(64 * 16, "out");
  const auto message = fault_of(gpu, spec(*k, {1}, {32}, {a + 8, out}));
  CHECK_THAT(message, Contains("misaligned global load of 16 bytes") && Contains("multiple of 16"));
}

TEST_CASE("ld and st .v2 on shared memory, and a braced list written twice in the text", "[sim][vector]") {
  auto k = compile(R"(kernel pairs(ptr.u32 out) {
    shared u32 tile[64]
    reg u32 t, a, b, addr
    reg u64 off, p
    mov.u32 t, %tid.x
    shl.b32 addr, t, 3
    add.u32 b, t, 100
    st.shared.v2.u32 [addr], {t, b}
    bar.sync
    xor.b32 addr, addr, 8
    ld.shared.v2.u32 {a, b}, [addr]
    mul.wide.u32 off, t, 8
    add.u64 p, out, off
    st.global.v2.u32 [p], {b, a}
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(32 * 8, "out");
  gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 64);
  for (unsigned t = 0; t < 32; ++t) {
    INFO(t);
    CHECK(v[2 * t] == (t ^ 1) + 100);
    CHECK(v[2 * t + 1] == (t ^ 1));
  }
}

TEST_CASE("local arrays are each thread's own, indexed at run time, in both modes", "[sim][local]") {
  // Each thread fills buf[i] = t * 10 + i for i < 8, then sums buf[(i * 3 + t) % 8] * i.
  auto k = compile(R"(kernel locals(ptr.u32 out) {
    local u32 buf[8]
    local u64 wide[2]
    reg u32 t, i, v, j, sum, addr, w
    reg u64 off, p, big
    reg pred more
    mov.u32 t, %tid.x
    mov.u32 i, 0
fill:
    mad.u32 v, t, 10, i
    shl.b32 addr, i, 2
    st.local.u32 [addr], v
    add.u32 i, i, 1
    setp.lt.u32 more, i, 8
    @more bra fill
    mov.u32 i, 0
    mov.u32 sum, 0
use:
    mad.u32 j, i, 3, t
    and.b32 j, j, 7
    shl.b32 addr, j, 2
    add.u32 addr, addr, buf
    ld.local.u32 v, [addr]
    mad.u32 sum, v, i, sum
    add.u32 i, i, 1
    setp.lt.u32 more, i, 8
    @more bra use
    cvt.u64.u32 big, sum
    st.local.u64 [wide+8], big
    ld.local.v2.u32 {w, v}, [buf+24]
    ld.local.u64 big, [wide+8]
    cvt.u32.u64 sum, big
    add.u32 sum, sum, w
    mad.u32 t, %ctaid.x, %ntid.x, t
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], sum
    exit
}
)");
  CHECK(k->kernel().local_bytes() == 48);
  CHECK(k->kernel().shared_bytes() == 0);
  for (Mode m : {Mode::Timing, Mode::Functional}) {
    Gpu gpu(mode(m));
    const auto out = gpu.allocate(96 * 4, "out");
    const auto r = gpu.launch(spec(*k, {2}, {48}, {out}));
    const auto v = download<std::uint32_t>(gpu, out, 96);
    for (unsigned b = 0; b < 2; ++b)
      for (unsigned t = 0; t < 48; ++t) {
        std::uint32_t sum = 0;
        for (unsigned i = 0; i < 8; ++i) sum += (t * 10 + (i * 3 + t) % 8) * i;
        INFO(b << " " << t);
        CHECK(v[b * 48 + t] == sum + t * 10 + 6);
      }
    check_invariant(r.stats);
  }
}

TEST_CASE("local memory is timed through the caches with a warp's lanes interleaved", "[sim][local]") {
  // One element of a local array for 32 lanes: 128 contiguous bytes, 4 sectors (as on the GPU, where
  // local memory is laid out so that this access coalesces); a store of 32 lanes' u32 to global
  // memory is 4 more.
  auto k = compile(R"(kernel one(ptr.u32 out) {
    local u32 buf[8]
    reg u32 t, v
    reg u64 off, p
    mov.u32 t, %tid.x
    st.local.u32 [buf+12], t
    ld.local.u32 v, [buf+12]
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], v
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(32 * 4, "out");
  const auto r = gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32);
  for (unsigned t = 0; t < 32; ++t) CHECK(v[t] == t);
  CHECK(r.stats.timing.memory.global_load_requests == 1);
  CHECK(r.stats.timing.memory.global_store_requests == 2);
  CHECK(r.stats.timing.memory.global_sectors == 12);
}

TEST_CASE("a local access outside the thread's local arrays faults", "[sim][local][errors]") {
  auto k = compile(R"(kernel past(ptr.u32 out) {
    local u32 buf[4]
    reg u32 t, addr, v
    mov.u32 t, %tid.x
    shl.b32 addr, t, 2
    add.u32 addr, addr, buf
    ld.local.u32 v, [addr]
    st.global.u32 [out], v
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(4, "out");
  const auto message = fault_of(gpu, spec(*k, {1}, {8}, {out}));
  CHECK_THAT(message, Contains("lane 4") && Contains("local load of 4 bytes at 0x10 is outside the thread's 16 bytes of local memory"));
}

TEST_CASE("mov packs and unpacks 64-bit and 32-bit values", "[sim][vector]") {
  auto k = compile(R"(kernel packing(ptr.u64 out) {
    reg u32 t, lo, hi
    reg u64 w, off, p
    reg f64 d
    reg b64 bits
    reg b32 word
    reg u16 a, b
    mov.u32 t, %tid.x
    cvt.f64.u32 d, t
    add.f64 d, d, 0d3ff8000000000000
    mov.b64 {lo, hi}, d
    mov.b64 bits, {hi, lo}
    mov.u32 word, 0x12345678
    add.u32 word, word, t
    mov.b32 {a, b}, word
    mov.b32 word, {b, a}
    mul.wide.u32 off, t, 16
    add.u64 p, out, off
    st.global.b64 [p], bits
    cvt.u64.u32 w, word
    st.global.u64 [p+8], w
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(32 * 16, "out");
  gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint64_t>(gpu, out, 64);
  for (unsigned t = 0; t < 32; ++t) {
    const double d = t + 1.5;
    std::uint64_t bits;
    std::memcpy(&bits, &d, 8);
    INFO(t);
    CHECK(v[2 * t] == ((bits << 32) | (bits >> 32)));
    const std::uint32_t word = 0x12345678u + t;
    CHECK(v[2 * t + 1] == ((word << 16) | (word >> 16)));
  }
}

TEST_CASE("shfl and vote with a membermask: the named lanes take part, others are an error", "[sim][warp-ops]") {
  const char* text = R"(kernel masked(ptr.u32 out, u32 split, u32 mask) {
    reg u32 t, v, s, bits
    reg u64 off, p
    reg pred low, odd
    mov.u32 t, %tid.x
    mul.u32 v, t, 10
    setp.lt.u32 low, t, split
    @!low bra high
    shfl.down.u32 s, v, 1, mask
    and.b32 bits, t, 1
    setp.eq.u32 odd, bits, 1
    vote.ballot.u32 bits, odd, mask
    bar.warp.sync mask
    bra done
high:
    mov.u32 s, 0
    mov.u32 bits, 0
done:
    mul.wide.u32 off, t, 8
    add.u64 p, out, off
    st.global.v2.u32 [p], {s, bits}
    exit
}
)";
  auto k = compile(text);
  Gpu gpu;
  const auto out = gpu.allocate(32 * 8, "out");
  // The 16 lanes below split run the branch, and the mask names exactly them.
  gpu.launch(spec(*k, {1}, {32}, {out, 16, 0xffff}));
  const auto v = download<std::uint32_t>(gpu, out, 64);
  for (unsigned t = 0; t < 16; ++t) {
    INFO(t);
    CHECK(v[2 * t] == (t < 15 ? (t + 1) * 10 : t * 10));
    CHECK(v[2 * t + 1] == 0xaaaau);
  }
  // A block of 8 threads: lanes 8-31 do not exist, so a full mask names only lanes that exist here.
  gpu.launch(spec(*k, {1}, {8}, {out, 8, 0xffffffff}));
  // The full mask while lanes 16-31 are on the other path: the GPU would wait for them.
  CHECK_THAT(fault_of(gpu, spec(*k, {1}, {32}, {out, 16, 0xffffffff})),
             Contains("membermask 0xffffffff names lanes 0xffff0000, which have not exited but are not executing"));
  // A mask that leaves out an executing lane is undefined in CUDA.
  CHECK_THAT(fault_of(gpu, spec(*k, {1}, {32}, {out, 16, 0x7fff})),
             Contains("lane 15 executes this instruction but its membermask 0x7fff does not name it"));
}

TEST_CASE("vector lists and packing movs are checked by the parser", "[isa][vector]") {
  auto bad = [](const std::string& body) {
    const std::string text = "kernel k(ptr.u32 p) {\n    reg u32 a, b, c\n    reg u64 w\n    reg f64 d\n" + body + "\n    exit\n}\n";
    auto parsed = isa::parse(text, "t.kir");
    std::string messages;
    for (const auto& x : parsed.diagnostics) messages += x.format();
    if (parsed.ok()) {
      for (const auto& x : isa::verify(parsed.module, text)) messages += x.format();
    }
    return messages;
  };
  CHECK_THAT(bad("    ld.global.v4.u32 {a, b}, [p]"), Contains("must be a list of 4 registers"));
  CHECK_THAT(bad("    ld.global.v2.u32 a, [p]"), Contains("must be a list of 2 registers"));
  CHECK_THAT(bad("    add.u32 {a, b}, a, b"), Contains("cannot be a register list"));
  CHECK(bad("    ld.global.v2.f64 {d, d}, [p]").empty());
  CHECK_THAT(bad("    ld.global.v4.u64 {w, w, w, w}, [p]"), Contains("4 to 16 bytes"));
  CHECK_THAT(bad("    mov.u64 {a, b}, w"), Contains("a packing mov is mov.b64 or mov.b32"));
  CHECK_THAT(bad("    mov.b64 {a, b, c}, w"), Contains("a packing mov is mov.b64 or mov.b32"));
  CHECK_THAT(bad("    atom.add.local.u32 a, [a], 1"), Contains("atomics work on global and shared memory, not local"));
  CHECK_THAT(bad("    shfl.down.u32 a, a, 1, b, c"), Contains("takes 4 operands (the last, the membermask, may be left out)"));
  CHECK_THAT(bad("    local u32 big[200000]"), Contains("local arrays take 800000 bytes per thread; CUDA allows at most 524288"));
  CHECK(bad("    local u32 fits[131072]").empty());
}
