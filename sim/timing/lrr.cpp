// Loose round robin: the first issuable warp after the one that issued last, in slot order.
#include "sim/timing/lrr.hpp"

#include <bit>

namespace warpsim::sim {

std::uint32_t LooseRoundRobin::pick(std::uint64_t ready, const std::uint64_t*) {
  const std::uint64_t after = last_ < 0 ? ~std::uint64_t{0} : last_ >= 63 ? 0 : ~std::uint64_t{0} << (last_ + 1);
  last_ = std::countr_zero((ready & after) != 0 ? ready & after : ready);
  return static_cast<std::uint32_t>(last_);
}

}  // namespace warpsim::sim
