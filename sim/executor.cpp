#include "sim/executor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "device/errors.hpp"

namespace warpsim::sim {

std::string source_line(std::string_view text, std::uint32_t line) {
  if (line == 0) return {};
  std::size_t start = 0;
  for (std::uint32_t i = 1; i < line; ++i) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return {};
    ++start;
  }
  std::string_view s = text.substr(start, text.find('\n', start) - start);
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  s = s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
  return std::string(s);
}

Executor::Executor(const LaunchSpec& spec, const Program& program, GlobalMemory& memory, StatsCollector& stats)
    : spec_(spec),
      program_(program),
      stats_(stats),
      tracing_(spec.record_trace),
      all_lanes_(program.warp_size == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << program.warp_size) - 1),
      allocation_cache_(program.code.size(), -1) {
  context_.base32[1] = program_.constants32.data();
  context_.base64[1] = program_.constants64.data();
  context_.warp_size = program_.warp_size;
  context_.global = &memory;
  context_.faults = this;
  context_.allocation_cache = allocation_cache_.data();
}

void Executor::fill_clock(Warp& w, std::uint64_t now) const {
  std::fill_n(w.r32 + program_.special.clock, program_.warp_size, static_cast<std::uint32_t>(now));
  std::fill_n(w.r64 + program_.special.clock64, program_.warp_size, now);
}

void Executor::record_branch(Warp& w, const Inst& in, std::uint64_t taken, std::uint64_t not_taken,
                           std::uint64_t active_count) {
  BranchStats& b = stats_.branches[in.branch_slot];
  const bool divergent = taken != 0 && not_taken != 0;
  ++b.executions;
  b.divergent_executions += divergent;
  b.passes += 1 + divergent;
  // A uniform branch sends every active lane one way: no popcount needed.
  const std::uint64_t taken_count = divergent ? count_lanes(taken) : taken != 0 ? active_count : 0;
  b.taken_lanes += taken_count;
  b.not_taken_lanes += active_count - taken_count;
  const std::uint32_t k = w.branch_executions[in.branch_slot]++;
  if (k < BranchStats::kMaxOccurrences) {
    if (b.occurrences.size() <= k) b.occurrences.resize(k + 1);
    ++b.occurrences[k].executions;
    b.occurrences[k].divergent += divergent;
  }
}

