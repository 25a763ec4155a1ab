#include "sim/convergence_barriers.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::sim {

void ConvergenceBarriers::reset(std::uint32_t entry_pc, std::uint64_t lanes) {
  groups_.clear();
  parked_ = {};
  if (lanes != 0) groups_.push_back({entry_pc, lanes, Wait::None});
  pick();
}

void ConvergenceBarriers::arrive(std::uint32_t from_pc, std::uint32_t pc, std::uint64_t lanes, bool run_now) {
  if (lanes == 0) return;
  const std::uint32_t to = map_.block_of(pc), from = map_.block_of(from_pc);
  Wait wait = Wait::None;
  if (to != ConvergenceMap::kNone && from != ConvergenceMap::kNone) {
    if (map_.back_edge(from, to))
      wait = Wait::Loop;
    else if (map_.is_join(to) && from != to)
      wait = Wait::Join;
  }
  for (auto& g : groups_)
    if (g.pc == pc && g.mask != 0) {
      g.mask |= lanes;
      if (wait == Wait::Loop || g.wait == Wait::Loop)
        g.wait = Wait::Loop;
      else if (wait == Wait::Join)
        g.wait = Wait::Join;
      if (run_now) std::swap(g, groups_.back());
      return;
    }
  groups_.push_back({pc, lanes, wait});
}

void ConvergenceBarriers::on_branch(std::uint32_t pc, std::uint64_t taken, std::uint64_t not_taken,
                                    std::uint32_t target_pc, std::uint32_t fallthrough_pc, std::uint32_t) {
  if (groups_.empty()) return;
  groups_.pop_back();
  // The side with fewer lanes runs first (ties: the fall-through path).
  const bool taken_first = std::popcount(taken) < std::popcount(not_taken);
  if (taken_first) {
    arrive(pc, fallthrough_pc, not_taken, false);
    arrive(pc, target_pc, taken, true);
  } else {
    arrive(pc, target_pc, taken, false);
    arrive(pc, fallthrough_pc, not_taken, true);
  }
  pick();
}

void ConvergenceBarriers::on_exit(std::uint64_t lanes) {
  for (auto& g : groups_) g.mask &= ~lanes;
  parked_.mask &= ~lanes;
  // The running group keeps its place while lanes remain (a guarded exit: the others go on).
  if (!groups_.empty() && groups_.back().mask != 0) {
    running_.mask = groups_.back().mask;
    return;
  }
  pick();
}

void ConvergenceBarriers::advance(std::uint32_t from_pc, std::uint32_t pc) {
  if (groups_.empty()) return;
  const std::uint64_t lanes = groups_.back().mask;
  groups_.pop_back();
  arrive(from_pc, pc, lanes, true);
  pick();
}

bool ConvergenceBarriers::park(std::uint64_t lanes, std::uint32_t resume_pc) {
  if (parked_.mask != 0 && parked_.pc != resume_pc) return false;
  parked_ = {resume_pc, parked_.mask | lanes};
  for (auto& g : groups_) g.mask &= ~lanes;
  pick();
  return true;
}

void ConvergenceBarriers::unpark() {
  if (parked_.mask == 0) return;
  arrive(kNoPc, parked_.pc, parked_.mask, true);
  parked_ = {};
  pick();
}

bool ConvergenceBarriers::may_run(std::size_t i) const {
  const Group& g = groups_[i];
  if (g.wait == Wait::None) return true;
  const std::uint32_t at = map_.block_of(g.pc);
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const Group& o = groups_[k];
    if (k == i || o.mask == 0) continue;
    const std::uint32_t b = map_.block_of(o.pc);
    if (b == ConvergenceMap::kNone) continue;
    if (g.wait == Wait::Loop) {
      // The next iteration starts when every lane still in the loop has finished this one.
      if (map_.in_loop(map_.loop_of_header(at), b)) return false;
      continue;
    }
    // A join waits for the lanes that may still enter it in this iteration; lanes waiting at a
    // loop header that holds the join are in the next iteration.
    if (o.wait == Wait::Loop) {
      const std::uint32_t l = map_.loop_of_header(b);
      if (l != ConvergenceMap::kNone && map_.in_loop(l, at)) continue;
    }
    if (map_.reaches(b, at)) return false;
  }
  return true;
}

void ConvergenceBarriers::pick() {
  std::erase_if(groups_, [](const Group& g) { return g.mask == 0; });
  watch_ = skip_ = kNoPc;
  if (groups_.empty()) {
    running_ = {};
    return;
  }
  // The most recent arrival that may run; when every group waits, the most recent one.
  std::size_t chosen = groups_.size() - 1;
  for (std::size_t i = groups_.size(); i-- > 0;)
    if (may_run(i)) {
      chosen = i;
      break;
    }
  std::rotate(groups_.begin() + static_cast<std::ptrdiff_t>(chosen),
              groups_.begin() + static_cast<std::ptrdiff_t>(chosen) + 1, groups_.end());
  Group& run = groups_.back();
  run.wait = Wait::None;
  running_ = {run.pc, run.mask};
  if (groups_.size() == 1) return;  // converged: nothing to watch for
  watch_ = map_.next_stop(run.pc);
  for (std::size_t i = 0; i + 1 < groups_.size(); ++i)
    if (groups_[i].pc > run.pc) watch_ = std::min(watch_, groups_[i].pc);
  skip_ = 0;  // every uniform branch may land on a join, a loop header or another group
}

}  // namespace warpsim::sim
