// One streaming multiprocessor: resident blocks, their warps spread over the sub-partitions, one
// warp scheduler and one scoreboard per warp, pipelines with an issue interval per sub-partition,
// barriers, and the SM's memory path. run_until() steps cycles back to front within each cycle:
// results whose latency has passed become visible, then each sub-partition issues at most one warp
// instruction through the interpreter (the same step the functional mode runs).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "device/stats.hpp"
#include "sim/block.hpp"
#include "sim/executor.hpp"
#include "sim/stats_collector.hpp"
#include "sim/step.hpp"
#include "sim/timing/loop_trips.hpp"
#include "sim/timing/memory_path.hpp"
#include "sim/timing/ready_set.hpp"
#include "sim/timing/scheduler.hpp"

namespace warpsim::sim {

// What the compiler does to the program's shape that the timing model times (docs/timing.md),
// worked out once per launch: per instruction, the length of the body a guarded forward branch
// skips when ptxas predicates it (sm.if_convert_max, else 0), and whether an ALU instruction may go
// ahead of pending loads (sm.batched_loads: it accumulates, feeds an accumulation, or has a global
// load after it in its straight-line run), which instructions issue with the one before them (a
// folded immediate or truncation, unrolled loop bookkeeping), and the order of each straight-line
// run once ptxas has hoisted its shared loads (sm.hoist_shared_loads).
struct CompilerShape {
  std::vector<std::uint8_t> if_converted;
  std::vector<std::uint8_t> batchable;
  // sm.unroll: per pc, 1 + the index of the loop whose bookkeeping it is (the counter update, the
  // compare and the back branch of an innermost loop), 0 for any other instruction; and each
  // loop's back branch.
  std::vector<std::uint16_t> bookkeeping;
  std::vector<std::uint32_t> back_branch;
  // sm.unroll_remainder (empty when off): the loops whose trip count a warp's registers fix on entry.
  TripLoops trip_loops;
  // per pc: an instruction ptxas folds into another (an immediate, a truncation, loop bookkeeping,
  // logic fusion, vector loads' members, the lowering's widenings and address products): Sm::fold
  std::vector<std::uint8_t> may_fold;
  // sm.hoist_shared_loads: the order in which a straight-line run issues when the compiler's list
  // scheduling moved shared loads up (empty when off). next[pc]: the pc a warp issues after pc, or
  // kInOrder where that is pc + 1; entry[pc]: the pc a warp arriving at pc issues first (pc itself
  // unless pc starts a reordered run). Timing only: the warp executes the same instructions, in an
  // order the registers and shared memory cannot tell apart from the IR's.
  static constexpr std::uint32_t kInOrder = 0xffffffffu;
  std::vector<std::uint32_t> next;
  std::vector<std::uint32_t> entry;
  // sm.vector_shared_loads (empty when off): per pc, the bytes of the chunk a leading shared load
  // reads for its group (0: not a leader) and where they start from its own address (<= 0); per
  // member load, its leader's pc (kInOrder: none). Members fold.
  std::vector<std::uint8_t> vector_bytes;
  std::vector<std::int8_t> vector_shift;
  std::vector<std::uint32_t> vector_leader;
  // sm.special_register_cycles (empty when 0): per pc, whether it reads a special register the SM
  // serves one warp after another (any but %clock, %clock64 and %warpsize).
  std::vector<std::uint8_t> reads_special;
  // sm.lower_int64, sm.fold_widenings, sm.fuse_addresses (empty when all 0): per pc, the class the
  // GPU's instructions for it are timed as (ptxas's 32-bit lowering of 64-bit integer arithmetic,
  // lower64.cpp); the IR's class otherwise.
  std::vector<isa::TimingClass> timing;
  isa::TimingClass timed(const Inst& in) const { return timing.empty() ? in.timing : timing[in.pc]; }
};
// ptxas's lowering of 64-bit integer arithmetic (sm.lower_int64, sm.fold_widenings,
// sm.fuse_addresses): fills shape.timing and marks folded instructions in shape.may_fold.
void lower_int64(const Program& program, const isa::Kernel& kernel, const GpuPreset& gpu, CompilerShape& shape);
// The issue order of each straight-line run with shared loads hoisted (sm.hoist_shared_loads) and
// arithmetic ordered by its operands' latencies (sm.schedule_arithmetic); fills shape.next and
// shape.entry.
void schedule_runs(const Program& program, const GpuPreset& gpu, CompilerShape& shape);
// Groups of neighbouring shared loads ptxas merges into one LDS.64/LDS.128 (sm.vector_shared_loads),
// over the issue order schedule_runs left; fills vector_bytes, vector_shift and vector_leader and
// marks the members in may_fold.
void group_vector_loads(const Program& program, const GpuPreset& gpu, CompilerShape& shape);
CompilerShape compiler_shape(const Program& program, const isa::Kernel& kernel, const GpuPreset& gpu);

struct SmContext {
  const LaunchSpec& spec;
  const Program& program;
  const Config& config;
  const GpuPreset& gpu;
  GlobalMemory& memory;
  const SectorCache& l2;
  const CompilerShape& shape;
  std::uint64_t warps_per_block = 0;
  std::uint32_t blocks_per_sm = 0;
  std::uint64_t l1_bytes = 0;
};

class Sm {
 public:
  Sm(const SmContext& context, std::uint32_t id);

