#include "sim/convergence_barriers.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::sim {

void ConvergenceBarriers::reset(std::uint32_t entry_pc, std::uint64_t lanes) {
  groups_.clear();
  parked_ = {};
  unmerged_ = false;
  if (lanes != 0) groups_.push_back({entry_pc, lanes, Wait::None, map_.block_of(entry_pc)});
  pick();
}

void ConvergenceBarriers::arrive(std::uint32_t from_node, std::uint32_t from_pc, std::uint32_t pc, std::uint64_t lanes,
                                 bool run_now, std::uint32_t released) {
  if (lanes == 0) return;
  const std::uint32_t to = map_.step(from_node, from_pc, pc), from = map_.locate(from_node, from_pc);
  if (to == released && to != ConvergenceMap::kNone) {
    // The join's barrier cleared while these lanes spun: they pass it unsynchronised. The CUDA
    // build's record at the end of the block before it then lets its one writing lane (the lowest)
    // run on alone, and the others follow (ctl-spin-wait: `end` entered by the lowest spinner first).
    const std::uint64_t lowest = lanes & (~lanes + 1);
    if (lanes != lowest) groups_.push_back({pc, lanes & ~lowest, Wait::None, to});
    groups_.push_back({pc, lowest, Wait::None, to});
    return;
  }
  Wait wait = Wait::None;
  if (to != ConvergenceMap::kNone && from != ConvergenceMap::kNone) {
    if (map_.back_edge(from, to))
      wait = Wait::Loop;
    else if (map_.is_join(to) && from != to)
      wait = Wait::Join;
  }
  // Lanes meet other lanes on arrival only at a convergence barrier (a join or a loop header), not
  // wherever they pass or are deferred at their pc; groups deferred at one pc merge later (pick()).
  const bool barrier = to != ConvergenceMap::kNone && (map_.is_join(to) || map_.loop_of_header(to) != ConvergenceMap::kNone);
  if (barrier)
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
  if (!run_now)  // deferred where another group waits: they merge later (pick())
    for (const Group& g : groups_) unmerged_ = unmerged_ || (g.pc == pc && g.node == to && !g.exits);
  groups_.push_back({pc, lanes, wait, to});
  groups_.back().released = released;
}

void ConvergenceBarriers::on_branch(std::uint32_t pc, std::uint64_t taken, std::uint64_t not_taken,
                                    std::uint32_t target_pc, std::uint32_t fallthrough_pc, std::uint32_t) {
  if (groups_.empty()) return;
  const std::uint32_t node = groups_.back().node, released = groups_.back().released;
  groups_.pop_back();
  if (target_pc == fallthrough_pc) {  // both sides go to one pc: the lanes stay together
    arrive(node, pc, target_pc, taken | not_taken, true, released);
    pick();
    return;
  }
  // The side with fewer lanes runs first (ties: the fall-through path).
  const bool taken_first = std::popcount(taken) < std::popcount(not_taken);
  if (taken_first) {
    arrive(node, pc, fallthrough_pc, not_taken, false, released);
    arrive(node, pc, target_pc, taken, true, released);
  } else {
    arrive(node, pc, target_pc, taken, false, released);
    arrive(node, pc, fallthrough_pc, not_taken, true, released);
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
  const std::uint32_t node = groups_.back().node, released = groups_.back().released;
  groups_.pop_back();
  arrive(node, from_pc, pc, lanes, true, released);
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
    // Lanes about to exit hold no one back, nor do lanes that yielded in a spin loop.
    if (k == i || o.mask == 0 || o.exits || o.yielded) continue;
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

std::size_t ConvergenceBarriers::choose() const {
  // The most recent arrival that may run; when every group waits, the most recent one.
  for (std::size_t i = groups_.size(); i-- > 0;)
    if (may_run(i) && !groups_[i].yielded) return i;
  return groups_.size() - 1;
}

std::size_t ConvergenceBarriers::yield(std::size_t chosen) {
  if (map_.yields_at(groups_[chosen].pc) && !groups_[chosen].yielded) {
    // A YIELD at the head of a spin loop: another group that may run goes first, if there is one.
    groups_[chosen].yielded = true;
    for (std::size_t i = groups_.size(); i-- > 0;)
      if (!groups_[i].yielded && may_run(i)) {
        chosen = i;
        break;
      }
  }
  if (groups_[chosen].wait == Wait::Join)
    for (auto& g : groups_)  // the barrier clears without the yielded lanes that could still come
      if (g.yielded && map_.reaches(g.node, groups_[chosen].node)) g.released = groups_[chosen].node;
  return chosen;
}

void ConvergenceBarriers::merge_deferred() {
  // The running group (the back) is left out: it has passed its block's record already.
  for (std::size_t i = 0; i + 1 < groups_.size(); ++i) {
    Group& older = groups_[i];
    if (older.mask == 0 || older.exits) continue;
    for (std::size_t k = i + 1; k + 1 < groups_.size(); ++k) {
      Group& newer = groups_[k];
      if (newer.mask == 0 || newer.exits || newer.pc != older.pc || newer.node != older.node) continue;
      older.mask |= newer.mask;
      if (newer.wait == Wait::Loop || older.wait == Wait::Loop)
        older.wait = Wait::Loop;
      else if (newer.wait == Wait::Join)
        older.wait = Wait::Join;
      newer.mask = 0;
    }
  }
  std::erase_if(groups_, [](const Group& g) { return g.mask == 0; });  // the back keeps its lanes
  unmerged_ = false;
}

void ConvergenceBarriers::pick() {
  std::erase_if(groups_, [](const Group& g) { return g.mask == 0; });
  watch_ = skip_ = kNoPc;
  if (groups_.empty()) {
    running_ = {};
    return;
  }
  const std::size_t chosen = map_.has_spin_loops() ? yield(choose()) : choose();
  std::rotate(groups_.begin() + static_cast<std::ptrdiff_t>(chosen),
              groups_.begin() + static_cast<std::ptrdiff_t>(chosen) + 1, groups_.end());
  // Groups deferred at one pc merge once a group of two lanes or more runs: the CUDA build's
  // record at the start of each block diverges then (one lane writes it), and the H100 merges its
  // deferred threads that share a pc at that divergence. A group of one lane never diverges, so
  // groups deferred while only one lane runs stay apart and the newer runs first
  // (ctl-two-exit-loop: 14 of 256 warps; docs/design.md "How the H100 reconverges").
  if (unmerged_ && std::popcount(groups_.back().mask) >= 2) merge_deferred();
  Group& run = groups_.back();
  run.wait = Wait::None;
  running_ = {run.pc, run.mask, run.exits};
  if (run.exits) return;  // the executor lets these lanes leave and asks again
  // Converged: nothing to watch for, unless the kernel has split cycles, where a path must be
  // followed into the copy it enters, or lanes released from a join must be seen arriving there.
  if (groups_.size() == 1 && !map_.split() && run.released == ConvergenceMap::kNone) return;
  watch_ = map_.next_stop(run.pc);  // other groups' pcs need no watch: groups meet only at stops
  skip_ = 0;  // every uniform branch may land on a join, a loop header or another group
}

}  // namespace warpsim::sim
