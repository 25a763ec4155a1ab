#include "sim/thread_frontier.hpp"

#include <algorithm>

namespace warpsim::sim {

void ThreadFrontier::reset(std::uint32_t entry_pc, std::uint64_t lanes) {
  groups_.clear();
  parked_ = {};
  watch_ = kNoPc;
  if (lanes != 0) groups_.push_back({entry_pc, lanes});
}

void ThreadFrontier::on_branch(std::uint32_t, std::uint64_t taken, std::uint64_t not_taken, std::uint32_t target_pc,
                               std::uint32_t fallthrough_pc, std::uint32_t) {
  if (groups_.empty()) return;
  groups_[0] = {target_pc, taken};
  groups_.push_back({fallthrough_pc, not_taken});
  pick();
}

void ThreadFrontier::on_exit(std::uint64_t lanes) {
  for (auto& g : groups_) g.mask &= ~lanes;
  parked_.mask &= ~lanes;
  pick();
}

void ThreadFrontier::advance(std::uint32_t, std::uint32_t pc) {
  if (groups_.empty()) return;
  groups_[0].pc = pc;
  pick();
}

bool ThreadFrontier::park(std::uint64_t lanes, std::uint32_t resume_pc) {
  if (parked_.mask != 0 && parked_.pc != resume_pc) return false;
  parked_ = {resume_pc, parked_.mask | lanes};
  for (auto& g : groups_) g.mask &= ~lanes;
  pick();
  return true;
}

void ThreadFrontier::unpark() {
  if (parked_.mask == 0) return;
  groups_.push_back(parked_);
  parked_ = {};
  pick();
}

SimtPath ThreadFrontier::current() const { return groups_.empty() ? SimtPath{} : groups_[0]; }

void ThreadFrontier::pick() {
  // A handful of groups at most: quadratic merging is cheaper than any ordered structure.
  for (std::size_t i = 0; i < groups_.size(); ++i)
    for (std::size_t j = i + 1; j < groups_.size(); ++j)
      if (groups_[j].pc == groups_[i].pc) {
        groups_[i].mask |= groups_[j].mask;
        groups_[j].mask = 0;
      }
  std::erase_if(groups_, [](const SimtPath& g) { return g.mask == 0; });
  watch_ = kNoPc;
  if (groups_.empty()) return;
  const auto lowest = std::min_element(groups_.begin(), groups_.end(),
                                       [](const SimtPath& a, const SimtPath& b) { return a.pc < b.pc; });
  std::iter_swap(groups_.begin(), lowest);
  for (std::size_t i = 1; i < groups_.size(); ++i) watch_ = std::min(watch_, groups_[i].pc);
}

}  // namespace warpsim::sim
