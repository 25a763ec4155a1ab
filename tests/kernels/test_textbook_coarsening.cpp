// TEXTBOOK.md section 5: thread coarsening (PMPP 6.3), the tiled matrix multiply and its coarsened
// form, and coarsening where it buys nothing (vector add, grey conversion). Launch shapes come from
// the JSON report; global loads and barriers are counted from the trace (instruction_mix.hpp).
#include <catch2/catch.hpp>

#include "device/errors.hpp"
#include "tests/kernels/instruction_mix.hpp"
#include "tests/kernels/textbook_helpers.hpp"

using warpsim::test::instruction_mix;
using warpsim::test::run_scenario;
using warpsim::test::run_traced;
using Params = warpsim::kernels::Params;

namespace {

constexpr auto kDefault = warpsim::WarpSelection::Mode::Default;

Params shape(std::uint64_t rows, std::uint64_t inner, std::uint64_t cols, std::uint64_t tile) {
  return {{"rows", rows}, {"inner", inner}, {"cols", cols}, {"tile", tile}};
}
Params coarsened(Params p, std::uint64_t coarse) {
  p["coarse"] = coarse;
  return p;
}

// Global loads per output of P, from the trace.
double loads_per_output(const std::string& scenario, const Params& p) {
  const auto outcome = run_traced(scenario, p);
  REQUIRE(outcome.passed);
  return double(instruction_mix(outcome.launches.at(0)).global_loads) / double(p.at("rows") * p.at("cols"));
}

}  // namespace

TEST_CASE("the instruction mix counted from the trace adds up to the report's thread instructions") {
  const auto outcome = run_traced("matmul-tiled");
  const auto& launch = outcome.launches.at(0);
  CHECK(instruction_mix(launch).thread_instructions == launch.result.stats.thread_instructions);
  CHECK(instruction_mix(launch).global_stores == 100 * 120);  // one store per output, none outside P
}

TEST_CASE("every matmul kernel equals the host's result for sizes that are not multiples of the tile") {
  for (const auto& [rows, inner, cols] : {std::tuple{37, 53, 29}, {1, 1, 1}, {33, 17, 65}})
    for (std::uint64_t tile : {8, 16, 32}) {
      const auto p = shape(rows, inner, cols, tile);
      INFO(rows << "x" << inner << " times " << inner << "x" << cols << ", tile " << tile);
      CHECK(run_scenario("matmul-naive", p, 32, kDefault).report["check"]["passed"] == true);
      CHECK(run_scenario("matmul-tiled", p, 32, kDefault).report["check"]["passed"] == true);
      for (std::uint64_t coarse : {1, 2, 4, 8, 16}) {
        INFO("coarse " << coarse);
        CHECK(run_scenario("matmul-coarsened", coarsened(p, coarse), 32, kDefault).report["check"]["passed"] == true);
      }
    }
}

TEST_CASE("a tiled launch has one TILE x TILE block per output tile, a coarsened one per TILE x TILE*COARSE") {
  // 100 x 120 outputs, TILE 16: 7 block rows; 8 block columns, or ceil(120 / 64) = 2 with COARSE 4.
  const auto tiled = run_scenario("matmul-tiled", {}, 32, kDefault).launch();
  CHECK(tiled["blocks"] == 56);
  CHECK(tiled["warps_per_block"] == 8);
  CHECK(tiled["warps_launched"] == 448);
  const auto coarse = run_scenario("matmul-coarsened", {}, 32, kDefault).launch();
  CHECK(coarse["grid"]["x"] == 2);
  CHECK(coarse["grid"]["y"] == 7);
  CHECK(coarse["warps_launched"] == 112);
  // Too far: COARSE 16 leaves one block column, 7 blocks in all, for a GPU of 132 SMs (pitfall 2).
  CHECK(run_scenario("matmul-coarsened", {{"coarse", 16}}, 32, kDefault).launch()["blocks"] == 7);
  // TILE 32 is the largest tile: 1024 threads, 32 warps per block.
  CHECK(run_scenario("matmul-tiled", {{"tile", 32}}, 32, kDefault).launch()["warps_per_block"] == 32);
}