  bool has_room() const { return free_slots_ > 0; }
  bool busy() const { return resident_ > 0 || !pending_.empty(); }
  // Gives the SM block `linear`; its first warp may issue at cycle `start`. The block is set up at
  // the start of the SM's next run_until, on the host thread that steps this SM.
  void add_block(std::uint64_t linear, std::uint64_t start);
  // Steps cycles until `end` (exclusive). Returns whether anything progressed: a warp issued an
  // instruction that changed memory, passed a barrier, exited, or a block finished.
  bool run_until(std::uint64_t end);
  // The first cycle at which this SM can issue (the earliest of its sub-partitions'), or the
  // current cycle when blocks wait to be set up at its next run_until; UINT64_MAX when it holds no
  // block. Nothing outside the SM moves that cycle earlier within an epoch, so epochs that end by
  // it change the SM only by the cycles they count and by the refunds and merge reads its next
  // run_until applies at their first cycle, as the first of them would. It reads nothing the other
  // host threads' merges write (they may still run when EpochRunner::run returns).
  std::uint64_t next_event() const;

  std::uint32_t id() const { return id_; }
  std::uint64_t issued() const { return issued_; }
  std::uint64_t last_cycle() const { return last_cycle_; }
  // When the last store or atomic of a finished warp reached L2: the kernel is not done before it.
  std::uint64_t drained() const { return drained_; }
  std::uint64_t resident_warp_cycles() const { return resident_warp_cycles_; }
  std::uint64_t active_cycles() const { return active_cycles_; }
  MemoryPath& memory() { return memory_; }
  StatsCollector& stats() { return stats_; }
  StallBreakdown stalls() const { return stalls_; }
  // For deadlock reports: where each resident warp is.
  std::vector<std::string> describe_warps(std::size_t limit) const;
  std::vector<std::uint64_t> resident_blocks() const;

 private:
  enum class Wait : std::uint8_t { Dependency, Memory, Barrier, NoInstruction };
  struct WarpSlot {
    Warp* warp = nullptr;
    std::uint32_t block_slot = 0;
    std::uint32_t sub_partition = 0;
    std::uint32_t slot = 0;     // within its sub-partition
    std::uint64_t age = 0;
    std::uint64_t ready_at = 0;
    Wait wait = Wait::NoInstruction;
    bool at_barrier = false;
    bool live = false;
    std::uint64_t accounted_until = 0;  // cycles before this are in `stalls`
    std::uint64_t unit_blocked = 0;     // ready cycles lost to a busy unit since the last issue
    std::uint64_t blocked_until = 0;    // unit-busy cycles are counted up to here
    std::uint64_t memory_done = 0;      // the warp's last outstanding memory operation completes
    std::array<std::uint64_t, 8> batched{};  // loads an accumulation went past: when each is ready
    std::uint64_t deferred_until = 0;  // the latest result of an instruction issued ahead of its loads
    bool special_read = false;         // sm.special_register_cycles: its first read has been served
    StallBreakdown stalls;
    // The scoreboard: scoreboard_slots entries each, in the SM's register_ready_ and
    // register_from_memory_ (one allocation per SM, not two per warp slot).
    std::uint64_t* register_ready = nullptr;
    std::uint8_t* register_from_memory = nullptr;
    std::uint32_t* trips = nullptr;  // per sm.unroll loop: back branches taken since the loop was entered
    // sm.unroll_remainder: the loop of CompilerShape::trip_loops the warp is in (1 + its index, 0:
    // none), its trip there and its trips in all (kUnknownTrips: not known), and the cycle before
    // which a trip past the last whole group of sm.unroll may not start (its previous trip's loads
    // and what went past them).
    std::uint16_t trip_loop = 0;
    std::uint32_t trip = 0, loop_trips = 0;
    std::uint64_t trip_wait = 0;
  };
  struct BlockSlot {
    std::unique_ptr<Block> block;
    bool used = false;
    std::uint32_t live_warps = 0;
    std::uint32_t at_barrier = 0;
    std::uint32_t first_warp = 0;  // index of its warp 0 in warps_
  };

