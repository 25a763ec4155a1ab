// Greedy-then-oldest (Rogers et al., MICRO 2012) and plain oldest-first.
#include "sim/timing/gto.hpp"

namespace warpsim::sim {

std::uint32_t GreedyThenOldest::pick(std::uint64_t ready, const std::uint64_t* age) {
  if (last_ < 0 || ((ready >> last_) & 1) == 0) last_ = oldest_slot(ready, age);
  return static_cast<std::uint32_t>(last_);
}

std::uint32_t OldestFirst::pick(std::uint64_t ready, const std::uint64_t* age) {
  return oldest_slot(ready, age);
}

}  // namespace warpsim::sim
