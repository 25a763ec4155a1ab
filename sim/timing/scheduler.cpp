// The one factory of warp scheduler policies.
#include "sim/timing/scheduler.hpp"

#include "sim/timing/gto.hpp"
#include "sim/timing/lrr.hpp"

#include <bit>

namespace warpsim::sim {

std::uint32_t oldest_slot(std::uint64_t ready, const std::uint64_t* age) {
  auto best = static_cast<std::uint32_t>(std::countr_zero(ready));
  for (std::uint64_t m = ready & (ready - 1); m != 0; m &= m - 1) {
    const auto slot = static_cast<std::uint32_t>(std::countr_zero(m));
    if (age[slot] < age[best]) best = slot;
  }
  return best;
}

std::unique_ptr<WarpScheduler> make_scheduler(SchedulerPolicy policy) {
  switch (policy) {
    case SchedulerPolicy::LooseRoundRobin: return std::make_unique<LooseRoundRobin>();
    case SchedulerPolicy::GreedyThenOldest: return std::make_unique<GreedyThenOldest>();
    case SchedulerPolicy::OldestFirst: return std::make_unique<OldestFirst>();
  }
  return std::make_unique<GreedyThenOldest>();
}

}  // namespace warpsim::sim
