// TEXTBOOK.md section 4: the reduction family, round by round, from the JSON report.
#include <catch2/catch.hpp>

#include "tests/kernels/textbook_helpers.hpp"

using warpsim::test::branch_to;
using warpsim::test::divergent_per_round;
using warpsim::test::run_scenario;
using Rounds = std::vector<std::uint64_t>;

TEST_CASE("Fig 5.13 on 512 elements: 9 rounds, and every warp that still works splits in every round") {
  const auto r = run_scenario("reduce-fig5-13", {{"n", 512}, {"block", 512}});
  const auto& l = r.launch();
  const auto& add = branch_to(l, "next");
  CHECK(add["rounds"].size() == 9);
  // Warps with an adding lane: all 16 while stride <= 16, then 8, 4, 2, 1; each of them splits.
  CHECK(divergent_per_round(add) == Rounds{16, 16, 16, 16, 16, 8, 4, 2, 1});
  CHECK(l["divergent_rounds"] == 9);
  CHECK(l["divergent_warps"] == 16);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("Fig 5.15 on 512 elements: whole warps drop out, only the last 5 rounds diverge") {
  const auto r = run_scenario("reduce-fig5-15", {{"n", 512}, {"block", 512}});
  const auto& l = r.launch();
  const auto& add = branch_to(l, "next");
  CHECK(divergent_per_round(add) == Rounds{0, 0, 0, 0, 1, 1, 1, 1, 1});
  CHECK(l["divergent_rounds"] == 5);
  CHECK(l["divergent_warps"] == 1);  // only warp 0 ever splits
  // Round 1: threads 0-255 add: warps 0-7 take the add path whole, warps 8-15 skip it whole.
  CHECK(add["rounds"][0]["executions"] == 16);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("Fig 5.15 beats Fig 5.13: fewer divergent executions and a higher SIMT efficiency") {
  const auto naive = run_scenario("reduce-fig5-13").launch();
  const auto improved = run_scenario("reduce-fig5-15").launch();
  CHECK(branch_to(improved, "next")["divergent_executions"] < branch_to(naive, "next")["divergent_executions"]);
  CHECK(improved["simt_efficiency"].get<double>() > naive["simt_efficiency"].get<double>());
  CHECK(improved["thread_instructions"].get<std::uint64_t>() < naive["thread_instructions"].get<std::uint64_t>());
}

TEST_CASE("ECE408 naive, 1024 threads on 2048 elements: 11 rounds, all but the first diverge") {
  const auto r = run_scenario("reduce-ece408-naive", {{"n", 2048}, {"block", 1024}});
  const auto& add = branch_to(r.launch(), "next");
  // stride 1: every thread adds (uniform); stride 2-32: every warp splits; then 16, 8, 4, 2, 1 warps.
  CHECK(divergent_per_round(add) == Rounds{0, 32, 32, 32, 32, 32, 16, 8, 4, 2, 1});
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("ECE408 improved, 1024 threads on 2048 elements: 6 steps without divergence, then 5 that diverge") {
  const auto r = run_scenario("reduce-ece408-improved", {{"n", 2048}, {"block", 1024}});
  const auto& add = branch_to(r.launch(), "next");
  CHECK(divergent_per_round(add) == Rounds{0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1});
  CHECK(r.launch()["divergent_rounds"] == 5);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("coarsening: the same input in fewer blocks and fewer warp instructions") {
  const auto plain = run_scenario("reduce-fig5-15", {{"n", 65536}, {"block", 256}}, 32,
                                  warpsim::WarpSelection::Mode::Default);
  const auto coarse = run_scenario("reduce-coarsened", {{"n", 65536}, {"block", 256}, {"coarse", 4}}, 32,
                                   warpsim::WarpSelection::Mode::Default);
  CHECK(plain.launch()["blocks"] == 256);
  CHECK(coarse.launch()["blocks"] == 32);
  CHECK(coarse.launch()["warp_instructions"].get<std::uint64_t>() <
        plain.launch()["warp_instructions"].get<std::uint64_t>());
  CHECK(coarse.report["check"]["passed"] == true);
}

TEST_CASE("a whole-array sum runs a second launch on the block sums") {
  const auto r = run_scenario("reduce-full", {{"n", 100000}, {"block", 256}}, 32, warpsim::WarpSelection::Mode::Default);
  CHECK(r.report["launches"].size() == 3);  // 100000 -> 391 -> 2 -> 1
  CHECK(r.report["launches"][0]["blocks"] == 391);
  CHECK(r.report["launches"][1]["blocks"] == 2);
  CHECK(r.report["launches"][2]["blocks"] == 1);
  CHECK(r.report["check"]["passed"] == true);
}

TEST_CASE("a whole-array sum in one launch: the last block adds the block sums") {
  const auto r = run_scenario("reduce-last-block", {{"n", 5000}, {"block", 128}}, 32, warpsim::WarpSelection::Mode::Default);
  CHECK(r.report["launches"].size() == 1);
  CHECK(r.report["check"]["passed"] == true);
}
