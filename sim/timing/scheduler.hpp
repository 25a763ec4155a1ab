// Warp scheduler policies: each sub-partition's scheduler picks one of its issuable warps per
// cycle. One tiny interface, one file per policy, one explicit factory.
#pragma once
#include <cstdint>
#include <memory>

#include "sim/timing/preset.hpp"

namespace warpsim::sim {

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // The slot (a warp's place in its sub-partition, stable while it is resident) to issue from
  // `ready`, a non-empty mask of issuable slots; `age[slot]` is each slot's launch order on the SM
  // (lower is older). The picked warp issues (policies that favour the last warp remember it).
  virtual std::uint32_t pick(std::uint64_t ready, const std::uint64_t* age) = 0;
};

// The oldest slot of `ready` (the lowest slot among equal ages).
std::uint32_t oldest_slot(std::uint64_t ready, const std::uint64_t* age);

std::unique_ptr<WarpScheduler> make_scheduler(SchedulerPolicy policy);

}  // namespace warpsim::sim
