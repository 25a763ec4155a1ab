#include "sim/convergence_barriers.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::sim {

void ConvergenceBarriers::reset(std::uint32_t entry_pc, std::uint64_t lanes) {
  groups_.clear();
  parked_ = {};
  if (lanes != 0) groups_.push_back({entry_pc, lanes, Wait::None, map_.block_of(entry_pc)});
  pick();
}

void ConvergenceBarriers::arrive(std::uint32_t from_node, std::uint32_t from_pc, std::uint32_t pc, std::uint64_t lanes,
                                 bool run_now) {
  if (lanes == 0) return;
  const std::uint32_t to = map_.step(from_node, from_pc, pc), from = map_.locate(from_node, from_pc);
  Wait wait = Wait::None;
  if (to != ConvergenceMap::kNone && from != ConvergenceMap::kNone) {
    if (map_.back_edge(from, to))
      wait = Wait::Loop;
    else if (map_.is_join(to) && from != to)
      wait = Wait::Join;
  }
  // Lanes deferred at a pc join the lanes already waiting there; a running group meets other lanes
  // only at a convergence barrier (a join or a loop header), not wherever it passes their pc.
  const bool barrier = to != ConvergenceMap::kNone && (map_.is_join(to) || map_.loop_of_header(to) != ConvergenceMap::kNone);
  if (!run_now || barrier)
    for (auto it = groups_.begin(); it != groups_.end(); ++it) {
      Group& g = *it;
      if (g.pc != pc || g.node != to || g.mask == 0 || g.exits) continue;
      g.mask |= lanes;
      if (wait == Wait::Loop || g.wait == Wait::Loop)
        g.wait = Wait::Loop;
      else if (wait == Wait::Join)
        g.wait = Wait::Join;
      if (run_now) std::rotate(it, it + 1, groups_.end());  // it runs now; the others keep their order
      return;
    }
  groups_.push_back({pc, lanes, wait, to});
}

void ConvergenceBarriers::on_branch(std::uint32_t pc, std::uint64_t taken, std::uint64_t not_taken,
                                    std::uint32_t target_pc, std::uint32_t fallthrough_pc, std::uint32_t) {
  if (groups_.empty()) return;
  const std::uint32_t node = groups_.back().node;
  groups_.pop_back();
  if (target_pc == fallthrough_pc) {  // both sides go to one pc: the lanes stay together
    arrive(node, pc, target_pc, taken | not_taken, true);
    pick();
    return;
  }
  // The side with fewer lanes runs first (ties: the fall-through path).
  const bool taken_first = std::popcount(taken) < std::popcount(not_taken);
  if (taken_first) {
    arrive(node, pc, fallthrough_pc, not_taken, false);
    arrive(node, pc, target_pc, taken, true);
  } else {
    arrive(node, pc, target_pc, taken, false);
    arrive(node, pc, fallthrough_pc, not_taken, true);
  }
  pick();
}

bool ConvergenceBarriers::defer_exit(std::uint32_t pc, std::uint64_t lanes) {
  if (groups_.empty()) return false;
  Group& running = groups_.back();
  const std::uint64_t stay = running.mask & ~lanes;
  // The CUDA build's guarded exit is a branch around a return: the side with fewer lanes runs
  // first, ties to the lanes that stay. Exiting lanes that are the fewer leave at once.
  if (std::popcount(lanes) < std::popcount(stay)) return false;
  const std::uint32_t node = running.node;
  groups_.pop_back();
  groups_.push_back({pc, lanes, Wait::None, map_.locate(node, pc), true});
  arrive(node, pc, pc + 1, stay, true);
  pick();
  return true;
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
  const std::uint32_t node = groups_.back().node;
  groups_.pop_back();
  arrive(node, from_pc, pc, lanes, true);
  pick();
}

bool ConvergenceBarriers::park(std::uint64_t lanes, std::uint32_t resume_pc) {
  if (parked_.mask != 0 && parked_.pc != resume_pc) return false;
  if (parked_.mask == 0 && !groups_.empty()) parked_node_ = map_.step(groups_.back().node, resume_pc - 1, resume_pc);
  parked_ = {resume_pc, parked_.mask | lanes};
  for (auto& g : groups_) g.mask &= ~lanes;
  pick();
  return true;
}

void ConvergenceBarriers::unpark() {
  if (parked_.mask == 0) return;
  arrive(parked_node_, kNoPc, parked_.pc, parked_.mask, true);
  parked_ = {};
  pick();
}

bool ConvergenceBarriers::may_run(std::size_t i) const {
  const Group& g = groups_[i];
  if (g.wait == Wait::None) return true;
  const std::uint32_t at = g.node;
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const Group& o = groups_[k];
    if (k == i || o.mask == 0 || o.exits) continue;  // lanes about to exit hold no one back
    const std::uint32_t b = o.node;
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
  running_ = {run.pc, run.mask, run.exits};
  if (run.exits) return;  // the executor lets these lanes leave and asks again
  // Converged: nothing to watch for, unless the kernel has split cycles, where a path must be
  // followed into the copy it enters.
  if (groups_.size() == 1 && !map_.split()) return;
  watch_ = map_.next_stop(run.pc);  // other groups' pcs need no watch: groups meet only at stops
  skip_ = 0;  // every uniform branch may land on a join, a loop header or another group
}

}  // namespace warpsim::sim
