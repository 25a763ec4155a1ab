// JSON with stable keys (docs/report.md documents every key).
#include "tools/report/report.hpp"

namespace warpsim::report {

namespace {
nlohmann::json dim(const Dim3& d) { return {{"x", d.x}, {"y", d.y}, {"z", d.z}}; }
nlohmann::json idle(const IdleLanes& i) {
  return {{"padding", i.padding}, {"divergence", i.divergence}, {"exited", i.exited}, {"predicated", i.predicated}};
}
}  // namespace

nlohmann::json to_json(const LaunchStats& s) {
  nlohmann::json j;
  j["kernel"] = s.kernel;
  j["backend"] = s.backend;
  j["grid"] = dim(s.grid);
  j["block"] = dim(s.block);
  j["warp_size"] = s.warp_size;
  j["blocks"] = s.blocks;
  j["warps_per_block"] = s.warps_per_block;
  j["warps_launched"] = s.warps_launched;
  j["partial_warps"] = s.partial_warps;
  j["padding_lanes"] = s.padding_lanes;
  j["divergent_warps"] = s.divergent_warps;
  j["warp_instructions"] = s.warp_instructions;
  j["thread_instructions"] = s.thread_instructions;
  j["lane_slots"] = s.lane_slots();
  j["simt_efficiency"] = s.simt_efficiency();
  j["idle_lane_slots"] = idle(s.idle_lane_slots);
  j["active_lanes_histogram"] = s.active_lanes_histogram;
  j["divergent_rounds"] = divergent_rounds(s);
  j["cycles"] = s.cycles;
  j["kernel_ms"] = s.kernel_ms;
  auto& branches = j["branches"] = nlohmann::json::array();
  for (const auto& b : s.branches) {
    auto occurrences = nlohmann::json::array();
    for (const auto& o : b.occurrences) occurrences.push_back({{"executions", o.executions}, {"divergent", o.divergent}});
    branches.push_back({{"pc", b.pc},
                        {"line", b.line},
                        {"label", b.label},
                        {"target", b.target},
                        {"reconvergence_pc", b.reconvergence_pc},
                        {"executions", b.executions},
                        {"divergent_executions", b.divergent_executions},
                        {"passes", b.passes},
                        {"taken_lanes", b.taken_lanes},
                        {"not_taken_lanes", b.not_taken_lanes},
                        {"rounds", occurrences}});
  }
  auto& warps = j["warps"] = nlohmann::json::array();
  for (const auto& w : s.warps)
    warps.push_back({{"block", w.block_linear},
                     {"block_index", dim(w.block_index)},
                     {"warp", w.warp_in_block},
                     {"first_thread", w.first_thread},
                     {"lanes", w.lanes},
                     {"warp_instructions", w.warp_instructions},
                     {"thread_instructions", w.thread_instructions},
                     {"divergent_branches", w.divergent_branches},
                     {"passes", w.passes},
                     {"max_stack_depth", w.max_stack_depth},
                     {"efficiency", w.efficiency(s.warp_size)},
                     {"idle_lane_slots", idle(w.idle)},
                     {"first_cycle", w.first_cycle},
                     {"last_cycle", w.last_cycle}});
  return j;
}

nlohmann::json to_json(const RunReport& run) {
  nlohmann::json j;
  j["name"] = run.title;
  auto& params = j["params"] = nlohmann::json::object();
  for (const auto& [k, v] : run.params) params[k] = v;
  j["backend"] = run.backend;
  j["device"] = run.device;
  auto& launches = j["launches"] = nlohmann::json::array();
  for (const auto& l : run.outcome->launches) {
    auto one = to_json(l.result.stats);
    one["file"] = l.kernel_file;
    launches.push_back(std::move(one));
  }
  j["check"] = {{"ran", run.outcome->checked}, {"passed", run.outcome->passed}, {"detail", run.outcome->check}};
  return j;
}

}  // namespace warpsim::report