TEST_CASE("a tile over 32 or a coarsening factor without a kernel is refused with the reason") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(run_scenario("matmul-tiled", {{"tile", 64}}),
                    Contains("tile = 64 makes a 64x64 block of 4096 threads, over the 1024 a block may hold"));
  CHECK_THROWS_WITH(run_scenario("matmul-coarsened", {{"tile", 33}}), Contains("over the 1024 a block may hold"));
  CHECK_THROWS_WITH(run_scenario("matmul-coarsened", {{"coarse", 3}}),
                    Contains("coarse = 3: the coarsened kernel exists for coarse = 1, 2, 4, 8 or 16"));
}

TEST_CASE("tiling divides the global loads per output by TILE, coarsening saves the M tile's share") {
  // 64 x 64 x 64, TILE 16: 4 phases. Naive: 2 loads per product, 128 per output. Tiled: one M and
  // one N element per thread per phase, 8 per output. Coarsened: one M element per phase for
  // COARSE outputs, plus one N element per output per phase: 4 * (1 + 1/COARSE).
  const auto p = shape(64, 64, 64, 16);
  CHECK(loads_per_output("matmul-naive", p) == 128.0);
  CHECK(loads_per_output("matmul-tiled", p) == 8.0);
  CHECK(loads_per_output("matmul-coarsened", coarsened(p, 1)) == 8.0);
  CHECK(loads_per_output("matmul-coarsened", coarsened(p, 2)) == 6.0);
  CHECK(loads_per_output("matmul-coarsened", coarsened(p, 4)) == 5.0);
}

TEST_CASE("the coarsened kernel issues fewer global loads per output than the tiled one, edges included") {
  // Defaults: 100 x 70 x 120, TILE 16 (no size is a multiple of 16), COARSE 4.
  const auto tiled = run_traced("matmul-tiled"), coarse = run_traced("matmul-coarsened");
  const auto t = instruction_mix(tiled.launches.at(0)), c = instruction_mix(coarse.launches.at(0));
  CHECK(c.global_loads < t.global_loads);
  // Only M's loads drop: N's are the same elements, loaded by the same number of threads.
  CHECK(c.global_loads - c.m_loads == t.global_loads - t.m_loads);
  CHECK(c.m_loads < t.m_loads);
  CHECK(coarse.launches[0].result.stats.thread_instructions < tiled.launches[0].result.stats.thread_instructions);
}

TEST_CASE("coarsening the tiled matmul leaves the barriers per output unchanged") {
  // Each N tile still needs its two barriers; a coarsened block waits 2*COARSE times per phase,
  // and there are COARSE times fewer blocks. 64^3, TILE 16: 128 warps x 4 phases x 2.
  const auto p = shape(64, 64, 64, 16);
  const auto tiled = instruction_mix(run_traced("matmul-tiled", p).launches.at(0));
  const auto coarse = instruction_mix(run_traced("matmul-coarsened", coarsened(p, 4)).launches.at(0));
  CHECK(tiled.barriers == 1024);
  CHECK(coarse.barriers == 1024);
}

TEST_CASE("COARSE 1 is the tiled kernel: the same launch, loads, barriers and result") {
  const auto tiled = run_traced("matmul-tiled"), one = run_traced("matmul-coarsened", {{"coarse", 1}});
  const auto& t = tiled.launches.at(0).result.stats;
  const auto& o = one.launches.at(0).result.stats;
  CHECK(o.grid == t.grid);
  CHECK(o.warps_launched == t.warps_launched);
  CHECK(o.divergent_warps == t.divergent_warps);
  CHECK(instruction_mix(one.launches[0]).global_loads == instruction_mix(tiled.launches[0]).global_loads);
  CHECK(instruction_mix(one.launches[0]).barriers == instruction_mix(tiled.launches[0]).barriers);
  CHECK(one.outputs.back().bytes == tiled.outputs.back().bytes);
}

