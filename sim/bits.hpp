// Bit counting for lane masks without a call into libgcc: the portable x86-64 build has no
// POPCNT, and std::popcount would call __popcountdi2 once per issued instruction.
#pragma once
#include <cstdint>

namespace warpsim::sim {

inline unsigned count_lanes(std::uint64_t m) {
  m = m - ((m >> 1) & 0x5555555555555555ull);
  m = (m & 0x3333333333333333ull) + ((m >> 2) & 0x3333333333333333ull);
  m = (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<unsigned>((m * 0x0101010101010101ull) >> 56);
}

}  // namespace warpsim::sim
