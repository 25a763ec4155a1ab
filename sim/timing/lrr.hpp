#pragma once
#include "sim/timing/scheduler.hpp"

namespace warpsim::sim {

class LooseRoundRobin final : public WarpScheduler {
 public:
  std::uint32_t pick(std::uint64_t ready, const std::uint64_t* age) override;

 private:
  std::int64_t last_ = -1;
};

}  // namespace warpsim::sim
