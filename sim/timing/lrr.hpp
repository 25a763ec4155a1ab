#pragma once
#include "sim/timing/scheduler.hpp"

namespace warpsim::sim {

class LooseRoundRobin final : public WarpScheduler {
 public:
  std::size_t pick(std::span<const Candidate> ready) override;
  void issued(std::uint32_t slot) override;

 private:
  std::int64_t last_ = -1;
};

}  // namespace warpsim::sim
