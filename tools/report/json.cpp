// JSON with stable keys (docs/report.md documents every key).
#include "tools/report/report.hpp"

namespace warpsim::report {

namespace {
nlohmann::json dim(const Dim3& d) { return {{"x", d.x}, {"y", d.y}, {"z", d.z}}; }
nlohmann::json stalls(const StallBreakdown& s) {
  return {{"issued", s.issued},         {"dependency", s.dependency},     {"memory", s.memory},
          {"barrier", s.barrier},       {"not_selected", s.not_selected}, {"unit_busy", s.unit_busy},
          {"no_instruction", s.no_instruction}};
}
nlohmann::json timing(const TimingStats& t) {
  const Occupancy& o = t.occupancy;
  const MemoryStats& m = t.memory;
  return {{"gpu", t.gpu},
          {"clock_mhz", t.clock_mhz},
          {"sms", t.sms},
          {"scheduler", t.scheduler},
          {"cycles", t.cycles},
          {"microseconds", t.microseconds()},
          {"ipc", t.ipc()},
          {"waves", t.waves},
          {"occupancy",
           {{"theoretical", o.theoretical()},
            {"achieved", t.achieved_occupancy()},
            {"limiter", o.limiter},
            {"blocks_per_sm", o.blocks_per_sm},
            {"warps_per_sm", o.warps_per_sm},
            {"max_warps_per_sm", o.max_warps_per_sm},
            {"registers_per_thread", o.registers_per_thread},
            {"shared_bytes_per_block", o.shared_bytes_per_block},
            {"block_limits",
             {{"warps", o.limit_warps},
              {"registers", o.limit_registers},
              {"shared_memory", o.limit_shared},
              {"blocks", o.limit_blocks},
              {"barriers", o.limit_barriers}}}}},
          {"issue_slot_utilisation", t.issue_utilisation()},
          {"stalls", stalls(t.stalls)},
          {"memory",
           {{"global_load_requests", m.global_load_requests},
            {"global_store_requests", m.global_store_requests},
            {"global_atomic_requests", m.global_atomic_requests},
            {"global_sectors", m.global_sectors},
            {"sectors_per_request", m.sectors_per_request()},
            {"l1_hit_rate", m.l1_hit_rate()},
            {"l2_hit_rate", m.l2_hit_rate()},
            {"l1_sector_accesses", m.l1_sector_accesses},
            {"l2_sector_accesses", m.l2_sector_accesses},
            {"dram_bytes", m.dram_bytes},
            {"shared_requests", m.shared_requests},
            {"shared_passes", m.shared_passes},
            {"shared_bank_conflicts", m.bank_conflicts()}}}};
}
nlohmann::json mix(const InstructionMix& m) {
  nlohmann::json j = nlohmann::json::object();
  for (unsigned c = 0; c < isa::kTimingClasses; ++c)
    if (m.warp[c] != 0)
      j[std::string(isa::timing_class_key(static_cast<isa::TimingClass>(c)))] = {{"warp_instructions", m.warp[c]},
                                                                                 {"active_lanes", m.lanes[c]}};
  return j;
}
nlohmann::json idle(const IdleLanes& i) {
  return {{"padding", i.padding}, {"divergence", i.divergence}, {"exited", i.exited}, {"predicated", i.predicated}};
}
}  // namespace

// The GPU's compile of the timed build (cuda backend only; the simulator's estimate is in "timing").
void compiled(nlohmann::json& j, const LaunchStats& s) {
  if (s.backend != "cuda") return;
  j["compiled_registers"] = s.compiled_registers;
  j["compiled_local_bytes"] = s.compiled_local_bytes;
  j["timed_build"] = s.timed_build;
}

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
  j["traced"] = s.traced;
  if (!s.traced) {  // --gpu-trace off: the shape and the measured time, nothing the trace gives
    j["kernel_ms"] = s.kernel_ms;
    j["kernel_ms_range"] = {s.kernel_ms_min, s.kernel_ms_max};
    compiled(j, s);
    return j;
  }
  j["divergent_warps"] = s.divergent_warps;
  j["warp_instructions"] = s.warp_instructions;
  j["thread_instructions"] = s.thread_instructions;
  j["lane_slots"] = s.lane_slots();
  j["simt_efficiency"] = s.simt_efficiency();
  j["idle_lane_slots"] = idle(s.idle_lane_slots);
  j["active_lanes_histogram"] = s.active_lanes_histogram;
  j["divergent_rounds"] = divergent_rounds(s);
  j["instruction_mix"] = mix(s.mix);
  j["timing"] = s.timed ? timing(s.timing) : nlohmann::json(nullptr);
  j["cycles"] = s.timed ? s.timing.cycles : 0;
  j["kernel_ms"] = s.kernel_ms;
  j["kernel_ms_range"] = {s.kernel_ms_min, s.kernel_ms_max};
  compiled(j, s);
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
    if (!b.source.empty()) branches.back()["source"] = b.source;  // imported kernels only
  }
  auto& warps = j["warps"] = nlohmann::json::array();
  for (const auto& w : s.warps) {
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
                     {"first_issue", w.first_issue},
                     {"last_issue", w.last_issue},
                     {"first_cycle", w.first_cycle},
                     {"last_cycle", w.last_cycle}});
    // [branch pc, lanes that ran first, lanes that waited] per divergent branch, in execution order.
    auto& order = warps.back()["path_order"] = nlohmann::json::array();
    for (const auto& p : w.path_order) order.push_back({p.pc, p.first, p.second});
    if (w.timed) {
      warps.back()["sm"] = w.sm;
      warps.back()["sub_partition"] = w.sub_partition;
      warps.back()["stalls"] = stalls(w.stalls);
    }
  }
  return j;
}

nlohmann::json to_json(const kernels::FaultInfo& f) {
  nlohmann::json fault = {{"launch", f.launch}, {"kernel", f.kernel},   {"file", f.kernel_file},
                          {"grid", dim(f.grid)}, {"block", dim(f.block)}, {"message", f.message},
                          {"line", fault_line(f)}};
  if (f.site)
    fault["site"] = {{"block_index", {{"x", f.site->block_x}, {"y", f.site->block_y}, {"z", f.site->block_z}}},
                     {"warp", f.site->warp},
                     {"lane", f.site->lane},
                     {"pc", f.site->pc},
                     {"line", f.site->line},
                     {"source", f.site->source},
                     {"cause", f.site->cause}};
  else
    fault["site"] = nullptr;
  return fault;
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
  // Every buffer the host read back, in order; elements are counted in 4-byte words, as validate does.
  auto& outputs = j["outputs"] = nlohmann::json::array();
  for (const auto& o : run.outcome->outputs) outputs.push_back({{"label", o.label}, {"elements", o.bytes.size() / 4}});
  j["check"] = {{"ran", run.outcome->checked}, {"passed", run.outcome->passed}, {"detail", run.outcome->check}};
  j["fault"] = run.outcome->fault ? to_json(*run.outcome->fault) : nlohmann::json();
  if (!run.buffers.empty()) j["buffers"] = run.buffers;
  if (const auto& r = run.reproduce)
    j["reproduce"] = {{"argv", r->argv},
                      {"target", run.title},
                      {"params", j["params"]},
                      {"seed", r->seed},
                      {"buffers", run.buffers},
                      {"preset", r->preset},
                      {"gpu_set", r->gpu_sets},
                      {"mode", r->mode},
                      {"reconvergence", r->reconvergence},
                      {"warp_size", r->warp_size},
                      {"version", r->version}};
  return j;
}

}  // namespace warpsim::report
