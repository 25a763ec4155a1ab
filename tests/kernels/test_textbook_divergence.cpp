// TEXTBOOK.md sections 2 and 3: control divergence and boundary checks, from the JSON report.
#include <catch2/catch.hpp>

#include "tests/kernels/textbook_helpers.hpp"

using warpsim::test::branch_to;
using warpsim::test::run_scenario;

TEST_CASE("vector add, n = 1003, 64-thread blocks: 16 blocks, 32 warps, only the last warp diverges") {
  const auto r = run_scenario("vecadd", {{"n", 1003}, {"block", 64}});
  const auto& l = r.launch();
  CHECK(l["blocks"] == 16);
  CHECK(l["warps_launched"] == 32);
  CHECK(l["divergent_warps"] == 1);
  CHECK(l["warps"][31]["divergent_branches"] == 1);
  const auto& skip = branch_to(l, "done");
  CHECK(skip["taken_lanes"] == 21);  // the last 21 threads of block 15 skip the work
  CHECK(skip["divergent_executions"] == 1);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("vector add: n = 100 diverges in 1 of 4 warps, n = 1000 in 1 of 32") {
  const auto hundred = run_scenario("vecadd", {{"n", 100}, {"block", 64}}).launch();
  CHECK(hundred["warps_launched"] == 4);
  CHECK(hundred["divergent_warps"] == 1);
  const auto thousand = run_scenario("vecadd", {{"n", 1000}, {"block", 64}}).launch();
  CHECK(thousand["warps_launched"] == 32);
  CHECK(thousand["divergent_warps"] == 1);
}

TEST_CASE("vector add, n = 10000: 314 warps launched, 313 with work, 1 diverges (the book says 1 of 313)") {
  const auto l = run_scenario("vecadd", {{"n", 10000}, {"block", 64}}, 32, warpsim::WarpSelection::Mode::Default).launch();
  CHECK(l["blocks"] == 157);
  CHECK(l["warps_launched"] == 314);
  CHECK(l["divergent_warps"] == 1);
  // With 32-thread blocks the launch has exactly the book's 313 warps.
  const auto exact = run_scenario("vecadd", {{"n", 10000}, {"block", 32}}, 32, warpsim::WarpSelection::Mode::Default).launch();
  CHECK(exact["warps_launched"] == 313);
  CHECK(exact["divergent_warps"] == 1);
}

TEST_CASE("grey conversion of 76x62 with 16x16 blocks: 20 blocks, 160 warps, 31 diverge") {
  const auto r = run_scenario("gray", {{"width", 76}, {"height", 62}, {"block_x", 16}, {"block_y", 16}});
  const auto& l = r.launch();
  CHECK(l["blocks"] == 20);
  CHECK(l["warps_launched"] == 160);
  CHECK(l["divergent_warps"] == 31);
  // Regions: right-edge blocks (x = 4, y < 3) split in every warp, bottom-edge blocks never,
  // and in the corner block (4, 3) the first 7 warps split.
  int right = 0, bottom = 0, corner = 0;
  for (const auto& w : l["warps"]) {
    const auto bx = w["block_index"]["x"].get<int>(), by = w["block_index"]["y"].get<int>();
    const bool split = w["divergent_branches"].get<int>() > 0;
    if (bx == 4 && by < 3) right += split;
    if (bx < 4 && by == 3) bottom += split;
    if (bx == 4 && by == 3) {
      corner += split;
      CHECK(split == (w["warp"].get<int>() < 7));
    }
  }
  CHECK(right == 24);
  CHECK(bottom == 0);
  CHECK(corner == 7);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("grey conversion of 200x150: 130 blocks, 1040 warps, 75 diverge (the book says 80)") {
  const auto l = run_scenario("gray", {{"width", 200}, {"height", 150}, {"block_x", 16}, {"block_y", 16}}).launch();
  CHECK(l["blocks"] == 130);
  CHECK(l["warps_launched"] == 1040);
  // 72 right-edge warps split; in the corner block rows 150-159 lie outside the image, so only
  // warps 0-2 (rows 144-149) split and warps 3-7 have no work: 72 + 3.
  CHECK(l["divergent_warps"] == 75);
}

TEST_CASE("if (threadIdx.x > 2) splits lanes 0-2 from lanes 3-31 in two passes") {
  const auto text = R"(
kernel split(ptr.u32 out) {
    reg u32 t
    reg u64 off, p
    reg pred big
    mov.u32 t, %tid.x
    setp.gt.u32 big, t, 2
    @!big bra small
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], 1
small:
    exit
}
)";
  const auto kernel = warpsim::kernels::load_kernel(text, "split.kir");
  warpsim::sim::Gpu gpu(warpsim::sim::Config{});
  warpsim::LaunchSpec spec;
  spec.kernel = kernel->kernel;
  spec.analysis = &kernel->analysis;
  spec.grid = {1, 1, 1};
  spec.block = {32, 1, 1};
  spec.args = {gpu.allocate(32 * 4, "out")};
  const auto stats = gpu.launch(spec).stats;
  REQUIRE(stats.branches.size() == 1);
  const auto& b = stats.branches[0];
  CHECK(b.executions == 1);
  CHECK(b.divergent_executions == 1);
  CHECK(b.passes == 2);
  CHECK(b.taken_lanes == 3);       // lanes 0-2 skip
  CHECK(b.not_taken_lanes == 29);  // lanes 3-31 store
  CHECK(stats.divergent_warps == 1);
}

TEST_CASE("a loop of 6, 7 or 8 trips by lane: iterations 7 and 8 run with part of the warp idle") {
  const auto r = run_scenario("divergent-loop", {{"block", 32}});
  const auto& l = r.launch();
  const auto& loop = branch_to(l, "loop");
  // Every warp tests the loop condition 8 times; the 6th test lets 6-trip lanes go, the 7th the
  // 7-trip lanes, the 8th is uniform (everyone left leaves).
  CHECK(loop["executions"] == 8);
  CHECK(loop["divergent_executions"] == 2);
  CHECK(warpsim::test::divergent_per_round(loop) == std::vector<std::uint64_t>{0, 0, 0, 0, 0, 1, 1, 0});
  CHECK(loop["passes"] == 10);
  // Lanes t % 3 == 0 (11 of them) run 6 trips, == 1 (11) run 7, == 2 (10) run 8. The loop body
  // is 4 instructions, so iteration 7 idles 11 lanes and iteration 8 idles 22: 4*11 + 4*22.
  CHECK(l["idle_lane_slots"]["divergence"] == 132);
  CHECK(r.report["check"]["passed"] == true);
}
