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

// x % d for a fixed d without a division (Lemire, Kaser and Kurz, "Faster remainder by direct
// computation", 2019): exact for every x and d below 2^32; wider values take the division. The
// caches look up a set per line this way (a 64-bit division costs tens of cycles).
class Remainder {
 public:
  Remainder() = default;
  explicit Remainder(std::uint64_t d) : d_(d), m_(d > 1 && (d >> 32) == 0 ? ~std::uint64_t{0} / d + 1 : 0) {}
  std::uint64_t of(std::uint64_t x) const {
    if (m_ != 0 && (x >> 32) == 0) return static_cast<std::uint64_t>((static_cast<unsigned __int128>(m_ * x) * d_) >> 64);
    return d_ == 0 ? 0 : x % d_;
  }

 private:
  std::uint64_t d_ = 0;
  std::uint64_t m_ = 0;  // 2^64 / d + 1 when 1 < d < 2^32, else 0
};

}  // namespace warpsim::sim
