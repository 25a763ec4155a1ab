// TEXTBOOK.md sections 1 and 6: warp formation and reportClocks, asserted from the JSON report.
#include <catch2/catch.hpp>

#include "tests/kernels/textbook_helpers.hpp"

using warpsim::test::run_scenario;

namespace {
warpsim::kernels::Params shape(std::uint64_t x, std::uint64_t y, std::uint64_t z = 1) {
  return {{"block_x", x}, {"block_y", y}, {"block_z", z}};
}
}  // namespace

TEST_CASE("a 48-thread block forms 2 warps, the second padded with 16 lanes") {
  const auto r = run_scenario("warp-shapes", shape(48, 1));
  const auto& l = r.launch();
  CHECK(l["warps_per_block"] == 2);
  CHECK(l["partial_warps"] == 1);
  CHECK(l["padding_lanes"] == 16);
  CHECK(l["warps"][1]["lanes"] == 16);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("an 8x8 block forms 2 warps: rows 0-3 in the first, rows 4-7 in the second") {
  const auto r = run_scenario("warp-shapes", shape(8, 8));
  const auto& l = r.launch();
  CHECK(l["warps_per_block"] == 2);
  CHECK(l["padding_lanes"] == 0);
  // The host reference checked every thread's (warp, lane) against linear = x + 8y.
  CHECK(r.report["check"]["passed"] == true);
  CHECK(l["warps"][1]["first_thread"] == 32);  // T(4,0): y = 4, x = 0
}

TEST_CASE("a 4x8x2 block forms 2 warps, one per z plane") {
  const auto r = run_scenario("warp-shapes", shape(4, 8, 2));
  CHECK(r.launch()["warps_per_block"] == 2);
  CHECK(r.launch()["padding_lanes"] == 0);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("28-thread blocks of 14x2, 28x1 and 7x4 form one warp with 4 idle lanes") {
  for (auto [x, y] : {std::pair{14, 2}, std::pair{28, 1}, std::pair{7, 4}}) {
    const auto r = run_scenario("warp-shapes", shape(x, y));
    INFO(x << "x" << y);
    CHECK(r.launch()["warps_per_block"] == 1);
    CHECK(r.launch()["padding_lanes"] == 4);
    CHECK(r.launch()["warps"][0]["lanes"] == 28);
  }
}

TEST_CASE("a 14x8 block wastes 12.5% of its lane slots, a 16x8 block none") {
  const auto wasteful = run_scenario("warp-shapes", shape(14, 8)).launch();
  CHECK(wasteful["warps_per_block"] == 4);
  CHECK(wasteful["padding_lanes"] == 16);  // 112 threads: warps of 32, 32, 32 and 16
  const double padding = wasteful["idle_lane_slots"]["padding"].get<double>();
  CHECK(padding / wasteful["lane_slots"].get<double>() == Approx(0.125));
  const auto full = run_scenario("warp-shapes", shape(16, 8)).launch();
  CHECK(full["idle_lane_slots"]["padding"] == 0);
  CHECK(full["simt_efficiency"] == Approx(1.0));
}

TEST_CASE("the warp size is a setting: 48 threads form 3 warps of 16 or 1 warp of 64") {
  const auto sixteen = run_scenario("warp-shapes", shape(48, 1), 16);
  CHECK(sixteen.launch()["warps_per_block"] == 3);
  CHECK(sixteen.launch()["padding_lanes"] == 0);
  CHECK(sixteen.report["check"]["passed"] == true);
  const auto sixty_four = run_scenario("warp-shapes", shape(48, 1), 64);
  CHECK(sixty_four.launch()["warps_per_block"] == 1);
  CHECK(sixty_four.launch()["padding_lanes"] == 16);
  CHECK(sixty_four.launch()["active_lanes_histogram"].size() == 65);
  CHECK(sixty_four.report["check"]["passed"] == true);
}

TEST_CASE("reportClocks: the lanes of a warp read one clock value, each warp its own") {
  const auto r = run_scenario("report-clocks", {{"block_x", 14}, {"block_y", 8}});
  CHECK(r.report["check"]["passed"] == true);
  CHECK(r.launch()["warps_per_block"] == 4);
  CHECK(r.launch()["partial_warps"] == 4);  // one per block, 4 blocks
  CHECK(r.report["check"]["detail"].get<std::string>().find("4 distinct values in block 0") != std::string::npos);
}
