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
  while (live > 0) {
    for (Warp& w : warps) {
      if (w.state != Warp::State::Ready) continue;
      if (budget_ == 0 && !take_budget()) not_finished();
      const std::uint64_t before = w.issued;
      FunctionalSink sink;
      const Stop stop = executor_.run(block_, w, std::min(slice, budget_), sink);
      budget_ -= w.issued - before;
      if (stop == Stop::Exited) {
        --live;
        stats_.finish_warp(block_, w);
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
      }
    }
  }
  return_budget();
}

void Worker::not_finished() const {
  std::string at;
  std::size_t shown = 0, live = 0;
  for (const Warp& w : block_.warps) {
    if (w.state == Warp::State::Exited) continue;
    ++live;
    if (shown == 8) continue;
    ++shown;
    const std::uint32_t line = w.pc < program_.code.size() ? program_.code[w.pc].line : 0;
    at += fmt::format("{}block ({},{},{}) warp {} pc {} line {}{}", at.empty() ? "" : ", ", block_.index.x,
                      block_.index.y, block_.index.z, w.index, w.pc, line,
                      w.state == Warp::State::AtBarrier ? " (at a barrier)" : "");
  }
  if (live > shown) at += fmt::format(", and {} more", live - shown);
  throw KernelFault(fmt::format("kernel '{}' did not finish after {} warp instructions; warps at: {}",
                                launch_.spec.kernel->name, launch_.config.max_instructions, at));
}

}  // namespace warpsim::sim
