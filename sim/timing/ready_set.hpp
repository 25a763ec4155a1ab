// The warps of one sub-partition that can issue now, kept up to date in O(1) per change instead of
// testing every warp's ready cycle each time one comes due. Up to 64 slots. A slot waiting for a
// cycle within the next 64 sits in a bucket of a 64-cycle wheel (cycle mod 64); a slot waiting
// longer (a DRAM load) sits in a far set that is looked at only when its earliest cycle comes within
// the wheel. ready(now) gives exactly the slots whose cycle is at most `now`.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace warpsim::sim {

class ReadySet {
 public:
  static constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

  // The slot's cycle changed from `old_cycle` to `cycle` (kNever: it cannot issue at all).
  void place(std::uint32_t slot, std::uint64_t old_cycle, std::uint64_t cycle) {
    const std::uint64_t bit = std::uint64_t{1} << slot;
    ready_ &= ~bit;
    far_ &= ~bit;
    if (old_cycle != kNever) {
      const unsigned k = old_cycle & 63;
      buckets_[k] &= ~bit;
      if (buckets_[k] == 0) occupied_ &= ~(std::uint64_t{1} << k);
    }
    put(bit, cycle);
  }

  // The slots whose cycle is at most `now` (`now` never goes back). `cycles` holds every slot's
  // current cycle, for the far set.
  std::uint64_t ready(std::uint64_t now, const std::uint64_t* cycles) {
    if (now <= harvested_) return ready_;
    const std::uint64_t passed = now - harvested_;
    std::uint64_t window = ~std::uint64_t{0};
    if (passed < 64) window = std::rotl((std::uint64_t{1} << passed) - 1, static_cast<int>((harvested_ + 1) & 63));
    for (std::uint64_t due = occupied_ & window; due != 0; due &= due - 1) {
      const auto k = static_cast<unsigned>(std::countr_zero(due));
      ready_ |= buckets_[k];
      buckets_[k] = 0;
    }
    occupied_ &= ~window;
    harvested_ = now;
    if (far_min_ <= now + 64) {
      const std::uint64_t far = far_;
      far_ = 0;
      far_min_ = kNever;
      for (std::uint64_t m = far; m != 0; m &= m - 1) {
        const auto slot = static_cast<unsigned>(std::countr_zero(m));
        put(std::uint64_t{1} << slot, cycles[slot]);
      }
    }
    return ready_;
  }

  // No slot becomes ready before this cycle (a lower bound; kNever when nothing waits).
  std::uint64_t next() const {
    std::uint64_t near = kNever;
    if (occupied_ != 0)
      near = harvested_ + 1 + static_cast<unsigned>(std::countr_zero(std::rotr(occupied_, static_cast<int>((harvested_ + 1) & 63))));
    return std::min(near, far_min_);
  }

 private:
  void put(std::uint64_t bit, std::uint64_t cycle) {
    if (cycle == kNever) return;
    if (cycle <= harvested_) {
      ready_ |= bit;
    } else if (cycle - harvested_ <= 64) {
      const unsigned k = cycle & 63;
      buckets_[k] |= bit;
      occupied_ |= std::uint64_t{1} << k;
    } else {
      far_ |= bit;
      far_min_ = std::min(far_min_, cycle);
    }
  }

  std::uint64_t harvested_ = 0;  // buckets of cycles up to here are in ready_
  std::uint64_t ready_ = 0;
  std::uint64_t occupied_ = 0;  // which buckets hold a slot
  std::uint64_t buckets_[64] = {};
  std::uint64_t far_ = 0;
  std::uint64_t far_min_ = kNever;
};

}  // namespace warpsim::sim
