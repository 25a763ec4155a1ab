// Warp scheduler policies: each sub-partition's scheduler picks one of its issuable warps per
// cycle. One tiny interface, one file per policy, one explicit factory.
#pragma once
#include <cstdint>
#include <memory>
#include <span>

#include "sim/timing/preset.hpp"

namespace warpsim::sim {

// An issuable warp as the scheduler sees it.
struct Candidate {
  std::uint32_t slot = 0;  // the warp's slot in its sub-partition (stable while it is resident)
  std::uint64_t age = 0;   // launch order on the SM: lower is older
};

class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;
  // Index into `ready` (non-empty, in slot order) of the warp to issue.
  virtual std::size_t pick(std::span<const Candidate> ready) = 0;
  // The warp in `slot` issued (policies that favour the last warp remember it).
  virtual void issued(std::uint32_t slot) = 0;
};

std::unique_ptr<WarpScheduler> make_scheduler(SchedulerPolicy policy);

}  // namespace warpsim::sim