// The interpreter loop: runs `w` for at most `limit` warp instructions. The per-instruction
// counters live in locals and are stored once at the end: the lane functions are opaque calls,
// so counters kept in the Warp would be reloaded and stored around every one of them.
template <class Sink>
[[gnu::always_inline]] inline Stop Executor::loop(Block& block, Warp& w, std::uint64_t limit, Sink& sink) {
  const Inst* const code = program_.code.data();
  const auto code_size = static_cast<std::uint32_t>(program_.code.size());  // with the sentinel
  LaneContext& c = context_;
  c.r32 = w.r32;
  c.r64 = w.r64;
  c.base32[0] = w.r32;
  c.base64[0] = w.r64;
  c.predicates = w.predicates;
  c.shared = block.shared.empty() ? nullptr : block.shared.data();
  c.shared_bytes = static_cast<std::uint32_t>(block.shared.size());
  c.alive = &w.alive;
  if (program_.local_bytes != 0) {
    const std::uint64_t warp_bytes = std::uint64_t{program_.local_bytes} * program_.warp_size;
    c.local_bytes = program_.local_bytes;
    c.local = block.local.data() + w.index * warp_bytes;
    // The timing model's addresses: a window of its own per warp of the grid, far above global memory.
    c.local_window = (std::uint64_t{1} << 60) + (block.linear * block.warps.size() + w.index) * warp_bytes;
  }
  running_ = &w;
  block_ = &block;
  std::uint64_t* const entries = stats_.block_entries.data();
  std::uint64_t* const entry_lanes = stats_.block_entry_lanes.data();
  std::uint64_t* const histogram = stats_.histogram.data();

  if (w.issued == 0 && limit > 0) w.first_issue = block.issue_counter;
  const std::uint64_t issued0 = w.issued, clock0 = block.issue_counter;
  std::uint64_t active_sum = 0, exec_sum = 0, exited_sum = 0;
  std::uint32_t pc = w.pc;
  std::uint64_t active = w.active;
  std::uint32_t watch = w.watch, skip = w.skip;
  // A converged warp's count is known (count_lanes is a software popcount in portable builds).
  auto count_active = [&w](std::uint64_t mask) -> std::uint64_t {
    return mask == w.exist ? w.lanes : count_lanes(mask);
  };
  std::uint64_t active_count = count_active(active);
  std::uint64_t exited_lanes = w.exited_lanes;
  std::uint64_t n = 0;
  auto reload = [&] {
    SimtPath p = w.paths->current();
    while (p.exits) {  // a deferred guarded exit's turn: its lanes leave (their exit was issued)
      if (tracing_) w.trace.push_back({kTraceExit, p.mask, sink.clock(issued0 + n + 1), 0});
      w.alive &= ~p.mask;
      exited_lanes += count_lanes(p.mask);
      w.paths->on_exit(p.mask);
      p = w.paths->current();
    }
    pc = p.pc;
    active = p.mask;
    watch = w.paths->watch_pc();
    skip = w.paths->skip_pc();
    active_count = count_active(active);
    if (active != 0 && pc >= code_size) {
      w.pc = pc;
      w.active = active;
      lost_path(w);
    }
  };
  Stop stop = Stop::Slice;
  for (; n < limit; ++n) {
    const Inst& in = code[pc];
    if (in.block_start) {
      ++entries[in.cfg_block];
      entry_lanes[in.cfg_block] += active_count;
      if (tracing_) w.trace.push_back({in.cfg_block, active, sink.clock(issued0 + n), 0});
    }
    if (in.reads_clock) fill_clock(w, sink.clock(clock0 + n));
    const std::uint64_t guard = in.guarded ? (w.predicates[in.guard] ^ in.guard_xor) : ~std::uint64_t{0};
    if constexpr (Sink::kRecords) sink.before(in, c, active, active & guard);
    active_sum += active_count;
    exited_sum += exited_lanes;
    switch (in.flow) {
      case Flow::Normal: {
        const std::uint64_t exec = active & guard;
        const unsigned k = exec == active ? static_cast<unsigned>(active_count) : count_lanes(exec);
        exec_sum += k;
        ++histogram[k];
        if (exec != 0) {
          c.exec = exec;
          c.full = (exec | w.padding) == all_lanes_;
          in.fn(in, c);
        }
        if (++pc == watch) {
          w.paths->advance(pc - 1, pc);
          reload();
        }
        break;
      }
      case Flow::Branch: {
        // The guard picks the direction; every active lane executes the branch.
        exec_sum += active_count;
        ++histogram[active_count];
        const std::uint64_t taken = active & guard, not_taken = active & ~guard;
        record_branch(w, in, taken, not_taken, active_count);
        if (taken != 0 && not_taken != 0) {
          w.paths->on_branch(pc, taken, not_taken, in.target, pc + 1, in.reconvergence_pc);
          ++w.divergent_branches;
          w.max_stack_depth = std::max(w.max_stack_depth, w.paths->depth());
          const std::uint32_t at = pc;
          reload();
          if (w.path_order.size() < Warp::kMaxPathOrder) w.path_order.push_back({at, active, (taken | not_taken) & ~active});
          break;
        }
        pc = not_taken == 0 ? in.target : pc + 1;
        if (pc == watch || pc >= skip) {
          w.paths->advance(in.pc, pc);
          reload();
        }
        break;
      }
      case Flow::Exit: {
        const std::uint64_t exec = active & guard;
        const unsigned k = count_lanes(exec);
        exec_sum += k;
        ++histogram[k];
        if (exec == 0) {
          if (++pc == watch) {
            w.paths->advance(pc - 1, pc);
            reload();
          }
          break;
        }
        if (exec != active && w.paths->defer_exit(pc, exec)) {  // the others run first
          const std::uint32_t at = pc;
          reload();
          if (w.path_order.size() < Warp::kMaxPathOrder) w.path_order.push_back({at, active, exec});
          break;
        }
        // One exit record per exit executed, with the lanes leaving: what the GPU's trace records.
        if (tracing_) w.trace.push_back({kTraceExit, exec, sink.clock(issued0 + n + 1), 0});
        w.alive &= ~exec;
        exited_lanes += k;
        w.paths->on_exit(exec);
        if ((active & ~exec) != 0) w.paths->advance(pc, pc + 1);  // guarded exit: the others go on
        reload();
        if (active == 0) {
          ++n;
          if (w.alive != 0) {  // the others wait at a barrier
            pc = in.pc;  // a placeholder until resume_after_barrier
            w.state = Warp::State::AtBarrier;
            stop = Stop::Barrier;
            goto done;
          }
          w.state = Warp::State::Exited;
          stop = Stop::Exited;
          goto done;
        }
        break;
      }
      case Flow::Barrier: {
        const std::uint64_t exec = active & guard;
        const unsigned k = count_lanes(exec);
        exec_sum += k;
        ++histogram[k];
        if (exec != 0 && exec != w.alive) {
          // Lanes of the warp are elsewhere: these wait and the others run (lanes that exit never
          // hold a barrier). A guard that splits the path, or lanes waiting at another barrier, is
          // a barrier in divergent code.
          w.pc = pc;
          if (exec != active || !w.paths->park(active, pc + 1)) divergent_barrier(block, in, w, exec);
          reload();
          if (active != 0) break;
          pc = in.pc;  // a placeholder until resume_after_barrier
          w.state = Warp::State::AtBarrier;
          stop = Stop::Barrier;
          ++n;
          goto done;
        }
        if (++pc == watch) {
          w.paths->advance(pc - 1, pc);
          reload();
        }
        if (exec != 0) {
          w.state = Warp::State::AtBarrier;
          stop = Stop::Barrier;
          ++n;
          goto done;
        }
        break;
      }
      case Flow::OffEnd:
        w.pc = pc;
        raise(in, static_cast<unsigned>(std::countr_zero(active)),
              fmt::format("lanes {:#x} ran past the last instruction (every path must end in exit or ret)", active));
    }
  }
done:
  if (n > 0) {
    w.issued = issued0 + n;
    block.issue_counter = clock0 + n;
    w.last_issue = clock0 + n - 1;
  }
  w.active_sum += active_sum;
  w.exec_sum += exec_sum;
  w.exited_sum += exited_sum;
  w.exited_lanes = static_cast<std::uint32_t>(exited_lanes);
  w.pc = pc;
  w.active = active;
  w.watch = watch;
  w.skip = skip;
  return stop;
}

