// A set-associative sector cache (tags only: data lives in the functional memory): lines of
// `line_bytes` with a valid bit per sector, LRU replacement. Used for each SM's L1 and the L2.
// Each line also keeps the cycle its data arrives (`ready`): a line allocated by a miss is present
// at once, so a later access to it is a hit, but one made before the fill arrives waits for it, as
// a GPU's miss-status holding registers merge requests to a line already on its way.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/bits.hpp"

namespace warpsim::sim {

class SectorCache {
 public:
  SectorCache() = default;
  // A cache of `bytes` (0: no cache, every lookup misses). A line's set is its address XOR itself
  // shifted right by 1, 2 and 3 x `fold` bits (0: by 11 and 23 bits), modulo the sets: each
  // aligned block of 2^fold lines maps onto one such block, whose lines fill distinct sets as with
  // a plain index (blocks may overlap differently modulo the sets than consecutive ones do), and
  // lines a power-of-two stride apart spread over the sets.
  SectorCache(std::uint64_t bytes, unsigned line_bytes, unsigned associativity, unsigned fold = 0);

  // The sectors of `sectors` that were present, marking the rest present (a miss allocates the
  // line, evicting the least recently used) and the line used, in one lookup; `*ready` points at
  // the line's arrival cycle (null when nothing was touched): the caller waits for it on a hit and
  // raises it after sending a miss below.
  std::uint32_t access(std::uint64_t line, std::uint32_t sectors, std::uint64_t** ready);
  // Updates sectors only where the line is present (write-through, no allocate).
  void update(std::uint64_t line, std::uint32_t sectors);
  void clear();
  // Every line's data has arrived (between launches: each launch counts cycles from 0).
  void settle() {
    for (auto& m : meta_) m.ready = 0;
  }
  // The L2's merge: fills only lines whose set falls in partition `part` of `kPartitions`, each
  // partition with its own LRU clock, so partitions can be filled on different host threads and
  // the result is the same for any number of them (LRU compares stamps within one set only).
  static constexpr unsigned kPartitions = 16;
  unsigned partition(std::uint64_t line) const { return sets_ == 0 ? 0 : static_cast<unsigned>(set_of(line) % kPartitions); }
  // Fills a line of partition `part` (partition(line) == part) with that partition's clock.
  void fill_partition(std::uint64_t line, std::uint32_t sectors, unsigned part);
  // The set a line maps to (0 without a cache), its partition, and lookups and fills given the
  // set, for the L2, whose lines are looked up by one SM and filled later by the merge.
  std::uint64_t set_index(std::uint64_t line) const { return sets_ == 0 ? 0 : set_of(line); }
  static unsigned partition_of_set(std::uint64_t set) { return static_cast<unsigned>(set % kPartitions); }
  // `*ready`: the cycle the line's data arrives (0 if it is not present); `*dirty` (if given): the
  // sectors of `sectors` that a store has written since the line was allocated.
  // `*newer` (if given): how many of the set's ways were used more recently than the line's (its
  // place in the set's LRU order, 0 the most recent; ways_ when absent).
  std::uint32_t present_in_set(std::uint64_t line, std::uint64_t set, std::uint32_t sectors, std::uint64_t* ready,
                               std::uint32_t* dirty = nullptr, unsigned* newer = nullptr) const {
    *ready = 0;
    if (dirty != nullptr) *dirty = 0;
    if (newer != nullptr) *newer = ways_;
    if (sets_ == 0) return 0;
    const std::int64_t w = find_in(line, set * ways_);
    if (w < 0) return 0;
    const Meta& m = meta_[static_cast<std::size_t>(w)];
    *ready = m.ready;
    if (dirty != nullptr) *dirty = m.dirty & sectors;
    if (newer != nullptr) *newer = newer_than(static_cast<std::size_t>(w), set * ways_);
    return m.sectors & sectors;
  }
  // `ready`: when the data the fill brought arrives (0: nothing fetched; a hit's touch); `dirty`:
  // the sectors a store wrote. Returns how many dirty sectors the fill wrote back (the line it
  // evicted, and with `dirty_ways` the line it cleaned).
  // `dirty_ways` (0: any number): a set keeps at most this many dirty lines; a store's fill past
  // it writes back the least recently used other dirty line of the set (it stays, clean), and those
  // sectors count as evicted.
  unsigned fill_set_partition(std::uint64_t line, std::uint32_t sectors, std::uint64_t set, unsigned part,
                              std::uint64_t ready, std::uint32_t dirty = 0, unsigned dirty_ways = 0) {
    if (sets_ == 0) return 0;
    std::uint32_t evicted = 0;
    const std::size_t i = fill_in(line, sectors, set * ways_, partition_clock_[part], &evicted);
    meta_[i].ready = std::max(meta_[i].ready, ready);
    meta_[i].dirty |= dirty;
    const std::uint32_t cleaned = dirty != 0 && dirty_ways != 0 ? clean_past(set * ways_, i, dirty_ways) : 0;
    return static_cast<unsigned>(std::popcount(evicted) + std::popcount(cleaned));
  }
  // A fill outside any epoch (between launches), stamped as a merge would stamp it; `tag`: what the
  // line is kept as in its set (memory.l2_side_copies: one of its copies), the line by default.
  void fill_between_launches(std::uint64_t line, std::uint32_t sectors) { fill_between_launches(line, sectors, line); }
  void fill_between_launches(std::uint64_t line, std::uint32_t sectors, std::uint64_t tag) {
    if (sets_ == 0) return;
    const std::uint64_t set = set_of(line);
    fill_in(tag, sectors, set * ways_, partition_clock_[set % kPartitions]);
  }
  bool enabled() const { return sets_ > 0; }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  std::uint64_t set_of(std::uint64_t line) const {
    return set_mod_.of(fold_ == 0 ? line ^ (line >> 11) ^ (line >> 23)
                                  : line ^ (line >> fold_) ^ (line >> (2 * fold_)) ^ (line >> (3 * fold_)));
  }
  // Index of the line's way, or -1. Tags are kept apart from the rest so a lookup reads one or two
  // host cache lines per set even in the 50 MiB L2.
  std::int64_t find(std::uint64_t line) const { return find_in(line, set_of(line) * ways_); }
  std::int64_t find_in(std::uint64_t line, std::uint64_t first) const;
  unsigned newer_than(std::size_t way, std::uint64_t first) const;
  void fill_stamped(std::uint64_t line, std::uint32_t sectors, std::uint64_t& clock) {
    fill_in(line, sectors, set_of(line) * ways_, clock);
  }
  // Fills the line into the set whose first way is `first`; returns its way. `*evicted` (if given):
  // the dirty sectors of the line it evicted.
  std::size_t fill_in(std::uint64_t line, std::uint32_t sectors, std::uint64_t first, std::uint64_t& clock,
                      std::uint32_t* evicted = nullptr);
  // Cleans the set's least recently used dirty line other than `keep` when more than `limit` are
  // dirty (a fill dirties one line, so one is enough); returns its sectors written back.
  std::uint32_t clean_past(std::uint64_t first, std::size_t keep, unsigned limit);
  // Evicts the set's least recently used way; `*evicted` (if given): that line's dirty sectors.
  std::size_t allocate(std::uint64_t line, std::uint64_t first, std::uint32_t* evicted = nullptr);

  std::uint64_t sets_ = 0;
  Remainder set_mod_;  // % sets_
  unsigned ways_ = 0;
  unsigned fold_ = 0;
  std::uint64_t clock_ = 0;
  std::uint64_t partition_clock_[kPartitions] = {};
  std::vector<std::uint64_t> tags_;
  std::vector<std::uint64_t> used_;
  // A line's present sectors, its written ones (the L2 only) and when its data arrives, side by
  // side: a hit reads them together, so they share one host cache line.
  struct Meta {
    std::uint64_t ready = 0;
    std::uint32_t sectors = 0;
    std::uint32_t dirty = 0;
  };
  std::vector<Meta> meta_;
};

}  // namespace warpsim::sim
