#include "sim/timing/sector_cache.hpp"

#include <algorithm>

namespace warpsim::sim {

SectorCache::SectorCache(std::uint64_t bytes, unsigned line_bytes, unsigned associativity, unsigned fold)
    : sets_(bytes / (std::uint64_t{line_bytes} * associativity)), ways_(associativity), fold_(fold) {
  set_mod_ = Remainder(sets_);
  tags_.assign(sets_ * ways_, kEmpty);
  used_.assign(sets_ * ways_, 0);
  meta_.assign(sets_ * ways_, Meta{});
}

std::int64_t SectorCache::find_in(std::uint64_t line, std::uint64_t first) const {
  const std::uint64_t* tags = tags_.data() + first;
  for (unsigned w = 0; w < ways_; ++w)
    if (tags[w] == line) return static_cast<std::int64_t>(first + w);
  return -1;
}

unsigned SectorCache::newer_than(std::size_t way, std::uint64_t first) const {
  unsigned n = 0;
  for (std::uint64_t i = first; i < first + ways_; ++i) n += used_[i] > used_[way] ? 1u : 0u;
  return n;
}

void SectorCache::fill_partition(std::uint64_t line, std::uint32_t sectors, unsigned part) {
  if (sets_ == 0) return;
  fill_stamped(line, sectors, partition_clock_[part]);
}

std::size_t SectorCache::allocate(std::uint64_t line, std::uint64_t first, std::uint32_t* evicted) {
  // The least recently used way of the set (empty ways have never been used: 0).
  std::uint64_t victim = first;
  for (std::uint64_t i = first + 1; i < first + ways_; ++i)
    if (used_[i] < used_[victim]) victim = i;
  if (evicted != nullptr) *evicted = tags_[victim] == kEmpty ? 0 : meta_[victim].dirty;
  tags_[victim] = line;
  meta_[victim] = Meta{};
  return static_cast<std::size_t>(victim);
}

std::uint32_t SectorCache::clean_past(std::uint64_t first, std::size_t keep, unsigned limit) {
  unsigned dirty = 0;
  std::size_t oldest = keep;
  for (std::uint64_t i = first; i < first + ways_; ++i) {
    if (tags_[i] == kEmpty || meta_[i].dirty == 0) continue;
    ++dirty;
    if (i != keep && (oldest == keep || used_[i] < used_[oldest])) oldest = static_cast<std::size_t>(i);
  }
  if (dirty <= limit || oldest == keep) return 0;
  const std::uint32_t written = meta_[oldest].dirty;
  meta_[oldest].dirty = 0;
  return written;
}

std::size_t SectorCache::fill_in(std::uint64_t line, std::uint32_t sectors, std::uint64_t first, std::uint64_t& clock,
                                 std::uint32_t* evicted) {
  const std::int64_t w = find_in(line, first);
  const std::size_t i = w >= 0 ? static_cast<std::size_t>(w) : allocate(line, first, evicted);
  meta_[i].sectors |= sectors;
  used_[i] = ++clock;
  return i;
}

std::uint32_t SectorCache::access(std::uint64_t line, std::uint32_t sectors, std::uint64_t** ready) {
  *ready = nullptr;
  if (sets_ == 0) return 0;
  const std::uint64_t first = set_of(line) * ways_;
  const std::int64_t w = find_in(line, first);
  if (w < 0 && sectors == 0) return 0;
  const std::size_t i = w >= 0 ? static_cast<std::size_t>(w) : allocate(line, first);
  const std::uint32_t hit = meta_[i].sectors & sectors;
  meta_[i].sectors |= sectors;
  used_[i] = ++clock_;
  *ready = &meta_[i].ready;
  return hit;
}

void SectorCache::update(std::uint64_t line, std::uint32_t sectors) {
  if (sets_ == 0) return;
  const std::int64_t w = find(line);
  if (w < 0) return;
  const auto i = static_cast<std::size_t>(w);
  meta_[i].sectors |= sectors;
  used_[i] = ++clock_;
}

void SectorCache::clear() {
  std::fill(tags_.begin(), tags_.end(), kEmpty);
  std::fill(used_.begin(), used_.end(), 0);
  std::fill(meta_.begin(), meta_.end(), Meta{});
  clock_ = 0;
  for (auto& c : partition_clock_) c = 0;
}

}  // namespace warpsim::sim
