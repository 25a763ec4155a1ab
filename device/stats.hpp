// What one launch measured, as typed fields (names follow ARCHITECTURE.md "What is measured").
// Printers (tools/report/) turn this into text, JSON and CSV; nothing here formats.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch.hpp"
#include "device/trace.hpp"
#include "isa/timing_class.hpp"

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
  std::string source;                // "saxpy.cu:4": the CUDA line of an imported kernel ("" otherwise)
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

// Where warps spent their cycles, one cycle of one warp counted once (Nsight Compute's warp states,
// summed instead of sampled): issued, or stalled for one reason.
struct StallBreakdown {
  std::uint64_t issued = 0;          // selected: the warp issued this cycle
  std::uint64_t dependency = 0;      // waiting on a fixed-latency result (stall_wait / short scoreboard)
  std::uint64_t memory = 0;          // waiting on a memory result (long scoreboard, MIO)
  std::uint64_t barrier = 0;         // waiting at bar.sync or a fence
  std::uint64_t not_selected = 0;    // ready, but its scheduler issued another warp
  std::uint64_t unit_busy = 0;       // ready, but the unit its instruction needs was busy (pipe throttle)
  std::uint64_t no_instruction = 0;  // after a branch or at launch, waiting for the next instruction
  std::uint64_t total() const {
    return issued + dependency + memory + barrier + not_selected + unit_busy + no_instruction;
  }
  StallBreakdown& operator+=(const StallBreakdown& o);
};

// Issued warp instructions and the lanes active at them, per timing class (isa/timing_class.hpp).
struct InstructionMix {
  std::array<std::uint64_t, isa::kTimingClasses> warp{};
  std::array<std::uint64_t, isa::kTimingClasses> lanes{};  // active lanes (the guard not applied)
  std::uint64_t of(isa::TimingClass c) const { return warp[static_cast<unsigned>(c)]; }
  std::uint64_t lanes_of(isa::TimingClass c) const { return lanes[static_cast<unsigned>(c)]; }
};

// Occupancy as NVIDIA's calculator computes it: blocks per SM is the least of five limits.
struct Occupancy {
  std::uint32_t registers_per_thread = 0;   // used for occupancy (the IR's count, or --registers)
  std::uint32_t shared_bytes_per_block = 0;
  std::uint32_t warps_per_block = 0;
  std::uint32_t limit_warps = 0, limit_registers = 0, limit_shared = 0, limit_blocks = 0, limit_barriers = 0;
  std::uint32_t blocks_per_sm = 0;
  std::uint32_t warps_per_sm = 0;
  std::uint32_t max_warps_per_sm = 0;
  std::string limiter;  // "warps", "registers", "shared memory", "blocks", "barriers"
  double theoretical() const { return max_warps_per_sm ? double(warps_per_sm) / max_warps_per_sm : 0.0; }
};

struct MemoryStats {
  std::uint64_t global_load_requests = 0, global_store_requests = 0, global_atomic_requests = 0;
  std::uint64_t global_sectors = 0;     // 32-byte sectors the requests touched
  std::uint64_t l1_sector_accesses = 0, l1_sector_hits = 0;  // loads
  std::uint64_t l2_sector_accesses = 0, l2_sector_hits = 0;
  std::uint64_t dram_bytes = 0;
  std::uint64_t shared_requests = 0;    // shared-memory warp instructions
  std::uint64_t shared_passes = 0;      // bank passes (one per request without conflicts)
  std::uint64_t requests() const { return global_load_requests + global_store_requests + global_atomic_requests; }
  double sectors_per_request() const { return requests() ? double(global_sectors) / double(requests()) : 0.0; }
  double l1_hit_rate() const { return l1_sector_accesses ? double(l1_sector_hits) / double(l1_sector_accesses) : 0.0; }
  double l2_hit_rate() const { return l2_sector_accesses ? double(l2_sector_hits) / double(l2_sector_accesses) : 0.0; }
  std::uint64_t bank_conflicts() const { return shared_passes - shared_requests; }  // extra passes
  MemoryStats& operator+=(const MemoryStats& o);
};

