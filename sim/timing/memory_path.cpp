#include "sim/timing/memory_path.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace warpsim::sim {

namespace {
// Sectors of a line: at most 4 with the presets' 128-byte lines of 32-byte sectors, counted from
// a table (count_lanes is a software popcount in portable builds).
unsigned count_sectors(std::uint32_t m) {
  constexpr unsigned char kNibble[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return m < 16 ? kNibble[m] : count_lanes(m);
}
}  // namespace

MemoryPath::MemoryPath(const GpuPreset& gpu, const SectorCache& l2, std::uint64_t l1_bytes)
    : gpu_(gpu), l2_(l2), l1_(l1_bytes, gpu.line_bytes, gpu.l1_associativity) {
  if (gpu.atomic_slice_cycles > 0) slice_free_.assign(gpu.l2_slices, 0.0);
  set_share(gpu.sms);
}

void MemoryPath::set_share(unsigned active_sms, std::uint32_t loaded_latency) {
  dram_latency_ = gpu_.dram_latency + loaded_latency;
  const double n = std::max(1u, active_sms);
  slice_cycles_ = gpu_.atomic_slice_cycles * n;
  l2_channel_.set_rate(gpu_.l2_bytes_per_cycle / n);
  dram_channel_.set_rate(gpu_.dram_bytes_per_cycle / n);
}

std::uint64_t MemoryPath::start_request(std::uint64_t now, std::size_t lines) {
  const std::uint64_t start = std::max(now, lsu_free_);
  lsu_free_ = start + (std::max<std::size_t>(lines, 1) + gpu_.l1_lines_per_cycle - 1) / gpu_.l1_lines_per_cycle;
  return start;
}

std::uint64_t MemoryPath::to_l2(std::uint64_t now, const LineAccess& a, std::uint32_t extra_latency, bool write) {
  const std::uint64_t set = l2_.set_index(a.line);
  std::uint64_t pending = 0;  // a hit on a line still being fetched waits for the fetch
  const std::uint32_t hit = l2_.present_in_set(a.line, set, a.sectors, &pending);
  const std::uint32_t miss = a.sectors & ~hit;
  const auto sectors = count_sectors(a.sectors);
  const auto missing = count_sectors(miss);
  stats.l2_sector_accesses += sectors;
  stats.l2_sector_hits += sectors - missing;
  double arrive = l2_channel_.serve(now, std::uint64_t{sectors} * gpu_.sector_bytes);
  std::uint32_t latency = gpu_.l2_latency;
  std::uint32_t filled = a.sectors;
  std::uint64_t fetched_ready = 0;
  if (missing > 0) {
    // A read fetches whole aligned groups of memory.dram_fetch_sectors sectors (bw-dram-s8 against
    // bw-dram-s32); a write allocates in L2 without a fetch, and only a read waits for DRAM.
    std::uint32_t fetched = miss;
    if (!write && gpu_.dram_fetch_sectors > 1) {
      const std::uint32_t per_line = gpu_.line_bytes / gpu_.sector_bytes;  // at most 32 (validate_preset)
      const std::uint32_t group = gpu_.dram_fetch_sectors >= 32 ? ~0u : (1u << gpu_.dram_fetch_sectors) - 1;
      for (std::uint32_t first = 0; first < per_line; first += gpu_.dram_fetch_sectors)
        if (miss & (group << first)) fetched |= group << first;
      filled |= fetched;
    }
    const std::uint64_t bytes = std::uint64_t{count_sectors(fetched)} * gpu_.sector_bytes;
    stats.dram_bytes += bytes;
    arrive = std::max(arrive, dram_channel_.serve(now, bytes));
    if (!write) latency = dram_latency_;
  }
  std::uint64_t ready = static_cast<std::uint64_t>(std::ceil(arrive)) + latency;
  if (missing > 0 && !write) fetched_ready = ready;
  // Lines brought in by other SMs in earlier epochs are present here at once; one whose data is
  // still on its way from DRAM answers when it arrives (ncu counts such requests as L2 hits too).
  if (gpu_.pending_fills && !write) ready = std::max(ready, pending);
  l2_fills_[SectorCache::partition_of_set(set)].push_back({a.line, set, filled, fetched_ready});
  return ready + extra_latency;
}

std::uint64_t MemoryPath::load(std::uint64_t now, const std::vector<LineAccess>& lines) {
  ++stats.global_load_requests;
  const std::uint64_t start = start_request(now, lines.size());
  std::uint64_t done = start + gpu_.l1_latency;
  for (const auto& a : lines) {
    const auto sectors = count_sectors(a.sectors);
    stats.global_sectors += sectors;
    stats.l1_sector_accesses += sectors;
    std::uint64_t* ready = nullptr;
    const std::uint32_t hit = l1_.access(a.line, a.sectors, &ready);  // misses allocate
    stats.l1_sector_hits += count_sectors(hit);
    const std::uint32_t miss = a.sectors & ~hit;
    // A hit on a line whose fill is on its way waits for it (one arrival cycle per line).
    if (hit != 0 && ready != nullptr && gpu_.pending_fills) done = std::max(done, *ready);
    if (miss != 0) {
      const std::uint64_t arrival = to_l2(start, {a.line, miss}, 0, false);
      done = std::max(done, arrival);
      if (ready != nullptr) *ready = std::max(*ready, arrival);
    }
  }
  return done;
}

std::uint64_t MemoryPath::store(std::uint64_t now, const std::vector<LineAccess>& lines) {
  ++stats.global_store_requests;
  const std::uint64_t start = start_request(now, lines.size());
  std::uint64_t done = start;
  for (const auto& a : lines) {
    stats.global_sectors += count_sectors(a.sectors);
    l1_.update(a.line, a.sectors);
    done = std::max(done, to_l2(start, a, 0, true));
  }
  return done;
}

std::uint64_t MemoryPath::atomic(std::uint64_t now, const std::vector<LineAccess>& lines, unsigned same_address) {
  ++stats.global_atomic_requests;
  const std::uint64_t start = start_request(now, lines.size());
  const std::uint32_t serial = gpu_.atomic_latency + (same_address > 1 ? (same_address - 1) * gpu_.atomic_same_address_cycles : 0);
  std::uint64_t done = start;
  for (const auto& a : lines) {
    stats.global_sectors += count_sectors(a.sectors);
    std::uint64_t queued = 0;
    if (!slice_free_.empty()) {
      // The slice works through its atomics one request after another, shared by every SM at
      // work (atom-hot, atom-spread): this SM's share of it is free at slice_free_.
      const auto line = a.line ^ (a.line >> 9) ^ (a.line >> 17);
      double& free = slice_free_[line % slice_free_.size()];
      const double begin = std::max(free, double(start));
      free = begin + slice_cycles_ * std::max(same_address, 1u);
      queued = static_cast<std::uint64_t>(std::ceil(begin)) - start;
    }
    done = std::max(done, to_l2(start, a, serial, false) + queued);
  }
  return done;
}

std::uint64_t MemoryPath::shared(std::uint64_t now, unsigned passes, std::uint32_t latency) {
  ++stats.shared_requests;
  stats.shared_passes += passes;
  const std::uint64_t start = std::max(now, shared_free_);
  const std::uint64_t extra = std::max(passes, 1u) - 1;
  // The pipe takes a new pass each shared_replay_interval cycles (tput-shared-s32: 32 warps with
  // 32-way conflicts, one pass a cycle on the H100); the warp's own load waits shared_replay_cycles
  // per pass (chase-shared-s32: one warp, two cycles a pass).
  shared_free_ = start + 1 + extra * gpu_.shared_replay_interval;
  return start + extra * gpu_.shared_replay_cycles + latency;
}

}  // namespace warpsim::sim
