#include "sim/worker.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "device/errors.hpp"

namespace warpsim::sim {

Worker::Worker(LaunchState& launch)
    : launch_(launch),
      program_(launch.program),
      block_(launch.program, launch.config, launch.spec.block, launch.spec.kernel->shared_bytes()),
      stats_(launch.spec, launch.program, launch.warps_per_block),
      executor_(launch.spec, launch.program, launch.memory, stats_) {}

void Worker::run() {
  while (!launch_.stop.load(std::memory_order_relaxed)) {
    const std::uint64_t b = launch_.next_block.fetch_add(1);
    if (b >= launch_.blocks) break;
    run_block(b);
    if (launch_.spec.progress != nullptr) launch_.spec.progress->fetch_add(1, std::memory_order_relaxed);
  }
}

bool Worker::take_budget() {
  const std::uint64_t want = std::max<std::uint64_t>(launch_.config.time_slice, 1u << 16);
  std::uint64_t left = launch_.budget.load();
  while (left > 0) {
    const std::uint64_t grant = std::min(left, want);
    if (launch_.budget.compare_exchange_weak(left, left - grant)) {
      budget_ = grant;
      return true;
    }
  }
  return false;
}

void Worker::return_budget() {
  launch_.budget.fetch_add(budget_);
  budget_ = 0;
}

void Worker::run_block(std::uint64_t linear) {
  block_.start(linear, block_index(linear, launch_.spec.grid));
  auto& warps = block_.warps;
  std::size_t live = warps.size(), waiting = 0;
  const std::uint64_t slice = launch_.config.time_slice;
  const std::uint64_t watch_from = launch_.config.spin_limit == 0 ? ~std::uint64_t{0} : launch_.config.spin_limit;
  bool watching = false;
  while (live > 0) {
    for (Warp& w : warps) {
      if (w.state != Warp::State::Ready) continue;
      if (budget_ == 0 && !take_budget()) not_finished();
      const std::uint64_t before = w.issued;
      // A block is watched from the first time slice that starts after it issued spin_limit
      // instructions: a decision by the block's own count, so the same for any --threads.
      if (!watching && block_.issue_counter >= watch_from) {
        watching = true;
        spin_low_.assign(warps.size(), std::numeric_limits<std::uint32_t>::max());
        spin_high_.assign(warps.size(), 0);
        quiet_ = 0;
      }
      Stop stop;
      if (watching) {
        stop = run_watched(w, std::min(slice, budget_));
      } else {
        FunctionalSink sink;
        stop = executor_.run(block_, w, std::min(slice, budget_), sink);
      }
      budget_ -= w.issued - before;
      if (stop == Stop::Exited) {
        --live;
        stats_.finish_warp(block_, w);
        if (watching) progress();
      } else if (stop == Stop::Barrier) {
        ++waiting;
      }
      // Every warp still running waits at the barrier (exited warps do not count): release them.
      if (waiting > 0 && waiting == live) {
        for (Warp& x : warps)
          if (x.state == Warp::State::AtBarrier) {
            x.state = Warp::State::Ready;
            resume_after_barrier(x);
          }
        waiting = 0;
        if (watching) progress();
      }
    }
  }
  return_budget();
}

Stop Worker::run_watched(Warp& w, std::uint64_t limit) {
  WatchSink sink;
  Stop stop = Stop::Slice;
  for (std::uint64_t i = 0; i < limit && stop == Stop::Slice; ++i) {
    stop = executor_.run(block_, w, 1, sink);
    if (sink.wrote_new_value(executor_.context())) {
      progress();
      continue;
    }
    spin_low_[w.index] = std::min(spin_low_[w.index], sink.record.inst->pc);
    spin_high_[w.index] = std::max(spin_high_[w.index], sink.record.inst->pc);
    if (++quiet_ >= launch_.config.spin_limit) spinning();
  }
  return stop;
}

void Worker::progress() {
  quiet_ = 0;
  std::fill(spin_low_.begin(), spin_low_.end(), std::numeric_limits<std::uint32_t>::max());
  std::fill(spin_high_.begin(), spin_high_.end(), 0);
}

// The launch's budget ran out while no block was caught spinning: the kernel is long, not stuck.
// The message names no block: with several host threads, which block holds the last of the
// budget differs from run to run.
void Worker::not_finished() const {
  throw KernelFault(fmt::format("kernel '{}' reached the limit of {} warp instructions per launch before its {} "
                                "blocks finished (--max-instructions raises it); no block was caught spinning "
                                "(--spin-limit), so the kernel is long rather than stuck",
                                launch_.spec.kernel->name, launch_.config.max_instructions, launch_.blocks));
}

void Worker::spinning() const {
  const auto line_of = [&](std::uint32_t pc) { return pc < program_.code.size() ? program_.code[pc].line : 0; };
  std::string at;
  std::size_t shown = 0, live = 0;
  for (const Warp& w : block_.warps) {
    if (w.state == Warp::State::Exited) continue;
    ++live;
    if (shown == 8) continue;
    ++shown;
    std::string where;
    if (w.state == Warp::State::AtBarrier) {
      where = "waits at a barrier";
    } else {
      const std::uint32_t low = spin_low_[w.index], high = spin_high_[w.index];
      if (low > high) where = "did not run";
      else if (low == high) where = fmt::format("spins at pc {} (line {})", low, line_of(low));
      else where = fmt::format("spins in pcs {}-{} (lines {}-{})", low, high, line_of(low), line_of(high));
      const std::string text = source_line(launch_.spec.source_text, line_of(w.pc));
      where += fmt::format(", now at pc {}{}", w.pc, text.empty() ? std::string() : fmt::format(" `{}`", text));
    }
    at += fmt::format("{}warp {} {}", at.empty() ? "" : "; ", w.index, where);
  }
  if (live > shown) at += fmt::format("; and {} more warps", live - shown);
  throw KernelFault(fmt::format(
      "kernel '{}' block ({},{},{}) spins: after {} warp instructions its warps issued {} more without one "
      "finishing, passing a barrier or changing memory (--spin-limit raises the limit; 0 turns the watch off). {}",
      launch_.spec.kernel->name, block_.index.x, block_.index.y, block_.index.z,
      block_.issue_counter - launch_.config.spin_limit, launch_.config.spin_limit, at));
}

}  // namespace warpsim::sim
