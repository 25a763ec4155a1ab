#include "sim/timing/sector_cache.hpp"

namespace warpsim::sim {

SectorCache::SectorCache(std::uint64_t bytes, unsigned line_bytes, unsigned associativity)
    : sets_(bytes / (std::uint64_t{line_bytes} * associativity)), ways_(associativity) {
  table_.resize(sets_ * ways_);
}

SectorCache::Way* SectorCache::find(std::uint64_t line) {
  Way* set = &table_[set_of(line) * ways_];
  for (unsigned w = 0; w < ways_; ++w)
    if (set[w].tag == line) return &set[w];
  return nullptr;
}

const SectorCache::Way* SectorCache::find(std::uint64_t line) const {
  return const_cast<SectorCache*>(this)->find(line);
}

std::uint32_t SectorCache::present(std::uint64_t line, std::uint32_t sectors) const {
  if (sets_ == 0) return 0;
  const Way* w = find(line);
  return w ? (w->sectors & sectors) : 0;
}

void SectorCache::touch(std::uint64_t line) {
  if (sets_ == 0) return;
  if (Way* w = find(line)) w->used = ++clock_;
}

void SectorCache::fill(std::uint64_t line, std::uint32_t sectors) {
  if (sets_ == 0) return;
  Way* w = find(line);
  if (w == nullptr) {
    Way* set = &table_[set_of(line) * ways_];
    w = &set[0];
    for (unsigned i = 1; i < ways_; ++i)
      if (set[i].used < w->used) w = &set[i];
    w->tag = line;
    w->sectors = 0;
  }
  w->sectors |= sectors;
  w->used = ++clock_;
}

void SectorCache::update(std::uint64_t line, std::uint32_t sectors) {
  if (sets_ == 0) return;
  if (Way* w = find(line)) {
    w->sectors |= sectors;
    w->used = ++clock_;
  }
}

void SectorCache::clear() {
  for (auto& w : table_) w = Way{};
  clock_ = 0;
}

}  // namespace warpsim::sim
