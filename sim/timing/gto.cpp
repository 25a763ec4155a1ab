// Greedy-then-oldest (Rogers et al., MICRO 2012) and plain oldest-first.
#include "sim/timing/gto.hpp"

namespace warpsim::sim {

namespace {
std::size_t oldest(std::span<const Candidate> ready) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < ready.size(); ++i)
    if (ready[i].age < ready[best].age) best = i;
  return best;
}
}  // namespace

std::size_t GreedyThenOldest::pick(std::span<const Candidate> ready) {
  for (std::size_t i = 0; i < ready.size(); ++i)
    if (ready[i].slot == last_) return i;
  return oldest(ready);
}

void GreedyThenOldest::issued(std::uint32_t slot) { last_ = slot; }

std::size_t OldestFirst::pick(std::span<const Candidate> ready) { return oldest(ready); }

}  // namespace warpsim::sim