TEST_CASE("the naive matmul diverges only at the right edge: rows split on col < cols") {
  // 100 x 120 outputs in 16x16 blocks: block column 7 holds columns 112-127, so each of its warps
  // (two rows of 16) splits 8/8, in block rows 0-5 (48 warps) and in the 2 warps of block row 6
  // that hold rows 96-99. The 6 warps below row 99 skip whole.
  const auto l = run_scenario("matmul-naive", {}, 32, kDefault).launch();
  CHECK(l["warps_launched"] == 448);
  CHECK(l["divergent_warps"] == 50);
}

TEST_CASE("coarsening vector add: 4 times fewer warps, the same loads, more instructions per element") {
  const Params p{{"n", 4096}, {"block", 64}};
  auto pc = p;
  pc["coarse"] = 4;
  const auto plain = run_traced("vecadd", p), coarse = run_traced("vecadd-coarsened", pc);
  const auto& ps = plain.launches.at(0).result.stats;
  const auto& cs = coarse.launches.at(0).result.stats;
  CHECK(ps.warps_launched == 128);
  CHECK(cs.warps_launched == 32);
  CHECK(instruction_mix(plain.launches[0]).global_loads == 2 * 4096);
  CHECK(instruction_mix(coarse.launches[0]).global_loads == 2 * 4096);
  // 12 instructions per element plain; 66 per thread for 4 elements coarsened (the loop's test,
  // bounds check and increments around the same 8-instruction body): 16.5 per element.
  CHECK(ps.thread_instructions == 12 * 4096);
  CHECK(cs.thread_instructions == 66 * 1024);
  CHECK(coarse.passed);
}

TEST_CASE("coarsening grey conversion: the same pixels and loads in fewer warps, the same edge checks") {
  const auto plain = run_traced("gray"), coarse = run_traced("gray-coarsened");
  const auto& ps = plain.launches.at(0).result.stats;
  const auto& cs = coarse.launches.at(0).result.stats;
  CHECK(ps.warps_launched == 160);
  CHECK(cs.warps_launched == 64);  // 2 x 4 blocks of 16x16 cover 128 x 64 pixels
  CHECK(instruction_mix(plain.launches[0]).global_loads == 3 * 76 * 62);
  CHECK(instruction_mix(coarse.launches[0]).global_loads == 3 * 76 * 62);
  CHECK(cs.thread_instructions > ps.thread_instructions);
  CHECK(coarse.passed);
}

TEST_CASE("at the defaults each coarsening factor gives the blocks, loads and barriers of docs/textbook.md") {
  struct Row {
    std::uint64_t coarse, blocks, thread_instructions, m_loads, n_loads, barriers;
  };
  // 100x70 times 70x120, TILE 16: M is loaded once per block column, N once per block row (7).
  for (const auto& row : {Row{1, 56, 10485056, 56000, 58800, 4480}, Row{2, 28, 9792448, 28000, 58800, 4480},
                          Row{4, 14, 9446144, 14000, 58800, 4480}, Row{8, 7, 9272992, 7000, 58800, 4480},
                          Row{16, 7, 18089632, 7000, 58800, 8960}}) {
    INFO("coarse " << row.coarse);
    const auto outcome = run_traced("matmul-coarsened", {{"coarse", row.coarse}});
    const auto& stats = outcome.launches.at(0).result.stats;
    const auto mix = instruction_mix(outcome.launches[0]);
    CHECK(stats.blocks == row.blocks);
    CHECK(stats.thread_instructions == row.thread_instructions);
    CHECK(mix.m_loads == row.m_loads);
    CHECK(mix.global_loads - mix.m_loads == row.n_loads);
    CHECK(mix.barriers == row.barriers);
  }
  const auto naive = instruction_mix(run_traced("matmul-naive").launches.at(0));
  CHECK(naive.global_loads == 2 * 100 * 70 * 120);  // 140 per output
}
