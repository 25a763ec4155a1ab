// One warp's state while its block is resident: lanes, the current path (cached from the
// reconvergence model), register views into its block's storage, and its counters.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "device/trace.hpp"
#include "sim/reconvergence.hpp"

namespace warpsim::sim {

struct Warp {
  enum class State : std::uint8_t { Ready, AtBarrier, Exited };

  std::uint32_t index = 0;        // warp within its block
  std::uint32_t lanes = 0;        // lanes that exist
  std::uint64_t exist = 0;        // mask of the lanes that exist
  std::uint64_t padding = 0;      // mask of the warp-size lanes that do not
  std::uint64_t alive = 0;        // existing lanes that have not exited
  State state = State::Ready;

  // The current path, cached from `paths` (authoritative for the top entry's pc while running).
  std::uint32_t pc = 0;
  std::uint64_t active = 0;
  std::uint32_t watch = kNoPc;
  std::uint32_t skip = kNoPc;     // Reconvergence::skip_pc()
  std::unique_ptr<Reconvergence> paths;

  std::uint32_t* r32 = nullptr;   // registers32 slots of warp_size words
  std::uint64_t* r64 = nullptr;
  std::uint64_t* predicates = nullptr;

  // Counters; idle lanes by cause are derived from the sums when the warp finishes.
  std::uint64_t issued = 0;
  std::uint64_t active_sum = 0;   // active lanes summed over issued instructions
  std::uint64_t exec_sum = 0;     // executing lanes (thread instructions)
  std::uint64_t exited_sum = 0;   // exited lanes summed over issued instructions
  std::uint32_t exited_lanes = 0;
  std::uint64_t divergent_branches = 0;
  std::uint32_t max_stack_depth = 0;
  std::uint64_t first_issue = 0, last_issue = 0;  // the block's issue counter at the warp's first and last issue
  std::uint64_t first_cycle = 0, last_cycle = 0;  // SM cycles (timing mode only)
  std::vector<std::uint32_t> branch_executions;  // per branch slot: this warp's executions so far
  std::vector<TraceEvent> trace;
  // At each divergent branch (the first kMaxPathOrder): the branch's pc, the lanes that ran first
  // and the lanes that waited.
  static constexpr std::size_t kMaxPathOrder = 64;
  std::vector<PathSplit> path_order;
};

}  // namespace warpsim::sim
