// Runs a built-in scenario on the simulator and returns its JSON report, the way a user reads it.
#pragma once
#include <nlohmann/json.hpp>

#include "kernels/scenario.hpp"
#include "sim/gpu.hpp"
#include "tools/report/report.hpp"

namespace warpsim::test {

struct ScenarioJson {
  nlohmann::json report;   // the whole `warpsim run --format json` object
  const nlohmann::json& launch(std::size_t i = 0) const { return report["launches"][i]; }
};

inline ScenarioJson run_scenario(const std::string& name, const kernels::Params& params = {},
                                 std::uint32_t warp_size = 32, WarpSelection::Mode warps = WarpSelection::Mode::All) {
  sim::Config config;
  config.warp_size = warp_size;
  config.limits.warp_size = warp_size;
  sim::Gpu gpu(config);
  const auto* scenario = kernels::find_scenario(name);
  if (scenario == nullptr) throw std::runtime_error("no scenario " + name);
  kernels::RunOptions options;
  options.warps.mode = warps;
  const auto outcome = scenario->run(gpu, kernels::resolve_params(*scenario, params), options);
  report::RunReport run;
  run.title = name;
  run.backend = "sim";
  run.device = gpu.name();
  run.outcome = &outcome;
  return {report::to_json(run)};
}

// The conditional branch to `target` (each textbook kernel's `if` skips to a label: next, done).
inline const nlohmann::json& branch_to(const nlohmann::json& launch, const std::string& target) {
  for (const auto& b : launch["branches"])
    if (b["target"] == target) return b;
  throw std::runtime_error("no branch to " + target);
}

// Per round: how many warps split at this branch's k-th execution.
inline std::vector<std::uint64_t> divergent_per_round(const nlohmann::json& branch) {
  std::vector<std::uint64_t> out;
  for (const auto& r : branch["rounds"]) out.push_back(r["divergent"].get<std::uint64_t>());
  return out;
}

}  // namespace warpsim::test
