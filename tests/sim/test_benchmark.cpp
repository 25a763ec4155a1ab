// Throughput measurements, hidden from the default run: ./test_sim "[.benchmark]" (Release build).
// They print figures and assert only results, never times.
#include <chrono>

#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {

const char* kVecAdd = R"(kernel vecadd(ptr.f32 a, ptr.f32 b, ptr.f32 c, u32 n) {
    reg u32 i
    reg u64 off, pa, pb, pc
    reg f32 x, y
    reg pred inside
    mad.u32 i, %ctaid.x, %ntid.x, %tid.x
    setp.lt.u32 inside, i, n
    @!inside bra done
    mul.wide.u32 off, i, 4
    add.u64 pa, a, off
    ld.global.f32 x, [pa]
    add.u64 pb, b, off
    ld.global.f32 y, [pb]
    add.f32 x, x, y
    add.u64 pc, c, off
    st.global.f32 [pc], x
done:
    exit
}
)";

// PMPP Fig 5.15: stride halving, a barrier per round.
const char* kReduce = R"(kernel reduce(ptr.f32 input, ptr.f32 out) {
    shared f32 partialSum[256]
    reg u32 t, i, stride, mine, other
    reg u64 off, p
    reg f32 x, y
    reg pred more, adds, first
    mov.u32 t, %tid.x
    mad.u32 i, %ctaid.x, %ntid.x, t
    mul.wide.u32 off, i, 4
    add.u64 p, input, off
    ld.global.f32 x, [p]
    mad.u32 mine, t, 4, partialSum
    st.shared.f32 [mine], x
    shr.u32 stride, %ntid.x, 1
round:
    setp.ge.u32 more, stride, 1
    @!more bra finish
    bar.sync
    setp.lt.u32 adds, t, stride
    @!adds bra next
    mad.u32 other, stride, 4, mine
    ld.shared.f32 x, [mine]
    ld.shared.f32 y, [other]
    add.f32 x, x, y
    st.shared.f32 [mine], x
next:
    shr.u32 stride, stride, 1
    bra round
finish:
    setp.eq.u32 first, t, 0
    @!first bra done
    ld.shared.f32 x, [partialSum]
    mul.wide.u32 off, %ctaid.x, 4
    add.u64 p, out, off
    st.global.f32 [p], x
done:
    exit
}
)";

void report(const char* what, const LaunchStats& s, double seconds) {
  WARN(fmt::format("{}: {} warp instructions, {} thread instructions in {:.3f} s: {:.0f} M thread instructions/s "
                   "({:.1f} M warp instructions/s)",
                   what, s.warp_instructions, s.thread_instructions, seconds, s.thread_instructions / seconds / 1e6,
                   s.warp_instructions / seconds / 1e6));
}

}  // namespace

TEST_CASE("benchmark: vector add of 2^24 elements", "[.benchmark]") {
  auto k = compile(kVecAdd);
  const std::uint32_t n = 1u << 24;
  for (std::uint32_t threads : {1u, 2u}) {
    Config config;
    config.threads = threads;
    Gpu gpu(config);
    std::vector<float> a(n, 1.0f), b(n, 2.0f);
    const auto da = upload(gpu, a, "a"), db = upload(gpu, b, "b");
    const auto dc = gpu.allocate(n * 4ull, "c");
    auto s = spec(*k, {n / 256}, {256}, {da, db, dc, n});
    s.warps = WarpSelection{};
    const auto start = std::chrono::steady_clock::now();
    auto r = gpu.launch(s);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    report(threads == 1 ? "vecadd, 1 thread" : "vecadd, 2 threads", r.stats, seconds);
    CHECK(download<float>(gpu, dc, 16) == std::vector<float>(16, 3.0f));
  }
}

TEST_CASE("benchmark: block reduction of 2^24 elements", "[.benchmark]") {
  auto k = compile(kReduce);
  const std::uint32_t n = 1u << 24;
  Gpu gpu;
  std::vector<float> a(n, 1.0f);
  const auto da = upload(gpu, a, "in");
  const auto dout = gpu.allocate(n / 256 * 4, "out");
  auto s = spec(*k, {n / 256}, {256}, {da, dout});
  s.warps = WarpSelection{};
  const auto start = std::chrono::steady_clock::now();
  auto r = gpu.launch(s);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report("reduce (Fig 5.15)", r.stats, seconds);
  CHECK(download<float>(gpu, dout, 4) == std::vector<float>(4, 256.0f));
}
