// A GPU preset: every micro-architectural parameter of the timing model, as one plain struct. The
// built-in presets are data files (sim/presets/*.ini, embedded in the binary) read through
// Boost.Program_options' config-file parser; `--gpu FILE` reads one from disk and `--gpu-set
// key=value` overrides any parameter. Every value is validated in one place (validate_preset) with
// a message naming the parameter.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "isa/timing_class.hpp"

namespace warpsim::sim {

enum class SchedulerPolicy : std::uint8_t { LooseRoundRobin, GreedyThenOldest, OldestFirst };
std::string_view policy_name(SchedulerPolicy p);  // "lrr", "gto", "oldest"

struct PipelineTiming {
  std::uint32_t latency = 4;   // cycles from issue until a dependent instruction may issue
  std::uint32_t interval = 1;  // cycles the sub-partition's unit is busy per warp instruction
};

struct GpuPreset {
  std::string name = "h100";
  std::string description;
  // Chip
  double clock_mhz = 1980;
  std::uint32_t sms = 132;
  std::uint32_t sub_partitions = 4;
  // Per SM, for occupancy (NVIDIA's occupancy calculator)
  std::uint32_t max_threads_per_sm = 2048;
  std::uint32_t max_warps_per_sm = 64;
  std::uint32_t max_blocks_per_sm = 32;
  std::uint32_t registers_per_sm = 65536;
  std::uint32_t register_allocation_unit = 256;  // registers per warp are rounded up to this
  std::uint32_t max_registers_per_thread = 255;
  std::uint32_t shared_bytes_per_sm = 233472;    // the largest carve-out
  std::vector<std::uint32_t> shared_carveouts_kib = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  std::uint32_t shared_allocation_unit = 128;
  std::uint32_t shared_reserved_per_block = 1024;
  std::uint32_t unified_l1_shared_kib = 256;     // L1 gets what the shared carve-out leaves
  std::uint32_t carveout_unused_kib = 0;         // a kernel with no shared memory gets the smallest carve-out of at least this
  std::uint32_t carveout_headroom = 0;           // carve-outs past the smallest that holds the SM's blocks
  std::uint32_t barriers_per_sm = 64;            // a block that uses bar.sync takes one
  double barrier_warp_cycles = 0;                // a barrier's release waits this long per warp it gathers
  // Launch
  std::uint32_t block_launch_cycles = 20;        // from a free slot to the block's first warp being ready
  double block_dispatch_cycles = 0;              // chip-wide: the block dispatcher starts one block per this many cycles
  std::uint32_t warp_launch_cycles = 2;          // between consecutive warps of a block becoming ready
  std::uint32_t special_register_cycles = 0;     // an SM's turn per warp's first special-register read
  std::uint32_t warp_exit_cycles = 0;            // per warp of a finished block before its slot's next block starts
  // The compiler's if-conversion: a guarded forward branch over at most this many instructions
  // (straight-line, no global memory access, entered only from the top) is predicated code on the
  // GPU, so a warp whose lanes all skip the body still issues it, and no branch is taken. 0: none.
  std::uint32_t if_convert_max = 0;
  std::uint32_t fold_immediates = 0;
  std::uint32_t fold_truncations = 0;  // 1: a cvt of a 64-bit integer to 32 bits takes no issue slot (the low register)  // 1: a mov of an immediate takes no issue slot (ptxas makes it an operand)
  std::uint32_t int_either_pipe = 0;             // 1: int adds and moves issue to the int or the fma pipe, whichever is free (stop 26)
  std::uint32_t lower_int64 = 0;     // 1: 64-bit integer arithmetic as ptxas lowers it (stop 36; lower64.cpp)
  std::uint32_t fold_widenings = 0;  // 1: a zero extension takes no slot, a sign extension is one SHF (stop 36)
  std::uint32_t fuse_addresses = 0;  // 1: an add takes in the mul.wide or shl it alone reads (stop 36)
  std::uint32_t fuse_logic = 0;                  // ptxas's LOP3 and funnel-shift fusion of logic (stop 26; 0: off)
  std::uint32_t unroll = 1;           // a counted innermost loop's counter, compare and back branch issue once per this many trips
  std::uint32_t predicated_shared_passes = 0;    // 1: a skipped if-converted body's shared accesses each take a pass of the shared pipe
  // The compiler's unrolling of a loop that accumulates loaded values: an accumulating instruction
  // (its destination is one of its sources), one whose result the next reader accumulates, and
  // arithmetic with a global load after it in its straight-line run, waiting on a load's result
  // (global, shared or atomic), do not hold the warp while fewer than this many such loads are
  // pending; their results are ready when the loads' are. 0: every instruction waits at issue.
  std::uint32_t batched_loads = 0;
  std::uint32_t unroll_remainder = 0;  // 1: a counted loop's last (trips mod unroll) trips run one at a time (loop_trips.hpp)
  // The compiler's list scheduling of a straight-line run: a shared load issues ahead of the
  // instructions before it that it does not depend on (registers, a shared store or atomic) while
  // fewer than this many shared loads it issued are still unread. 0: the IR's order.
  std::uint32_t hoist_shared_loads = 0;
  // 1: global loads are hoisted as shared loads are (within hoist_shared_loads' count of loads
  // unread): ptxas issues a loop body's second load ahead of the arithmetic on its first (stop 27).
  std::uint32_t hoist_global_loads = 0;
  // 1: an IEEE division, reciprocal or square root (Inst::slow_path) ends the compiler's straight-line
  // run, as its slow-path branch does in the SASS: nothing is scheduled across it, the arithmetic
  // before it is not issued ahead of its loads' values on account of loads after it, and it is not
  // issued ahead of its own operands (no batching).
  std::uint32_t slow_paths = 0;
  // Issue slots of its sub-partition an IEEE division, reciprocal or square root takes (the SASS
  // instructions of its fast path); 0 or 1: one.
  std::uint32_t slow_path_slots = 0;
  // 1: neighbouring shared loads of one base register whose addresses the compiler can prove lie in
  // one aligned 8- or 16-byte chunk issue as one LDS.64/LDS.128 (the first in issue order takes the
  // slot and the passes of the whole chunk; the others no slot, their values ready with its).
  std::uint32_t vector_shared_loads = 0;
  // Within a straight-line run the compiler issues first, among the next this many instructions,
  // the one whose operands are ready soonest (one warp, the classes' latencies), not the IR's next:
  // NVVM's unrolled independent chains come out interleaved. Memory instructions keep their place.
  // 0: the IR's order.
  std::uint32_t schedule_arithmetic = 0;
  SchedulerPolicy scheduler = SchedulerPolicy::GreedyThenOldest;
  // Pipelines, per timing class
  std::array<PipelineTiming, isa::kTimingClasses> pipeline{};
  // Memory
  std::uint32_t sector_bytes = 32;
  std::uint32_t line_bytes = 128;
  std::uint32_t l1_latency = 41;
  std::uint32_t l1_associativity = 4;
  std::uint32_t l1_index_fold = 0;            // the L1's set index XORs in the line address shifted by 1, 2, 3 x this (0: the L2's index)
  std::uint32_t l1_lines_per_cycle = 1;          // tag lookups per cycle
  double l1_pass_cycles = 0;                     // what each data-bank pass of a load after its first adds to its hit latency
  double l2_line_cycles = 0;                     // a load over more than 4 lines: cycles between its L1-missing lines' returns from L2
  double dram_line_cycles = 0;                   // ... and from DRAM (0: all at once)
  double store_line_cycles = 0;                  // cycles a global store over more than 4 lines holds the SM's LSU per line (0: none)
  std::uint32_t l1_bytes_per_cycle = 128;        // sector data the L1 moves per cycle
  std::uint32_t l1_request_cycles = 0;           // the least cycles a global load holds the SM's LSU (pipe-rows1)
  std::uint32_t l1_replay_cycles = 0;            // what a global load's bank conflicts add to its passes (stride-l1-s*)
  std::uint32_t l1_read_bytes = 0;               // 1: a load's data term is the bytes its lanes read, and its bank passes count from 2 lines
  std::uint32_t l2_kib = 51200;
  std::uint32_t l2_associativity = 16;
  std::uint32_t l2_latency = 272;
  std::uint32_t l2_near_ways = 0;                // a load's L2 hit past this many more recent ways of its set is a far hit (0: none)
  std::uint32_t l2_far_cycles = 0;               // what a far hit adds to l2_latency
  std::uint32_t l2_side_copies = 0;              // 1: each half of the SMs reads its own copy of a line (MemoryPath::to_l2)
  double l2_bytes_per_cycle = 4200;              // whole chip
  double l2_access_bytes = 32;                   // the least of an SM's L2 bandwidth share one access (a line's sectors) takes
  double l2_store_access_bytes = 0;              // the same for a scattered store's access to a line (0: l2_access_bytes)
  double l2_store_byte_cost = 1;                 // L2 bandwidth bytes a stored byte takes (1: as a loaded one)
  std::uint32_t dram_latency = 484;
  double dram_bytes_per_cycle = 1515;            // whole chip
  double share_burst_bytes = 0;                   // what an SM's L2 and DRAM shares may each move at once after idling
  std::uint32_t dram_fetch_sectors = 1;          // a read that misses L2 fetches aligned groups of this many sectors
  std::uint32_t dram_page_bytes = 2048;          // DRAM page (row) size the page model works in
  double dram_page_miss_bytes = 0;               // extra DRAM bytes a fetch costs when it opens a page none of its SM's recent fetches opened (0: off)
  double scatter_line_cycles = 0;                // a scattered request's k-th L1-missing line leaves k times this after the first (0: all at once)
  double dram_merge_bytes = 0;                   // DRAM bytes a sector a store allocated in L2 costs when it is left partly written (0: off)
  std::uint32_t dirty_sectors = 0;               // 1: a store costs a sector's write-back when it first dirties it in L2
  std::uint32_t write_back_at_eviction = 0;      // 1 (with dirty_sectors): ... charged when the line leaves the L2, not when dirtied
  std::uint32_t l2_dirty_ways = 0;               // with write_back_at_eviction: a set keeps at most this many dirty lines (0: any)
  std::uint32_t pending_fills = 0;               // 1: an access to a line whose fill is on its way waits for it (L1 and L2)
  std::uint32_t dram_loaded_latency = 0;         // k: a DRAM read waits k u / (1 - u) more at recent utilisation u (at most 0.9)
  std::uint32_t atomic_latency = 100;            // extra cycles of an atomic at L2 over a load
  std::uint32_t atomic_same_address_cycles = 2;  // L2 serialises atomics to one address
  double atomic_slice_cycles = 0;                // cycles an L2 slice spends on a warp's atomic to a line, per lane on its busiest word (0: not modelled)
  double atomic_int_slice_cycles = 0;            // the same for one integer operation (one lane, or a warp's aggregated; 0: atomic_slice_cycles)
  std::uint32_t l2_slices = 96;                  // L2 slices the lines are spread over (atomics)
  // Atomics: each aligned group of 2^l2_slice_line_shift lines shares a slice (0: each line hashed
  // alone); integer atomic line requests the L2 takes a cycle, whole chip (0: no such bound, and the
  // float turn floors an integer line's).
  std::uint32_t l2_slice_line_shift = 0;
  double atomic_lines_per_cycle = 0;
  std::uint32_t shared_banks = 32;
  std::uint32_t shared_bank_bytes = 4;
  std::uint32_t shared_replay_cycles = 1;        // each bank pass after the first (conflicts, same-word atomics)
  std::uint32_t shared_replay_interval = 1;      // the SM's shared pipe is held this long per pass after the first
  // Simulation
  std::uint32_t epoch_cycles = 64;               // SMs run apart this long, then L2 state merges
  std::uint32_t merge_epoch_misses = 0;          // 1: SMs that fetched one line from DRAM in one epoch pay for it once (the presets set it)
  std::uint64_t watchdog_cycles = 1u << 22;      // no progress this long: the launch is a deadlock
  std::uint32_t skip_idle_epochs = 1;            // 1: epochs in which no SM can do anything are stepped as one

