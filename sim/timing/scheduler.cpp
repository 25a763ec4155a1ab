// The one factory of warp scheduler policies.
#include "sim/timing/scheduler.hpp"

#include "sim/timing/gto.hpp"
#include "sim/timing/lrr.hpp"

namespace warpsim::sim {

std::unique_ptr<WarpScheduler> make_scheduler(SchedulerPolicy policy) {
  switch (policy) {
    case SchedulerPolicy::LooseRoundRobin: return std::make_unique<LooseRoundRobin>();
    case SchedulerPolicy::GreedyThenOldest: return std::make_unique<GreedyThenOldest>();
    case SchedulerPolicy::OldestFirst: return std::make_unique<OldestFirst>();
  }
  return std::make_unique<GreedyThenOldest>();
}

}  // namespace warpsim::sim
