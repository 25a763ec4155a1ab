#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {
const char* kVecAdd = R"(// c[i] = a[i] + b[i] for i < n
kernel vecadd(ptr.f32 a, ptr.f32 b, ptr.f32 c, u32 n) {
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
}  // namespace

TEST_CASE("vector add with n = 1003 and 64-thread blocks: only the last warp diverges", "[sim][gpu]") {
  auto k = compile(kVecAdd);
  Gpu gpu;
  const std::uint32_t n = 1003;
  std::vector<float> a(n), b(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    a[i] = float(i);
    b[i] = 0.5f * float(i);
  }
  const auto da = upload(gpu, a, "a"), db = upload(gpu, b, "b");
  const auto dc = gpu.allocate(n * 4, "c");
  auto result = gpu.launch(spec(*k, {16}, {64}, {da, db, dc, n}));
  const auto c = download<float>(gpu, dc, n);
  for (std::uint32_t i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);
  const auto& s = result.stats;
  CHECK(s.backend == "sim");
  CHECK(s.blocks == 16);
  CHECK(s.warps_per_block == 2);
  CHECK(s.warps_launched == 32);
  CHECK(s.divergent_warps == 1);
  CHECK(s.partial_warps == 0);
  CHECK(s.padding_lanes == 0);
  REQUIRE(s.branches.size() == 1);
  CHECK(s.branches[0].executions == 32);
  CHECK(s.branches[0].divergent_executions == 1);
  CHECK(s.branches[0].passes == 33);
  CHECK(s.branches[0].taken_lanes == 21);
  CHECK(s.branches[0].target == "done");
  REQUIRE(s.warps.size() == 32);
  CHECK(s.warps[31].divergent_branches == 1);
  CHECK(s.warps[31].passes == 2);
  CHECK(s.warps[31].max_stack_depth == 2);
  check_invariant(s);
}
