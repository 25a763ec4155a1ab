// What one launch measured, as typed fields (names follow ARCHITECTURE.md "What is measured").
// Printers (tools/report/) turn this into text, JSON and CSV; nothing here formats.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch.hpp"

namespace warpsim {

// Idle lane slots of issued warp instructions, by cause.
struct IdleLanes {
  std::uint64_t padding = 0;     // lanes that do not exist (partial last warp of a block)
  std::uint64_t divergence = 0;  // existing, not exited, masked off by the reconvergence stack
  std::uint64_t exited = 0;      // finished early
  std::uint64_t predicated = 0;  // active, but the instruction's guard predicate was false
  std::uint64_t total() const { return padding + divergence + exited + predicated; }
  IdleLanes& operator+=(const IdleLanes& o);
};

// The k-th execution of a branch by each warp (a loop's round k): how many warps got there and
// how many of them split.
struct BranchOccurrence {
  std::uint64_t executions = 0;
  std::uint64_t divergent = 0;
};

struct BranchStats {
  std::uint32_t pc = 0;              // instruction index of the bra
  std::uint32_t line = 0;            // source line
  std::string label;                 // the label of the block holding the branch ("" if none)
  std::string target;                // the label branched to
  std::uint32_t reconvergence_pc = 0;
  std::uint64_t executions = 0;      // warp-level executions
  std::uint64_t divergent_executions = 0;
  std::uint64_t passes = 0;          // paths run one after the other: 1 per uniform, 2 per divergent execution
  std::uint64_t taken_lanes = 0;     // lanes summed over executions
  std::uint64_t not_taken_lanes = 0;
  std::vector<BranchOccurrence> occurrences;  // index k: every warp's k-th execution (capped, see kMaxOccurrences)
  static constexpr std::size_t kMaxOccurrences = 256;
};

struct WarpStats {
  std::uint64_t block_linear = 0;
  Dim3 block_index;                  // blockIdx (x, y, z)
  std::uint32_t warp_in_block = 0;
  std::uint64_t first_thread = 0;    // linear thread index in the block of lane 0
  std::uint32_t lanes = 0;           // lanes that exist (< warp size for a partial warp)
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::uint64_t divergent_branches = 0;
  std::uint64_t passes = 0;          // 1 + one more for every divergent branch execution
  std::uint32_t max_stack_depth = 0;
  IdleLanes idle;
  std::uint64_t first_cycle = 0, last_cycle = 0;
  double efficiency(std::uint32_t warp_size) const {
    return warp_instructions ? double(thread_instructions) / double(warp_instructions * warp_size) : 0.0;
  }
};

struct LaunchStats {
  std::string kernel;
  std::string backend;               // "sim" or "cuda"
  Dim3 grid, block;
  std::uint32_t warp_size = 32;
  std::uint64_t blocks = 0;
  std::uint64_t warps_per_block = 0;
  std::uint64_t warps_launched = 0;
  std::uint64_t partial_warps = 0;
  std::uint64_t padding_lanes = 0;   // lanes that do not exist, summed over all warps launched
  std::uint64_t divergent_warps = 0; // warps that split at least once
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  IdleLanes idle_lane_slots;
  std::vector<std::uint64_t> active_lanes_histogram;  // index n: issued instructions with n lanes active
  std::vector<BranchStats> branches;                  // sorted by pc
  std::vector<WarpStats> warps;                       // the kept warps (WarpSelection), in launch order
  std::uint64_t cycles = 0;                           // 0 when no timing model ran
  double kernel_ms = 0.0;                             // measured on hardware (cuda backend)

  std::uint64_t lane_slots() const { return warp_instructions * warp_size; }
  double simt_efficiency() const {
    return warp_instructions ? double(thread_instructions) / double(lane_slots()) : 0.0;
  }
};

}  // namespace warpsim
