#pragma once
#include "sim/timing/scheduler.hpp"

namespace warpsim::sim {

// Greedy then oldest: keep issuing from the warp that issued last while it can; otherwise the oldest.
class GreedyThenOldest final : public WarpScheduler {
 public:
  std::uint32_t pick(std::uint64_t ready, const std::uint64_t* age) override;

 private:
  std::int64_t last_ = -1;
};

// Oldest first: always the oldest issuable warp.
class OldestFirst final : public WarpScheduler {
 public:
  std::uint32_t pick(std::uint64_t ready, const std::uint64_t* age) override;
};

}  // namespace warpsim::sim