// What the timing model measured over a launch (absent in functional mode and on hardware).
struct TimingStats {
  std::string gpu;                  // preset name
  double clock_mhz = 0;
  std::uint32_t sms = 0, sub_partitions = 0;
  std::string scheduler;            // warp scheduler policy
  std::uint64_t cycles = 0;
  double microseconds() const { return clock_mhz > 0 ? double(cycles) / clock_mhz : 0.0; }
  std::uint64_t waves = 0;          // ceil(blocks / (blocks per SM x SMs))
  std::uint64_t epochs = 0;         // times the simulator stepped the SMs (sim.skip_idle_epochs; not reported)
  Occupancy occupancy;
  std::uint64_t resident_warp_cycles = 0;  // resident warps summed over SM cycles (achieved occupancy)
  std::uint64_t active_sm_cycles = 0;      // cycles SMs held at least one block, summed over SMs
  // The IR's warp instructions run (the same as LaunchStats::warp_instructions), folded ones
  // included (sm.fold_immediates, sm.unroll): IPC counts them, so it can pass the issue width.
  std::uint64_t warp_instructions = 0;
  double ipc() const { return cycles ? double(warp_instructions) / double(cycles) : 0.0; }  // whole GPU
  double achieved_occupancy() const {
    return active_sm_cycles && occupancy.max_warps_per_sm
               ? double(resident_warp_cycles) / (double(active_sm_cycles) * occupancy.max_warps_per_sm)
               : 0.0;
  }
  // Issue slots used: the slots warps issued in (stalls.issued: every instruction not folded, and the
  // bodies of if-converted branches issued predicated off) over (active SM cycles x schedulers per SM).
  double issue_utilisation() const {
    return active_sm_cycles ? double(stalls.issued) / (double(active_sm_cycles) * sub_partitions) : 0.0;
  }
  StallBreakdown stalls;            // summed over warps
  MemoryStats memory;
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
  std::uint64_t first_issue = 0, last_issue = 0;  // the block's issue counter at the warp's first and last issue
  std::uint64_t first_cycle = 0, last_cycle = 0;  // cycles: the SM's clock (timing mode) or clock64 (hardware)
  bool timed = false;                              // the cycle fields, sm and stalls hold figures
  std::uint32_t sm = 0, sub_partition = 0;         // timing mode: where the warp ran
  StallBreakdown stalls;
  // The simulator only: at each divergent branch (the first 64), which lanes ran first.
  std::vector<PathSplit> path_order;
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
  InstructionMix mix;                                 // issued instructions by timing class (simulator)
  bool timed = false;                                 // the timing model ran: `timing` holds its figures
  // false: a hardware run without its trace (--gpu-trace off): only the launch's shape (grid, block,
  // warps launched, partial warps, padding lanes) and kernel_ms are known; every other figure is 0.
  bool traced = true;
  TimingStats timing;
  double kernel_ms = 0.0;                             // measured on hardware (cuda backend): median of the timed launches
  double kernel_ms_min = 0.0, kernel_ms_max = 0.0;    // the fastest and slowest timed launch (their spread)
  // The timed (plain) build as the GPU's compiler allocated it (cuda backend; 0 when not built):
  // registers per thread, which set its occupancy (the simulator estimates them from the IR), and
  // local memory per thread (register spills and local arrays).
  std::uint32_t compiled_registers = 0;
  std::uint32_t compiled_local_bytes = 0;
  // Which build was timed (cuda backend): "source", an imported kernel's own PTX as its author's
  // compiler made it, or "emitted", the CUDA warpsim writes from the IR (a .kir kernel's only one,
  // or --gpu-build emitted). Empty when nothing was timed.
  std::string timed_build;

  std::uint64_t lane_slots() const { return warp_instructions * warp_size; }
  double simt_efficiency() const {
    return warp_instructions ? double(thread_instructions) / double(lane_slots()) : 0.0;
  }
};

}  // namespace warpsim
