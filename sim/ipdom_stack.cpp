#include "sim/ipdom_stack.hpp"

#include "sim/convergence_barriers.hpp"
#include "sim/thread_frontier.hpp"

namespace warpsim::sim {

std::unique_ptr<Reconvergence> make_reconvergence(ReconvergenceModel model, const ConvergenceMap& map) {
  switch (model) {
    case ReconvergenceModel::Volta: return std::make_unique<ConvergenceBarriers>(map);
    case ReconvergenceModel::Ipdom: return std::make_unique<IpdomStack>();
    case ReconvergenceModel::Frontier: return std::make_unique<ThreadFrontier>();
  }
  return std::make_unique<IpdomStack>();
}

std::string_view reconvergence_name(ReconvergenceModel model) {
  switch (model) {
    case ReconvergenceModel::Frontier: return "frontier";
    case ReconvergenceModel::Volta: return "volta";
    case ReconvergenceModel::Ipdom: break;
  }
  return "ipdom";
}

std::optional<ReconvergenceModel> parse_reconvergence(std::string_view name) {
  if (name == "ipdom") return ReconvergenceModel::Ipdom;
  if (name == "frontier") return ReconvergenceModel::Frontier;
  if (name == "volta") return ReconvergenceModel::Volta;
  return std::nullopt;
}

std::vector<ReconvergenceModel> reconvergence_models() {
  return {ReconvergenceModel::Ipdom, ReconvergenceModel::Frontier, ReconvergenceModel::Volta};
}

void IpdomStack::reset(std::uint32_t entry_pc, std::uint64_t lanes) {
  stack_.clear();
  parked_ = {};
  if (lanes != 0) stack_.push_back({entry_pc, kNoPc, lanes});
}

void IpdomStack::on_branch(std::uint32_t, std::uint64_t taken, std::uint64_t not_taken, std::uint32_t target_pc,
                           std::uint32_t fallthrough_pc, std::uint32_t reconvergence_pc) {
  if (stack_.empty()) return;
  Entry& top = stack_.back();
  if (taken == 0 || not_taken == 0) {
    top.pc = taken != 0 ? target_pc : fallthrough_pc;
    settle();
    return;
  }
  // The top would become a reconvergence entry with pc == its own reconvergence pc and pop as soon
  // as it surfaced; dropping it now keeps a loop that diverges every iteration at a fixed depth.
  if (top.reconvergence_pc == reconvergence_pc)
    stack_.pop_back();
  else
    top.pc = reconvergence_pc;
  if (fallthrough_pc != reconvergence_pc) stack_.push_back({fallthrough_pc, reconvergence_pc, not_taken});
  if (target_pc != reconvergence_pc) stack_.push_back({target_pc, reconvergence_pc, taken});
  settle();
}

void IpdomStack::on_exit(std::uint64_t lanes) {
  for (auto& e : stack_) e.mask &= ~lanes;
  parked_.mask &= ~lanes;
  settle();
}

bool IpdomStack::park(std::uint64_t lanes, std::uint32_t resume_pc) {
  if (parked_.mask != 0 && parked_.pc != resume_pc) return false;
  parked_ = {resume_pc, parked_.mask | lanes};
  for (auto& e : stack_) e.mask &= ~lanes;
  settle();
  return true;
}

void IpdomStack::unpark() {
  if (parked_.mask == 0) return;
  stack_.push_back({parked_.pc, kNoPc, parked_.mask});
  parked_ = {};
}

void IpdomStack::advance(std::uint32_t, std::uint32_t pc) {
  if (stack_.empty()) return;
  stack_.back().pc = pc;
  settle();
}

SimtPath IpdomStack::current() const {
  if (stack_.empty()) return {};
  return {stack_.back().pc, stack_.back().mask};
}

std::uint32_t IpdomStack::watch_pc() const { return stack_.empty() ? kNoPc : stack_.back().reconvergence_pc; }

void IpdomStack::settle() {
  while (!stack_.empty()) {
    const Entry& top = stack_.back();
    if (top.mask != 0 && top.pc != top.reconvergence_pc) break;
    stack_.pop_back();
  }
}

}  // namespace warpsim::sim
