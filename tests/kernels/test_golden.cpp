// Golden reports: the text report of every built-in scenario at its defaults, kept next to the
// kernels (kernels/expected/NAME.txt), so any change to a figure shows up as a readable diff.
// WARPSIM_UPDATE_GOLDEN=1 rewrites the files after an intended change.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kernels/matmul_coarsened.hpp"
#include "kernels/scenario.hpp"
#include "tools/cli.hpp"

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("every scenario's report matches its golden file") {
  const bool update = std::getenv("WARPSIM_UPDATE_GOLDEN") != nullptr;
  std::size_t checked = 0;
  for (const auto& scenario : warpsim::kernels::all_scenarios()) {
    const std::string name(scenario->name());
    warpsim::cli::Io io;
    const int code = warpsim::cli::run_cli({"run", name}, io);
    INFO(name << ": " << io.err);
    REQUIRE(code == 0);
    const auto path = std::string(WARPSIM_KERNELS_DIR) + "/expected/" + name + ".txt";
    if (update) {
      std::ofstream(path) << io.out;
      continue;
    }
    std::ifstream in(path);
    INFO("missing " << path << " (run the test with WARPSIM_UPDATE_GOLDEN=1 to write it)");
    REQUIRE(in.good());
    std::ostringstream expected;
    expected << in.rdbuf();
    const auto want = lines(expected.str()), got = lines(io.out);
    for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
      const std::string w = i < want.size() ? want[i] : "(end of file)", g = i < got.size() ? got[i] : "(end of report)";
      INFO(path << " line " << i + 1 << "\n  expected: " << w << "\n  reported: " << g);
      REQUIRE(w == g);
    }
    ++checked;
  }
  if (!update) CHECK(checked == warpsim::kernels::all_scenarios().size());
}

TEST_CASE("the committed coarsened matmul kernels are exactly what their generator writes") {
  const bool update = std::getenv("WARPSIM_UPDATE_GOLDEN") != nullptr;
  for (const auto coarse : warpsim::kernels::kMatmulCoarseFactors) {
    const auto path = std::string(WARPSIM_KERNELS_DIR) + "/" + warpsim::kernels::matmul_coarsened_file(coarse);
    const auto generated = warpsim::kernels::matmul_coarsened_kir(coarse);
    if (update) {
      std::ofstream(path) << generated;
      continue;
    }
    std::ifstream in(path);
    std::ostringstream committed;
    committed << in.rdbuf();
    INFO(path << " differs from kernels/matmul_coarsened.cpp's output (WARPSIM_UPDATE_GOLDEN=1 rewrites it)");
    CHECK(committed.str() == generated);
  }
}
