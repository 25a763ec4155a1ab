// Loose round robin: the first issuable warp after the one that issued last, in slot order.
#include "sim/timing/lrr.hpp"

namespace warpsim::sim {

std::size_t LooseRoundRobin::pick(std::span<const Candidate> ready) {
  for (std::size_t i = 0; i < ready.size(); ++i)
    if (ready[i].slot > last_) return i;
  return 0;
}

void LooseRoundRobin::issued(std::uint32_t slot) { last_ = slot; }

}  // namespace warpsim::sim
