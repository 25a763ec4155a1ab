// The per-warp table as CSV, one row per kept warp of every launch.
#include <fmt/format.h>

#include "tools/report/report.hpp"

namespace warpsim::report {

std::string format_csv(const RunReport& run) {
  std::string out =
      "launch,kernel,block,block_x,block_y,block_z,warp,first_thread,lanes,warp_instructions,thread_instructions,"
      "divergent_branches,passes,max_stack_depth,efficiency,idle_padding,idle_divergence,idle_exited,"
      "idle_predicated,first_issue,last_issue,first_cycle,last_cycle,sm,sub_partition,stall_issued,stall_dependency,"
      "stall_memory,stall_barrier,stall_not_selected,stall_unit_busy,stall_no_instruction\n";
  const auto& launches = run.outcome->launches;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& s = launches[i].result.stats;
    for (const auto& w : s.warps)
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.6f},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                         i + 1, s.kernel,
                         w.block_linear, w.block_index.x, w.block_index.y, w.block_index.z, w.warp_in_block,
                         w.first_thread, w.lanes, w.warp_instructions, w.thread_instructions, w.divergent_branches,
                         w.passes, w.max_stack_depth, w.efficiency(s.warp_size), w.idle.padding, w.idle.divergence,
                         w.idle.exited, w.idle.predicated, w.first_issue, w.last_issue, w.first_cycle, w.last_cycle,
                         w.sm, w.sub_partition, w.stalls.issued, w.stalls.dependency, w.stalls.memory,
                         w.stalls.barrier, w.stalls.not_selected, w.stalls.unit_busy, w.stalls.no_instruction);
  }
  // A comment row, after the warps of the launches that completed (docs/report.md).
  if (run.outcome->fault) out += "# " + fault_line(*run.outcome->fault) + "\n";
  return out;
}

}  // namespace warpsim::report