  const PipelineTiming& timing(isa::TimingClass c) const { return pipeline[static_cast<unsigned>(c)]; }
  // Dirty sectors are written back when their line leaves the L2 (write_back_at_eviction needs the
  // L2 to know them: dirty_sectors).
  bool writes_back_at_eviction() const { return write_back_at_eviction != 0 && dirty_sectors != 0; }
};

// One parameter of a preset, for `warpsim gpus --params` and the docs.
struct PresetParameter {
  std::string key;    // "memory.l2_latency"
  std::string value;  // as the preset holds it
  std::string help;
};

// The h100 preset, parsed once (the default of sim::Config).
const GpuPreset& default_preset();
// The built-in presets' names, in order (h100 first: the default).
std::vector<std::string> builtin_presets();
std::string builtin_preset_text(std::string_view name);  // "" when there is none
// Reads a preset: a built-in name or a file path. Throws Error(Usage) naming the preset for an
// unknown name or unreadable file, and Error naming the parameter for a bad value.
GpuPreset load_preset(const std::string& name_or_file);
GpuPreset parse_preset(const std::string& text, const std::string& origin);
// key=value overrides; throws Error naming the parameter.
void apply_override(GpuPreset& preset, const std::string& key, const std::string& value);
void validate_preset(const GpuPreset& preset);
std::vector<PresetParameter> preset_parameters(const GpuPreset& preset);

}  // namespace warpsim::sim