  void start_block(std::uint64_t linear, std::uint64_t start);
  void issue(WarpSlot& slot, std::uint64_t now);
  // Runs the instructions after the one just issued that the compiler would not issue (immediates
  // it folds, the bookkeeping of unrolled trips); returns the cycle a branch among them that split
  // the warp lets it go on (0 when none did).
  std::uint64_t fold(WarpSlot& s, Block& block, std::uint64_t now);
  bool folds(const WarpSlot& s, std::uint32_t pc) const;
  void count_trip(WarpSlot& s, const Inst& in, std::uint32_t went_to);
  // sm.unroll_remainder: follows the warp into, around and out of the loops of trip_loops.
  void track_loop(WarpSlot& s, std::uint32_t from, std::uint32_t to);
  // After the warp executed `executed` (kNone: it arrived at its pc otherwise), moves its pc to the
  // next instruction in the compiler's issue order (CompilerShape::next, entry).
  void follow_order(Warp& w, std::uint32_t executed);
  void timing_of(WarpSlot& slot, const StepRecord& record, std::uint64_t now);
  // Inlined into issue(), which runs them for every instruction.
  [[gnu::always_inline]] inline void set_ready(WarpSlot& slot, std::uint64_t now, std::uint64_t after);
  void release_barrier(BlockSlot& block, std::uint64_t now);
  void finish_warp(WarpSlot& slot, std::uint64_t now);
  [[gnu::always_inline]] inline void account(WarpSlot& slot, std::uint64_t until);
  bool batch(WarpSlot& slot, std::uint64_t now, std::uint64_t ready);
  void wake(const WarpSlot& slot);  // the slot's ready_at moved earlier than its sub-partition expects
  // Copies what the scan reads (ready cycle, pipe of the next instruction, age) into the
  // sub-partition's arrays and ready set; called whenever ready_at, live, at_barrier or pc changes.
  void sync(const WarpSlot& slot);
  std::uint32_t pipe(const Inst& in) const;

  const SmContext& ctx_;
  std::uint32_t id_;
  std::uint32_t sub_partitions_ = 0;
  std::vector<BlockSlot> blocks_;
  std::vector<WarpSlot> warps_;  // blocks_per_sm x warps_per_block, by block slot
  std::vector<std::uint64_t> register_ready_;
  // What a register's pending value waits on: 0 an ALU result, kLoaded a memory access,
  // kDerived an instruction batched ahead of its loads (set_ready, batch()).
  static constexpr std::uint8_t kLoaded = 1, kDerived = 2;
  std::vector<std::uint8_t> register_from_memory_;
  std::vector<std::vector<std::uint32_t>> partition_warps_;  // warp indices per sub-partition
  std::vector<std::unique_ptr<WarpScheduler>> schedulers_;
  std::vector<std::uint64_t> pipe_free_;  // per sub-partition x pipe
  std::vector<std::uint8_t> pipe_of_pc_;  // the pipe each instruction occupies
  std::vector<std::uint64_t> pipes_busy_until_;  // per sub-partition: no pipe is busy from here on
  // Per instruction, the scoreboard slots it waits for (sources, then destinations for write after
  // write), in that order: needs_[needs_begin_[pc] .. needs_begin_[pc + 1]).
  std::vector<std::uint32_t> needs_begin_;
  std::vector<std::uint32_t> needs_;
  // The scan's view of each warp, by sub-partition x slot (stride scan_stride_): the cycle it can
  // issue (never while it is not live or waits at a barrier), the pipe its next instruction needs,
  // and its age; and per sub-partition the set of slots that can issue now (sim/timing/ready_set.hpp;
  // at most 64 a sub-partition, which the preset check guarantees).
  std::size_t scan_stride_ = 0;
  std::vector<std::uint64_t> scan_ready_at_;
  std::vector<std::uint8_t> scan_pipe_;
  std::vector<std::uint64_t> scan_age_;
  std::vector<ReadySet> ready_;
  std::vector<std::uint64_t> sp_next_;     // per sub-partition: no warp can issue before this cycle
  std::vector<std::uint64_t> sp_lowered_;  // per sub-partition: earliest ready_at set while issuing
  // Per sub-partition: issuing a skipped if-converted body (predicated off) until this cycle.
  std::vector<std::uint64_t> sp_hold_;
  std::uint32_t live_warps_ = 0;
  std::vector<LineAccess> lines_;
  std::vector<unsigned> serial_;  // an integer atomic's serial lanes per line (serial_lanes_per_line)
  std::array<std::uint64_t, 64> vector_addresses_{};  // a vector shared load's lane addresses (sm.vector_shared_loads)
  StatsCollector stats_;
  Executor executor_;
  TripCounter trip_counter_;
  MemoryPath memory_;
  StepSink sink_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pending_;  // (linear, start) handed over, not set up
  std::uint32_t free_slots_ = 0;
  // sm.special_register_cycles: when the SM can serve the next warp's first special-register read.
  std::uint64_t special_free_ = 0;
  // sm.warp_exit_cycles: when each freed slot may take its next block (in the order the slots were
  // freed, so never decreasing), and when the SM has torn down the warps of the blocks that finished.
  std::vector<std::uint64_t> slot_ready_;
  std::uint64_t exit_free_ = 0;
  std::uint32_t resident_ = 0;
  std::uint64_t now_ = 0;
  std::uint64_t next_age_ = 0;
  std::uint64_t issued_ = 0;
  std::vector<std::uint32_t> trips_;  // WarpSlot::trips, one allocation
  std::uint64_t last_cycle_ = 0;
  std::uint64_t drained_ = 0;
  std::uint64_t resident_warp_cycles_ = 0, active_cycles_ = 0;
  StallBreakdown stalls_;
  bool progress_ = false;
};

}  // namespace warpsim::sim
