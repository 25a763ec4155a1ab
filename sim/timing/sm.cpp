#include "sim/timing/sm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/timing/coalescer.hpp"

namespace warpsim::sim {

namespace {
using isa::TimingClass;
constexpr std::uint32_t kPipes = 7;  // int, fma, sfu, lsu, control, warp, fp64
// Not a pipe of its own: the int or the fma pipe, whichever is free (sm.int_either_pipe).
constexpr std::uint32_t kEitherPipe = 7;
constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();
}  // namespace

// Which pipe of a sub-partition an instruction occupies for its issue interval.
std::uint32_t Sm::pipe(const Inst& in) const {
  // A 32-bit shl by an immediate is an IMAD.SHL.U32 (x times 2^n, the FMA pipe) or an SHF.L (the
  // INT pipe): the SASS of set27's monte_carlo_pi makes every xorshift shl an IMAD.SHL.U32 beside
  // the LOP3s (stop 27).
  const TimingClass timed = ctx_.shape.timed(in);
  if (ctx_.gpu.int_either_pipe != 0 && timed == TimingClass::IntLogic && in.shift == 1 && in.width <= 32)
    return kEitherPipe;
  switch (timed) {
    // ptxas issues adds and moves as IADD3 or MOV on the INT pipe or as IMAD.IADD, IMAD.MOV on the
    // FMA pipe, whichever is less busy (the SASS of tput-int: 50 IMAD beside 43 LOP3; of set23's
    // hash_mix: eight INT-pipe instructions a round in 15.7 cycles, with its adds beside them).
    case TimingClass::IntAlu: return ctx_.gpu.int_either_pipe != 0 ? kEitherPipe : 0;
    case TimingClass::Int64Alu:
    case TimingClass::IntLogic:
    case TimingClass::IntLogic64:
    case TimingClass::IntDiv:
    case TimingClass::Convert: return 0;
    case TimingClass::FpAlu:
    case TimingClass::IntMul:
    case TimingClass::IntMul64:
    case TimingClass::FpDiv: return 1;
    case TimingClass::Sfu:
    case TimingClass::IntBits: return 2;
    case TimingClass::LoadGlobal:
    case TimingClass::StoreGlobal:
    case TimingClass::AtomGlobal:
    case TimingClass::LoadShared:
    case TimingClass::StoreShared:
    case TimingClass::AtomShared: return 3;
    case TimingClass::Branch:
    case TimingClass::Barrier:
    case TimingClass::FenceCta:
    case TimingClass::FenceGl: return 4;
    case TimingClass::Vote:
    case TimingClass::Shuffle: return 5;
    case TimingClass::Fp64Alu:
    case TimingClass::Fp64Div:
    case TimingClass::Fp64Sqrt:
    case TimingClass::Fp64Rcp: return 6;  // the FP64 units, apart from the FP32 ones
  }
  return 0;
}

Sm::Sm(const SmContext& c, std::uint32_t id)
    : ctx_(c),
      id_(id),
      stats_(c.spec, c.program, c.warps_per_block),
      executor_(c.spec, c.program, c.memory, stats_),
      trip_counter_(c.program),
      memory_(c.gpu, c.l2, c.l1_bytes, id) {
  const std::uint32_t sps = c.gpu.sub_partitions;
  sub_partitions_ = sps;
  blocks_.resize(c.blocks_per_sm);
  warps_.resize(std::size_t{c.blocks_per_sm} * c.warps_per_block);
  partition_warps_.resize(sps);
  for (std::uint32_t i = 0; i < sps; ++i) schedulers_.push_back(make_scheduler(c.gpu.scheduler));
  pipe_free_.assign(std::size_t{sps} * kPipes, 0);
  register_ready_.assign(warps_.size() * c.program.scoreboard_slots, 0);
  register_from_memory_.assign(warps_.size() * c.program.scoreboard_slots, 0);
  const std::size_t loops = c.shape.back_branch.size();
  trips_.assign(warps_.size() * loops, 0);
  for (std::size_t i = 0; i < warps_.size(); ++i) {
    WarpSlot& s = warps_[i];
    s.block_slot = static_cast<std::uint32_t>(i / c.warps_per_block);
    s.sub_partition = static_cast<std::uint32_t>(i % sps);
    s.slot = static_cast<std::uint32_t>(partition_warps_[s.sub_partition].size());
    partition_warps_[s.sub_partition].push_back(static_cast<std::uint32_t>(i));
    s.register_ready = register_ready_.data() + i * c.program.scoreboard_slots;
    s.register_from_memory = register_from_memory_.data() + i * c.program.scoreboard_slots;
    s.trips = trips_.data() + i * loops;
  }
  for (const auto& ws : partition_warps_) scan_stride_ = std::max(scan_stride_, ws.size());
  scan_ready_at_.assign(std::size_t{sps} * scan_stride_, kNever);
  scan_pipe_.assign(std::size_t{sps} * scan_stride_, 0);
  scan_age_.assign(std::size_t{sps} * scan_stride_, 0);
  ready_.resize(sps);
  for (std::uint32_t b = 0; b < c.blocks_per_sm; ++b)
    blocks_[b].first_warp = static_cast<std::uint32_t>(b * c.warps_per_block);
  free_slots_ = c.blocks_per_sm;
  sp_next_.assign(sps, kNever);
  for (const Inst& in : c.program.code) {
    pipe_of_pc_.push_back(static_cast<std::uint8_t>(pipe(in)));
    needs_begin_.push_back(static_cast<std::uint32_t>(needs_.size()));
    auto need = [&](std::uint32_t r) {
      if (r != isa::kNoRegister && r < c.program.scoreboard_slots) needs_.push_back(r);
    };
    for (unsigned k = 0; k < in.read_count; ++k) need(in.reads[k]);
    // With batched loads, a global load does not wait for the last value of its destination to land
    // (write after write): the unrolled loop the compiler made loads into a register of its own.
    // Every reader of the old value has issued before it, waiting or batched (batch()).
    if (c.gpu.batched_loads == 0 || in.timing != isa::TimingClass::LoadGlobal) {
      need(in.write);
      for (unsigned k = 1; k < in.write_count; ++k) need(in.more_writes[k - 1]);
    }
  }
  needs_begin_.push_back(static_cast<std::uint32_t>(needs_.size()));
  pipes_busy_until_.assign(sps, 0);
  sp_lowered_.assign(sps, kNever);
  sp_hold_.assign(sps, 0);
}

void Sm::add_block(std::uint64_t linear, std::uint64_t start) {
  if (!slot_ready_.empty()) {  // the slot a finished block left first, torn down (sm.warp_exit_cycles)
    start = std::max(start, slot_ready_.front() + ctx_.gpu.block_launch_cycles);
    slot_ready_.erase(slot_ready_.begin());
  }
  pending_.emplace_back(linear, start);
  --free_slots_;
}

void Sm::start_block(std::uint64_t linear, std::uint64_t start) {
  std::uint32_t b = 0;
  while (blocks_[b].used) ++b;
  BlockSlot& bs = blocks_[b];
  if (!bs.block)
    bs.block = std::make_unique<Block>(ctx_.program, ctx_.config, ctx_.spec.block, ctx_.spec.kernel->shared_bytes());
  bs.block->start(linear, block_index(linear, ctx_.spec.grid));
  bs.used = true;
  bs.live_warps = static_cast<std::uint32_t>(bs.block->warps.size());
  bs.at_barrier = 0;
  for (std::uint32_t w = 0; w < bs.live_warps; ++w) {
    WarpSlot& s = warps_[bs.first_warp + w];
    s.warp = &bs.block->warps[w];
    follow_order(*s.warp, kNoPc);
    s.live = true;
    s.at_barrier = false;
    s.age = next_age_++;
    s.ready_at = start + std::uint64_t{w} * ctx_.gpu.warp_launch_cycles;
    s.accounted_until = s.ready_at;
    s.wait = Wait::NoInstruction;
    s.unit_blocked = 0;
    s.blocked_until = 0;
    s.memory_done = 0;
    s.batched = {};
    s.deferred_until = 0;
    s.special_read = false;
    s.trip_loop = 0;
    s.trip_wait = 0;
    s.stalls = {};
    std::fill_n(s.register_ready, ctx_.program.scoreboard_slots, 0);
    std::fill_n(s.register_from_memory, ctx_.program.scoreboard_slots, 0);
    std::fill_n(s.trips, ctx_.shape.back_branch.size(), 0);
    scan_age_[s.sub_partition * scan_stride_ + s.slot] = s.age;  // fixed while the warp is resident
    sync(s);
    wake(s);
    ++live_warps_;
  }
  ++resident_;
}

bool Sm::run_until(std::uint64_t end) {
  progress_ = false;
  memory_.apply_refunds(now_);  // found by the merge at the end of the last epoch
  memory_.clear_l2_fills();  // merged at the end of the last epoch
  // A block starts in the epoch its start falls in (its warps become ready at it); one that starts
  // later (dispatched at an epoch's end, or after a torn-down slot: sm.warp_exit_cycles) waits, and
  // is not resident until then. Starts only grow along pending_, so it is a prefix.
  std::size_t started = 0;
  while (started < pending_.size() && pending_[started].second < end) {
    start_block(pending_[started].first, pending_[started].second);
    ++started;
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(started));
  while (now_ < end) {
    if (resident_ == 0) {
      now_ = end;
      break;
    }
    bool issued = false;
    std::uint64_t next = kNever;
    for (std::uint32_t sp = 0; sp < sub_partitions_; ++sp) {
      // A sub-partition none of whose warps can issue before sp_next_ is not looked at until then.
      if (sp_next_[sp] > now_) {
        next = std::min(next, sp_next_[sp]);
        continue;
      }
      const std::size_t base = sp * scan_stride_;
      const std::uint64_t now = now_;
      ReadySet& ready_set = ready_[sp];
      const std::uint64_t ready_mask = ready_set.ready(now, scan_ready_at_.data() + base);
      std::uint64_t sp_next = ready_set.next();
      // The pipes still busy now: a ready warp whose next instruction needs one waits (mostly none).
      const std::uint64_t* const free_at = pipe_free_.data() + sp * kPipes;
      unsigned busy = 0;
      if (pipes_busy_until_[sp] > now)
        for (unsigned p = 0; p < kPipes; ++p) busy |= unsigned{free_at[p] > now} << p;
      if ((busy & 3u) == 3u) busy |= 1u << kEitherPipe;
      std::uint64_t candidates = ready_mask;
      for (std::uint64_t ready = busy != 0 ? ready_mask : 0; ready != 0; ready &= ready - 1) {
        const auto j = static_cast<std::uint32_t>(std::countr_zero(ready));
        const unsigned p = scan_pipe_[base + j];
        if (((busy >> p) & 1) == 0) continue;
        // Ready, but its unit is busy until `free`: those cycles are unit-busy stalls.
        const std::uint64_t free = p == kEitherPipe ? std::min(free_at[0], free_at[1]) : free_at[p];
        WarpSlot& s = warps_[partition_warps_[sp][j]];
        const std::uint64_t from = std::max(now, s.blocked_until);
        if (free > from) s.unit_blocked += free - from;
        s.blocked_until = std::max(s.blocked_until, free);
        sp_next = std::min(sp_next, free);
        candidates &= ~(std::uint64_t{1} << j);
      }
      if (candidates != 0) {
        WarpScheduler& scheduler = *schedulers_[sp];
        const std::uint32_t slot = scheduler.pick(candidates, scan_age_.data() + base);
        WarpSlot& chosen = warps_[partition_warps_[sp][slot]];
        issue(chosen, now_);
        sync(chosen);
        issued = true;
        if ((candidates & (candidates - 1)) != 0) sp_next = now_ + 1;  // the others are still ready
        if (chosen.live && !chosen.at_barrier) sp_next = std::min(sp_next, chosen.ready_at);
      }
      // issue() may have released a barrier or finished a warp: keep what it lowered. Nothing
      // issues while the sub-partition issues a skipped if-converted body (sp_hold_).
      sp_next_[sp] = std::max(std::min(sp_next, sp_lowered_[sp]), sp_hold_[sp]);
      sp_lowered_[sp] = kNever;
      next = std::min(next, sp_next_[sp]);
    }
    // Skip to the next cycle at which some sub-partition can issue. issue() may have lowered the
    // sp_next_ of a sub-partition already passed in this cycle (a barrier release), so look again.
    // An SM whose last block just finished stops counting active cycles at the next one.
    if (issued) next = resident_ == 0 ? now_ + 1 : *std::min_element(sp_next_.begin(), sp_next_.end());
    const std::uint64_t advance =
        next == kNever ? end - now_ : std::max<std::uint64_t>(1, std::min(next, end) - now_);
    active_cycles_ += advance;
    resident_warp_cycles_ += std::uint64_t{live_warps_} * advance;
    now_ += advance;
  }
  return progress_;
}

std::uint64_t Sm::next_event() const {
  const std::uint64_t waiting = pending_.empty() ? kNever : std::max(now_, pending_.front().second);
  if (resident_ == 0) return waiting;
  return std::min(waiting, *std::min_element(sp_next_.begin(), sp_next_.end()));
}

void Sm::sync(const WarpSlot& s) {
  const std::size_t at = s.sub_partition * scan_stride_ + s.slot;
  const std::uint64_t cycle = s.live && !s.at_barrier ? s.ready_at : kNever;
  const std::uint64_t old_cycle = scan_ready_at_[at];
  scan_ready_at_[at] = cycle;
  scan_pipe_[at] = s.live ? pipe_of_pc_[s.warp->pc] : 0;
  ready_[s.sub_partition].place(s.slot, old_cycle, cycle);
}

void Sm::wake(const WarpSlot& s) {
  const std::uint64_t at = std::max(s.ready_at, sp_hold_[s.sub_partition]);  // sp_next_ never goes below the hold
  sp_next_[s.sub_partition] = std::min(sp_next_[s.sub_partition], at);
  sp_lowered_[s.sub_partition] = std::min(sp_lowered_[s.sub_partition], at);
}

void Sm::account(WarpSlot& s, std::uint64_t until) {
  if (until <= s.accounted_until) return;
  const std::uint64_t span = until - s.accounted_until;
  const std::uint64_t waiting = s.ready_at > s.accounted_until ? std::min(span, s.ready_at - s.accounted_until) : 0;
  switch (s.wait) {
    case Wait::Dependency: s.stalls.dependency += waiting; break;
    case Wait::Memory: s.stalls.memory += waiting; break;
    case Wait::Barrier: s.stalls.barrier += waiting; break;
    case Wait::NoInstruction: s.stalls.no_instruction += waiting; break;
  }
  const std::uint64_t ready = span - waiting;
  const std::uint64_t unit = std::min(ready, s.unit_blocked);
  s.stalls.unit_busy += unit;
  s.stalls.not_selected += ready - unit;
  s.unit_blocked = 0;
  s.accounted_until = until;
}

void Sm::issue(WarpSlot& s, std::uint64_t now) {
  account(s, now);
  ++s.stalls.issued;
  s.accounted_until = now + 1;
  Warp& w = *s.warp;
  const Inst& in = ctx_.program.code[w.pc];
  if (w.issued == 0) w.first_cycle = now;
  w.last_cycle = now;
  BlockSlot& bs = blocks_[s.block_slot];
  sink_.now = now;
  sink_.want_old_values = !progress_;
  const std::uint64_t divergent_before = w.divergent_branches;
  const Stop stop = executor_.step(*bs.block, w, sink_);
  const std::uint32_t went_to = w.pc;  // where the IR goes next (before the compiler's issue order)
  if (!ctx_.shape.trip_loops.empty()) track_loop(s, in.pc, went_to);
  follow_order(w, in.pc);
  ++issued_;
  last_cycle_ = std::max(last_cycle_, now);
  const PipelineTiming& pt = ctx_.gpu.timing(ctx_.shape.timed(in));
  std::uint64_t* const free_at = pipe_free_.data() + std::size_t{s.sub_partition} * kPipes;
  std::uint32_t unit = pipe_of_pc_[in.pc];
  if (unit == kEitherPipe) unit = free_at[0] <= now || free_at[0] <= free_at[1] ? 0 : 1;
  free_at[unit] = now + pt.interval;
  pipes_busy_until_[s.sub_partition] = std::max(pipes_busy_until_[s.sub_partition], now + pt.interval);
  timing_of(s, sink_.record, now);
  switch (stop) {
    case Stop::Exited: finish_warp(s, now); return;
    case Stop::Barrier:
      s.at_barrier = true;
      s.ready_at = kNever;
      s.wait = Wait::Barrier;
      if (++bs.at_barrier == bs.live_warps) release_barrier(bs, now);
      return;
    case Stop::Slice: break;
  }
  // After control flow the next instruction is fetched anew.
  std::uint64_t after = now + 1;
  // Predicated code on the GPU (an if-converted branch that did not split the warp): no branch to
  // fetch after. A warp whose lanes all skipped the body still issues it, one instruction a cycle,
  // and holds its sub-partition's issue slot meanwhile; one whose lanes all enter it goes on. Any
  // other outcome (the warp split, or the reconvergence model moved it elsewhere) is a branch.
  const std::uint32_t body = ctx_.shape.if_converted[in.pc];
  const bool uniform = w.divergent_branches == divergent_before;
  const bool predicated = body != 0 && uniform && (went_to == in.target || went_to == in.pc + 1);
  if (predicated && went_to == in.target) {  // the branch's own slot is the body's first
    after = now + body;
    s.stalls.issued += body - 1;
    // The sub-partition is held for the body's issue slots. Its shared accesses still go down the
    // shared pipe, lanes off (Nsight Compute: Fig 5.15's L1/shared pipe 72% busy where the lanes
    // that access are a seventh of its warps' shared issues; skip-shared-32), and the warp issues
    // past the body only when the pipe has taken them; other warps issue meanwhile.
    s.accounted_until = after;
    sp_hold_[s.sub_partition] = after;
    if (ctx_.gpu.predicated_shared_passes != 0) {
      std::uint64_t slot = now;
      for (std::uint32_t k = 1; k <= body; ++k, ++slot)
        if (isa::is_shared_memory(ctx_.program.code[in.pc + k].timing)) slot = memory_.shared_pass(slot);
      after = std::max(after, slot);
    }
  } else if (!predicated && (in.flow == Flow::Branch || in.flow == Flow::Exit || !uniform)) {
    after = now + std::max<std::uint32_t>(pt.latency, 1);
  }
  if (in.timing == TimingClass::FenceCta) after = std::max(after, now + pt.latency);
  // sm.slow_path_slots: an IEEE division's fast path is several SASS instructions (BSSY, MUFU.RCP,
  // FCHK, five FFMA, BRA, BSYNC: ten in the SASS of set29's thomas and pcr), an issue slot of its
  // sub-partition each, as a skipped predicated body holds it.
  if (in.slow_path && ctx_.gpu.slow_path_slots > 1) {
    const std::uint64_t held = now + ctx_.gpu.slow_path_slots;
    s.stalls.issued += ctx_.gpu.slow_path_slots - 1;
    s.accounted_until = held;
    sp_hold_[s.sub_partition] = std::max(sp_hold_[s.sub_partition], held);
    after = std::max(after, held);
  }
  // memory.store_line_cycles: a warp's global store waits in its queue until the LSU takes it, and
  // the warp issues nothing meanwhile (store-lines-w1: 63 cycles a store of 32 lines, one warp).
  if (in.timing == TimingClass::StoreGlobal && ctx_.gpu.store_line_cycles > 0 && sink_.record.exec != 0)
    after = std::max(after, memory_.store_taken() + 1);
  if (ctx_.shape.bookkeeping[in.pc] != 0) count_trip(s, in, went_to);
  if (ctx_.shape.may_fold[w.pc]) after = std::max(after, fold(s, *bs.block, now));
  set_ready(s, now, after);
  if (in.timing == TimingClass::FenceGl) {
    const std::uint64_t fence = std::max(now + pt.latency, s.memory_done);
    if (fence > s.ready_at) {
      s.ready_at = fence;
      s.wait = Wait::Memory;
    }
  }
}

// What the compiler does not issue, run with the instruction just issued: a mov of an immediate
// (ptxas makes the constant an operand of its users: loop-fma-imm against loop-fma-reg) and an
// unrolled trip's bookkeeping (sm.unroll). They take no slot and their values are ready when their
// sources are; they are IR instructions all the same: counted, executed in order. Only Normal and
// Branch instructions fold, so a folded step never exits or reaches a barrier.
bool Sm::folds(const WarpSlot& s, std::uint32_t pc) const {
  // may_fold: a folded immediate or loop bookkeeping; bookkeeping folds in all but one trip of each unroll.
  // A warp's first special-register read is not folded: it takes the SM's turn (timing_of).
  const std::uint16_t loop = ctx_.shape.bookkeeping[pc];
  return ctx_.shape.may_fold[pc] && (loop == 0 || s.trips[loop - 1] % ctx_.gpu.unroll != ctx_.gpu.unroll - 1) &&
         (s.special_read || ctx_.shape.reads_special.empty() || !ctx_.shape.reads_special[pc]);
}

// A loop's back branch: one more trip if the warp went round, a fresh count once it left.
void Sm::count_trip(WarpSlot& s, const Inst& in, std::uint32_t went_to) {
  const std::uint16_t loop = ctx_.shape.bookkeeping[in.pc];
  if (ctx_.shape.back_branch[loop - 1] != in.pc) return;
  std::uint32_t& trips = s.trips[loop - 1];
  trips = went_to == in.target ? trips + 1 : 0;
}

void Sm::track_loop(WarpSlot& s, std::uint32_t from, std::uint32_t to) {
  const TripLoops& loops = ctx_.shape.trip_loops;
  if (s.trip_loop != 0) {
    const TripLoop& in = loops.loops[s.trip_loop - 1];
    if (from == in.back && to == in.header) {
      // A trip past the last whole group of ptxas's blocks of 16, 8 and 4 (sm.unroll) runs alone:
      // what the trips before it loaded, and what went ahead of those loads, lands first (within a
      // trip its loads still go out together). A loop tested at the top comes back once more only
      // to leave. Unknown trip counts batch every trip, as without the rule.
      const std::uint32_t group = std::max(1u, ctx_.gpu.unroll), trips = s.loop_trips;
      if (++s.trip < trips && trips != kUnknownTrips && s.trip >= trips - trips % group) {
        std::uint64_t wait = s.deferred_until;
        for (const std::uint64_t ready : s.batched) wait = std::max(wait, ready);
        s.trip_wait = wait;
      }
      return;
    }
    if (to >= in.header && to <= in.back) return;
    s.trip_loop = 0;  // left it
  }
  const std::uint16_t id = to < loops.header_of.size() ? loops.header_of[to] : 0;
  if (id == 0 || from == loops.loops[id - 1].back) return;
  s.trip_loop = id;
  s.trip = 0;
  s.loop_trips = trip_counter_.trips(loops.loops[id - 1], *s.warp);
}

void Sm::follow_order(Warp& w, std::uint32_t executed) {
  const CompilerShape& shape = ctx_.shape;
  if (shape.next.empty()) return;
  if (executed != kNoPc && shape.next[executed] != CompilerShape::kInOrder) {
    // In the middle of a reordered run the executor only ever steps to the next pc (a run holds no
    // reconvergence point and no branch), so anything else is a broken schedule.
    if (w.pc != executed + 1)
      throw std::logic_error(fmt::format("warp left a reordered run at pc {} for pc {}", executed, w.pc));
    w.pc = shape.next[executed];
    return;
  }
  if (w.pc < shape.entry.size()) w.pc = shape.entry[w.pc];
}

std::uint64_t Sm::fold(WarpSlot& s, Block& block, std::uint64_t now) {
  Warp& w = *s.warp;
  std::uint64_t after = 0;
  while (w.pc < ctx_.program.code.size() && folds(s, w.pc)) {
    const Inst& in = ctx_.program.code[w.pc];
    const std::uint64_t divergent_before = w.divergent_branches;
    const Stop stop = executor_.step(block, w, sink_);
    const std::uint32_t went_to = w.pc;
    if (!ctx_.shape.trip_loops.empty()) track_loop(s, in.pc, went_to);
    follow_order(w, in.pc);
    ++issued_;
    // Its value is ready when its sources are: the counter of stream_dep's loop, which adds a
    // loaded value, still waits for the load.
    std::uint64_t ready = now;
    std::uint8_t origin = 0;
    for (std::uint32_t k = needs_begin_[in.pc]; k < needs_begin_[in.pc + 1]; ++k)
      if (s.register_ready[needs_[k]] > ready) {
        ready = s.register_ready[needs_[k]];
        origin = s.register_from_memory[needs_[k]];
      }
    // A shared load merged into an earlier one's vector load (sm.vector_shared_loads): its value
    // arrives with the leader's.
    if (!ctx_.shape.vector_leader.empty() && ctx_.shape.vector_leader[in.pc] != CompilerShape::kInOrder) {
      const std::uint32_t leader = ctx_.program.code[ctx_.shape.vector_leader[in.pc]].write;
      ready = std::max(ready, s.register_ready[leader]);
      origin = s.register_from_memory[leader];
    }
    for (unsigned k = 0; k < in.write_count; ++k) {
      const std::uint32_t r = k == 0 ? in.write : in.more_writes[k - 1];
      s.register_ready[r] = ready;
      s.register_from_memory[r] = origin;
    }
    if (ctx_.shape.bookkeeping[in.pc] != 0) count_trip(s, in, went_to);
    if (w.divergent_branches != divergent_before) {  // the warp split: a branch after all
      after = now + std::max<std::uint32_t>(ctx_.gpu.timing(ctx_.shape.timed(in)).latency, 1);
      break;
    }
    if (stop != Stop::Slice) break;
  }
  return after;
}

void Sm::timing_of(WarpSlot& s, const StepRecord& r, std::uint64_t now) {
  const Inst& in = *r.inst;
  const PipelineTiming& pt = ctx_.gpu.timing(ctx_.shape.timed(in));
  std::uint64_t ready = now + pt.latency;
  bool from_memory = false, derived = false;
  // The warp's first special-register read (its S2R; on the GPU %ntid and %nctaid are constant
  // loads, which the SM serves the same way: dispatch-param-1024) waits its turn at the SM, one warp
  // after another (dispatch-sreg-1024 against dispatch-bar-1024). Applied to the result below, so a
  // load or atomic that reads one is held too.
  std::uint64_t special_ready = 0;
  if (!s.special_read && !ctx_.shape.reads_special.empty() && ctx_.shape.reads_special[in.pc]) {
    s.special_read = true;
    const std::uint64_t turn = std::max(now, special_free_);
    special_free_ = turn + ctx_.gpu.special_register_cycles;
    special_ready = turn + pt.latency;
  }
  if (in.access_bytes != 0 && r.exec != 0) {
    const GpuPreset& g = ctx_.gpu;
    if (isa::is_global_memory(in.timing)) {
      ByteRange dense;
      coalesce(r.addresses, r.exec, in.access_bytes, g.sector_bytes, g.line_bytes, lines_,
               in.timing == TimingClass::StoreGlobal ? &dense : nullptr);
      if (in.timing == TimingClass::LoadGlobal) {
        // Over several lines the L1's data banks may conflict. A line's words lie in distinct banks,
        // so a request takes at most one pass a line: counted only when that (with a conflict's
        // replay, memory.l1_replay_cycles) could outlast its lookups and its data, and for more than
        // 4 lines unless memory.l1_read_bytes (stride-l1-s4: lanes 4 words apart over 4 lines, 4
        // passes of 8 banks, took 5.3 cycles an SM a request on the GH100; without it a request over
        // 2-4 lines, as grey's rows, could take a pass or two more than the model gave it, which
        // saved a sort per load). The passes also add memory.l1_pass_cycles each to the load's
        // latency, from 2 lines with memory.l1_read_bytes as from 5 without.
        const std::size_t read = std::size_t{count_lanes(r.exec)} * in.access_bytes;
        const unsigned passes =
            lines_.size() > (g.l1_read_bytes != 0 ? 1u : 4u) &&
                    lines_.size() + g.l1_replay_cycles > memory_.l1_cycles(lines_, read)
                ? shared_passes(r.addresses, r.exec, in.access_bytes, g.shared_banks, g.shared_bank_bytes)
                : 1;
        ready = memory_.load(now, lines_, passes, read) + pt.latency;
        from_memory = true;
      } else if (in.timing == TimingClass::StoreGlobal) {
        s.memory_done = std::max(s.memory_done, memory_.store(now, lines_, count_lanes(r.exec) * in.access_bytes,
                                                              dense.first, dense.end));
      } else {
        const unsigned lanes = count_lanes(r.exec);
        unsigned same = most_common_address(r.addresses, r.exec);
        const bool aggregated = in.aggregates && same == lanes;
        if (aggregated) same = 1;  // one atomic for the warp
        // One integer operation at the L2 (one lane, or the warp's lanes aggregated): the integer
        // adder's turn (atom-hot-u32), not the float one (atom-hot); several integer lanes: that turn
        // per lane on a sector's busiest word, summed over the line's sectors (MemoryPath::atomic).
        const auto kind = in.float_atomic                      ? MemoryPath::AtomicKind::Float
                          : (lanes == 1 || aggregated) ? MemoryPath::AtomicKind::SingleInteger
                                                       : MemoryPath::AtomicKind::Integer;
        if (kind == MemoryPath::AtomicKind::Integer)
          serial_lanes_per_line(r.addresses, r.exec, g.sector_bytes, g.line_bytes, serial_);
        ready = memory_.atomic(now, lines_, same, kind, serial_) + pt.latency;
        s.memory_done = std::max(s.memory_done, ready);
        from_memory = true;
      }
    } else {
      unsigned passes;
      const std::uint8_t vector = ctx_.shape.vector_bytes.empty() ? 0 : ctx_.shape.vector_bytes[in.pc];
      if (vector != 0) {  // a leading shared load: the passes of its group's chunk (sm.vector_shared_loads)
        const std::int64_t shift = ctx_.shape.vector_shift[in.pc];
        for (std::uint64_t m = r.exec; m != 0; m &= m - 1) {
          const auto lane = static_cast<unsigned>(std::countr_zero(m));
          vector_addresses_[lane] = r.addresses[lane] + static_cast<std::uint64_t>(shift);
        }
        passes = shared_passes(vector_addresses_.data(), r.exec, vector, g.shared_banks, g.shared_bank_bytes);
      } else {
        passes = shared_passes(r.addresses, r.exec, in.access_bytes, g.shared_banks, g.shared_bank_bytes);
      }
      // Atomics to one shared word are applied one lane after another (atom-shared-same32).
      if (in.timing == TimingClass::AtomShared) passes = std::max(passes, most_common_address(r.addresses, r.exec));
      ready = memory_.shared(now, passes, pt.latency);
      from_memory = in.timing != TimingClass::StoreShared;
    }
    if (!progress_ && sink_.wrote_new_value(executor_.context())) progress_ = true;
  }
  if (ctx_.shape.batchable[in.pc]) {
    // Issued ahead of its sources (batch()): its result follows theirs.
    for (std::uint32_t k = needs_begin_[in.pc]; k < needs_begin_[in.pc + 1]; ++k) {
      const std::uint32_t r = needs_[k];
      if (s.register_ready[r] > now && s.register_ready[r] + pt.latency > ready) {
        ready = s.register_ready[r] + pt.latency;
        from_memory = s.register_from_memory[r] != 0;
        derived = from_memory;
      }
    }
  }
  ready = std::max(ready, special_ready);
  if (in.write != isa::kNoRegister) {
    const std::uint8_t origin = derived ? kDerived : from_memory ? kLoaded : 0;
    if (derived) s.deferred_until = std::max(s.deferred_until, ready);
    s.register_ready[in.write] = ready;
    s.register_from_memory[in.write] = origin;
    for (unsigned k = 1; k < in.write_count; ++k) {  // ld.v2/.v4, an unpacking mov
      s.register_ready[in.more_writes[k - 1]] = ready;
      s.register_from_memory[in.more_writes[k - 1]] = origin;
    }
  }
}

// An accumulation waiting on a global load lets its warp issue on while fewer than
// sm.batched_loads such loads are pending (the compiler unrolled its loop and put the loads first:
// NVVM unrolls the coarsened reduction's loop by 4); records the load's cycle if so.
bool Sm::batch(WarpSlot& s, std::uint64_t now, std::uint64_t ready) {
  const std::uint32_t most = ctx_.gpu.batched_loads;
  std::uint32_t pending = 0, free = most;
  for (std::uint32_t k = 0; k < most; ++k) {
    if (s.batched[k] > now) ++pending;
    else free = k;
  }
  if (pending >= most) return false;
  s.batched[free] = ready;
  return true;
}

void Sm::set_ready(WarpSlot& s, std::uint64_t now, std::uint64_t after) {
  const std::uint32_t pc = s.warp->pc;
  const std::uint64_t* const register_ready = s.register_ready;
  std::uint64_t deps = 0;
  bool memory = false, loaded = false;
  // Sources, then destinations (write after write: the earlier result must land first).
  for (std::uint32_t k = needs_begin_[pc]; k < needs_begin_[pc + 1]; ++k) {
    const std::uint32_t r = needs_[k];
    if (register_ready[r] > after && s.register_from_memory[r] == kLoaded) loaded = true;
    if (register_ready[r] > deps) {
      deps = register_ready[r];
      memory = s.register_from_memory[r] != 0;
    }
  }
  // A barrier waits for what the warp issued ahead of its loads (batch()): ptxas moves no
  // instruction across a BAR, so on the GPU the accumulation stalls the warp before it.
  if (s.deferred_until > std::max(deps, after) && ctx_.program.code[pc].flow == Flow::Barrier) {
    deps = s.deferred_until;
    memory = true;
  }
  // sm.unroll_remainder: a trip past the loop's last whole group starts when the one before it is done.
  const bool trip_held = s.trip_wait > after;
  if (trip_held) after = s.trip_wait;
  s.trip_wait = 0;
  // A batched instruction waiting on a load takes one of the sm.batched_loads places; one waiting
  // only on values derived from batched loads (an accumulation after the multiply the loads feed)
  // goes on with them.
  if (deps > after && !(memory && ctx_.shape.batchable[pc] && (!loaded || batch(s, now, deps)))) {
    s.ready_at = deps;
    s.wait = memory ? Wait::Memory : Wait::Dependency;
  } else {
    s.ready_at = after;
    s.wait = trip_held ? Wait::Memory : after > now + 1 ? Wait::NoInstruction : Wait::Dependency;
  }
}

void Sm::release_barrier(BlockSlot& bs, std::uint64_t now) {
  // The release costs more the more warps the barrier gathers (bar-1 to bar-32 in calibrate).
  const std::uint64_t release = now + ctx_.gpu.timing(TimingClass::Barrier).latency +
                                static_cast<std::uint64_t>(std::llround(ctx_.gpu.barrier_warp_cycles * bs.at_barrier));
  for (std::uint32_t w = 0; w < bs.block->warps.size(); ++w) {
    WarpSlot& s = warps_[bs.first_warp + w];
    if (!s.live || !s.at_barrier) continue;
    s.at_barrier = false;
    s.warp->state = Warp::State::Ready;
    resume_after_barrier(*s.warp);
    follow_order(*s.warp, kNoPc);
    s.wait = Wait::Barrier;
    s.ready_at = release;
    set_ready(s, now, release);
    if (s.wait != Wait::Memory && s.wait != Wait::Dependency) s.wait = Wait::Barrier;
    sync(s);
    wake(s);
  }
  bs.at_barrier = 0;
  progress_ = true;
}

void Sm::finish_warp(WarpSlot& s, std::uint64_t now) {
  s.live = false;
  sync(s);
  --live_warps_;
  drained_ = std::max(drained_, s.memory_done);
  progress_ = true;
  StatsCollector::WarpTiming t;
  t.sm = id_;
  t.sub_partition = s.sub_partition;
  t.stalls = s.stalls;
  stalls_ += s.stalls;
  BlockSlot& bs = blocks_[s.block_slot];
  stats_.finish_warp(*bs.block, *s.warp, &t);
  --bs.live_warps;
  if (bs.live_warps > 0 && bs.at_barrier == bs.live_warps) release_barrier(bs, now);
  if (bs.live_warps == 0) {
    bs.used = false;
    ++free_slots_;
    --resident_;
    if (ctx_.gpu.warp_exit_cycles != 0) {
      exit_free_ = std::max(exit_free_, now) + bs.block->warps.size() * std::uint64_t{ctx_.gpu.warp_exit_cycles};
      slot_ready_.push_back(exit_free_);
    }
  }
}

std::vector<std::uint64_t> Sm::resident_blocks() const {
  std::vector<std::uint64_t> out;
  for (const auto& b : blocks_)
    if (b.used) out.push_back(b.block->linear);
  return out;
}

std::vector<std::string> Sm::describe_warps(std::size_t limit) const {
  std::vector<std::string> out;
  for (const auto& s : warps_) {
    if (!s.live || out.size() >= limit) continue;
    const Block& b = *blocks_[s.block_slot].block;
    const Inst& in = ctx_.program.code[s.warp->pc];
    const std::string text = source_line(ctx_.spec.source_text, in.line);
    out.push_back(fmt::format("block ({},{},{}) warp {} pc {} line {}{} (SM {}, {})", b.index.x, b.index.y, b.index.z,
                              s.warp->index, s.warp->pc, in.line,
                              text.empty() ? std::string() : fmt::format(" `{}`", text), id_,
                              s.at_barrier ? "waiting at a barrier" : "running"));
  }
  return out;
}

}  // namespace warpsim::sim