template <class Sink>
Stop Executor::run(Block& block, Warp& w, std::uint64_t limit, Sink& sink) {
  return loop(block, w, limit, sink);
}

Stop Executor::step(Block& block, Warp& w, StepSink& sink) {
  return loop(block, w, 1, sink);
}

template Stop Executor::run<FunctionalSink>(Block&, Warp&, std::uint64_t, FunctionalSink&);
template Stop Executor::run<WatchSink>(Block&, Warp&, std::uint64_t, WatchSink&);

void resume_after_barrier(Warp& w) {
  if (w.active != 0 || w.alive == 0) return;
  w.paths->unpark();
  const SimtPath p = w.paths->current();
  w.pc = p.pc;
  w.active = p.mask;
  w.watch = w.paths->watch_pc();
  w.skip = w.paths->skip_pc();
}

std::string Executor::where(const Block& block, const Inst& in, std::uint32_t warp, unsigned lane) const {
  const auto& b = block.index;
  const std::string text = source_line(spec_.source_text, in.line);
  const std::string origin = in.pc < spec_.kernel->code.size() ? spec_.kernel->origin_text(spec_.kernel->code[in.pc]) : "";
  return fmt::format("kernel '{}' block ({},{},{}) warp {} lane {} pc {} line {}{}{}", spec_.kernel->name, b.x, b.y,
                     b.z, warp, lane, in.pc, in.line, origin.empty() ? std::string() : fmt::format(" ({})", origin),
                     text.empty() ? std::string() : fmt::format(" `{}`", text));
}

void Executor::throw_fault(const Inst& in, unsigned lane, const std::string& what) const {
  const std::uint32_t warp = running_ ? running_->index : 0;
  const auto& b = block_->index;
  throw KernelFault(fmt::format("{}: {}", where(*block_, in, warp, lane), what),
                    FaultSite{b.x, b.y, b.z, warp, lane, in.pc, in.line, source_line(spec_.source_text, in.line), what});
}

void Executor::divergent_barrier(const Block& block, const Inst& in, const Warp& w, std::uint64_t arrived) const {
  const auto lane = static_cast<unsigned>(std::countr_zero(arrived));
  const auto what = fmt::format(
      "barrier in divergent code: lanes {:#x} reached bar.sync while lanes {:#x} of the warp are on another path",
      arrived, w.alive & ~arrived);
  throw KernelFault(fmt::format("{}: {}", where(block, in, w.index, lane), what),
                    FaultSite{block.index.x, block.index.y, block.index.z, w.index, lane, in.pc, in.line,
                              source_line(spec_.source_text, in.line), what});
}

void Executor::lost_path(const Warp& w) const {
  throw KernelFault(fmt::format("kernel '{}' block ({},{},{}) warp {}: lanes {:#x} wait at a reconvergence point "
                                "that is never reached (internal error in the reconvergence model)",
                                spec_.kernel->name, block_->index.x, block_->index.y, block_->index.z, w.index,
                                w.active),
                    ExitCode::Internal);
}

}  // namespace warpsim::sim
