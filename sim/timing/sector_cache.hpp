// A set-associative sector cache (tags only: data lives in the functional memory): lines of
// `line_bytes` with a valid bit per sector, LRU replacement. Used for each SM's L1 and the L2.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/bits.hpp"

namespace warpsim::sim {

class SectorCache {
 public:
  SectorCache() = default;
  // A cache of `bytes` (0: no cache, every lookup misses).
  SectorCache(std::uint64_t bytes, unsigned line_bytes, unsigned associativity);

  // The sectors of `sectors` that are present (no state change).
  std::uint32_t present(std::uint64_t line, std::uint32_t sectors) const;
  // Marks the sectors present, allocating the line (evicting the least recently used) if needed.
  void fill(std::uint64_t line, std::uint32_t sectors);
  // Marks a use of the line for LRU (on a hit).
  void touch(std::uint64_t line);
  // Updates sectors only where the line is present (write-through, no allocate).
  void update(std::uint64_t line, std::uint32_t sectors);
  void clear();
  // The L2's merge: fills only lines whose set falls in partition `part` of `kPartitions`, each
  // partition with its own LRU clock, so partitions can be filled on different host threads and
  // the result is the same for any number of them (LRU compares stamps within one set only).
  static constexpr unsigned kPartitions = 16;
  unsigned partition(std::uint64_t line) const { return sets_ == 0 ? 0 : static_cast<unsigned>(set_of(line) % kPartitions); }
  // Fills a line of partition `part` (partition(line) == part) with that partition's clock.
  void fill_partition(std::uint64_t line, std::uint32_t sectors, unsigned part);
  // A fill outside any epoch (between launches), stamped as a merge would stamp it.
  void fill_between_launches(std::uint64_t line, std::uint32_t sectors) {
    if (sets_ != 0) fill_stamped(line, sectors, partition_clock_[set_of(line) % kPartitions]);
  }
  bool enabled() const { return sets_ > 0; }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  std::uint64_t set_of(std::uint64_t line) const { return set_mod_.of(line ^ (line >> 11) ^ (line >> 23)); }
  // Index of the line's way, or -1. Tags are kept apart from the rest so a lookup reads one or two
  // host cache lines per set even in the 50 MiB L2.
  std::int64_t find(std::uint64_t line) const { return find_in(line, set_of(line) * ways_); }
  std::int64_t find_in(std::uint64_t line, std::uint64_t first) const;
  void fill_stamped(std::uint64_t line, std::uint32_t sectors, std::uint64_t& clock);

  std::uint64_t sets_ = 0;
  Remainder set_mod_;  // % sets_
  unsigned ways_ = 0;
  std::uint64_t clock_ = 0;
  std::uint64_t partition_clock_[kPartitions] = {};
  std::vector<std::uint64_t> tags_;
  std::vector<std::uint64_t> used_;
  std::vector<std::uint32_t> sectors_;
};

}  // namespace warpsim::sim
