// What one worker measured over the blocks it ran; workers merge into one LaunchStats. Every
// figure is a sum or a deterministic selection, so the result does not depend on which worker ran
// which block.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "device/launch.hpp"
#include "device/stats.hpp"
#include "device/trace.hpp"
#include "sim/decode.hpp"
#include "device/warp_selection.hpp"

namespace warpsim::sim {

class Block;
struct Warp;

class StatsCollector {
 public:
  StatsCollector(const LaunchSpec& spec, const Program& program, std::uint64_t warps_per_block);

  // Timing mode: per-warp figures the functional loop does not know (set before finish_warp).
  struct WarpTiming {
    std::uint32_t sm = 0, sub_partition = 0;
    StallBreakdown stalls;
  };

  // Counters the warp loop updates directly.
  std::vector<std::uint64_t> histogram;  // warp_size + 1 bins
  std::vector<BranchStats> branches;     // by branch slot
  // By CFG block: warp entries and the lanes active at them (the instruction mix follows).
  std::vector<std::uint64_t> block_entries, block_entry_lanes;

  // Folds a finished warp into the totals, the selection and (when tracing) the trace.
  void finish_warp(const Block& block, Warp& warp, const WarpTiming* timing = nullptr);
  void merge(StatsCollector&& other);
  // Fills every aggregate field of `out` (shape fields too) and the trace.
  void finish(LaunchStats& out, std::optional<Trace>& trace) &&;

 private:
  const LaunchSpec& spec_;
  const Program& program_;
  std::uint32_t warp_size_;
  std::uint64_t warps_per_block_;
  bool tracing_;
  std::uint64_t warp_instructions_ = 0, thread_instructions_ = 0, divergent_warps_ = 0;
  IdleLanes idle_;
  WarpSelector selector_;
  std::vector<WarpTrace> traces_;
};

}  // namespace warpsim::sim
