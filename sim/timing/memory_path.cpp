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

MemoryPath::MemoryPath(const GpuPreset& gpu, const SectorCache& l2, std::uint64_t l1_bytes, std::uint32_t sm)
    : gpu_(gpu),
      l2_(l2),
      side_(l2_side_of_sm(sm)),
      l1_(l1_bytes, gpu.line_bytes, gpu.l1_associativity, gpu.l1_index_fold) {
  if (gpu.atomic_slice_cycles > 0 || gpu.atomic_int_slice_cycles > 0) slice_free_.assign(gpu.l2_slices, 0.0);
  page_shift_ = static_cast<unsigned>(std::countr_zero(std::max(1u, gpu.dram_page_bytes / std::max(1u, gpu.line_bytes))));
  set_share(gpu.sms);
}

void MemoryPath::set_share(unsigned active_sms, std::uint32_t loaded_latency, double dram_spare, double l2_spare) {
  dram_latency_ = gpu_.dram_latency + loaded_latency;
  const double n = std::max(1u, active_sms);
  slice_cycles_ = gpu_.atomic_slice_cycles * n;
  int_slice_cycles_ = (gpu_.atomic_int_slice_cycles > 0 ? gpu_.atomic_int_slice_cycles : gpu_.atomic_slice_cycles) * n;
  atomic_line_cycles_ = gpu_.atomic_lines_per_cycle > 0 ? n / gpu_.atomic_lines_per_cycle : 0;
  l2_channel_.set_rate(gpu_.l2_bytes_per_cycle / n, gpu_.share_burst_bytes * l2_spare);
  dram_channel_.set_rate(gpu_.dram_bytes_per_cycle / n, gpu_.share_burst_bytes * dram_spare);
}

std::size_t MemoryPath::l1_cycles(const std::vector<LineAccess>& lines, std::size_t read) const {
  std::size_t sectors = 0;
  for (const auto& a : lines) sectors += count_sectors(a.sectors);
  const std::size_t lookups =
      (std::max<std::size_t>(lines.size(), 1) + gpu_.l1_lines_per_cycle - 1) / gpu_.l1_lines_per_cycle;
  if (gpu_.l1_read_bytes != 0 && read != 0) {  // the lanes' bytes (duplicates included), at most the sectors'
    const std::size_t bytes = std::min(sectors * gpu_.sector_bytes, read), per_cycle = gpu_.l1_bytes_per_cycle;
    return std::max(lookups, (bytes + per_cycle - 1) / per_cycle);
  }
  const std::size_t per_cycle = std::max<std::size_t>(1, gpu_.l1_bytes_per_cycle / gpu_.sector_bytes);
  return std::max(lookups, (sectors + per_cycle - 1) / per_cycle);
}

std::uint64_t MemoryPath::start_request(std::uint64_t now, const std::vector<LineAccess>& lines, unsigned passes,
                                         std::size_t read) {
  const std::uint64_t start = std::max(now, lsu_free_);
  // The L1's lookups and sectors (l1_cycles), or its 32 data banks' passes (lanes of a load at
  // different words of one bank conflict, as in shared memory: the L1 and shared memory are one array).
  lsu_free_ = start + std::max(l1_cycles(lines, read), std::size_t{passes});
  // A request whose lines lie in more than kScatteredPages DRAM pages scatters (a gather); one over
  // a few (a stream, a 2D tile's rows: a 8x32 block's warp reads 4 rows) opens pages that its
  // neighbours share on the GPU.
  request_scattered_ = false;
  request_many_lines_ = lines.size() > kScatteredPages;
  if ((gpu_.dram_page_miss_bytes > 0 || gpu_.l2_store_access_bytes > 0 || gpu_.scatter_line_cycles > 0) &&
      lines.size() > kScatteredPages) {
    std::uint64_t pages[kScatteredPages + 1];
    unsigned distinct = 0;
    for (const auto& a : lines) {
      const std::uint64_t page = a.line >> page_shift_;
      if (std::find(pages, pages + distinct, page) != pages + distinct) continue;
      if (distinct == kScatteredPages) {
        request_scattered_ = true;
        break;
      }
      pages[distinct++] = page;
    }
  }
  return start;
}

bool MemoryPath::opens_page(std::uint64_t line) {
  const std::uint64_t page = (line >> page_shift_) + 1;
  for (const std::uint64_t p : recent_pages_)
    if (p == page) return false;
  recent_pages_[next_page_] = page;
  next_page_ = (next_page_ + 1) % kRecentPages;
  return true;
}

std::uint64_t MemoryPath::to_l2(std::uint64_t now, const LineAccess& a, std::uint32_t extra_latency, bool write,
                                std::uint32_t* missed, bool atomic) {
  const std::uint64_t set = l2_.set_index(a.line);
  std::uint64_t pending = 0;  // a hit on a line still being fetched waits for the fetch
  std::uint32_t dirty = 0;
  unsigned newer = 0;  // the line's place in its set's LRU order, for a load's far hit (below)
  const bool load = !write && !atomic;
  const bool far_hits = gpu_.l2_near_ways > 0 && load;
  // memory.l2_side_copies: a load looks for its half's copy of the line, then for the other half's
  // (a far hit, no DRAM fetch); it fills its own. A store or atomic works on the home copy.
  const bool copies = gpu_.l2_side_copies != 0;
  const std::uint64_t tag =
      !copies ? a.line : l2_copy_tag(a.line, load ? side_ : l2_home_side(a.line, gpu_.l2_slice_line_shift));
  const std::uint32_t hit = l2_.present_in_set(tag, set, a.sectors, &pending, &dirty, far_hits ? &newer : nullptr);
  std::uint32_t miss = a.sectors & ~hit;
  std::uint32_t other_copy = 0;
  if (copies && load && miss != 0) {
    std::uint64_t other_pending = 0;
    other_copy = l2_.present_in_set(l2_copy_tag(a.line, side_ ^ 1u), set, miss, &other_pending);
    miss &= ~other_copy;
    if (other_copy != 0) pending = std::max(pending, other_pending);
  }
  if (missed != nullptr) *missed = miss;
  const auto sectors = count_sectors(a.sectors);
  const auto missing = count_sectors(miss);
  stats.l2_sector_accesses += sectors;
  stats.l2_sector_hits += sectors - missing;
  // Each access takes at least memory.l2_access_bytes of the SM's share of L2 bandwidth (gather-l2:
  // scattered one-sector reads move fewer bytes a cycle than whole lines).
  // A scattered store's access takes memory.l2_store_access_bytes (scatter-l2: one-word stores to 32
  // scattered lines a request move about half the bytes a cycle such loads do), and so does one over
  // more than kScatteredPages lines in a few pages (stop 30: stride-store-l2, one word of 32 lines
  // 256 bytes apart, all in one 8 KiB span, measures 4.62 cycles an element against scatter-l2's
  // 4.25: a store's cost at the L2 is its lines', not their pages'; set29's Thomas sweep over
  // contiguous systems stores so, a lane stride of 256 bytes, and was -53%). A store over a few
  // lines (a 2D block's rows) is not held to it: set22's stencil2d with 8x32 blocks, whose warps
  // store a sector in each of 4 rows, went from -3% to +20% with it (scatter-sector-l2, 4 random
  // lines a request, says such stores cost about as much as scattered ones: not modelled).
  const double least = write && (request_scattered_ || request_many_lines_) && gpu_.l2_store_access_bytes > 0
                           ? gpu_.l2_store_access_bytes
                           : gpu_.l2_access_bytes;
  // memory.l2_store_byte_cost: what a stored byte takes of the L2's bandwidth (bw-store-16m).
  const double cost = write ? gpu_.l2_store_byte_cost : 1.0;
  double arrive = l2_channel_.serve(now, std::max(double(sectors) * gpu_.sector_bytes * cost, least));
  // memory.write_back_at_eviction: a store or atomic waits until its SM's DRAM share has moved what
  // is queued on it, the evictions' write-backs among them (the L2 takes new dirty lines only as
  // fast as it writes old ones back: bw-store-256m).
  const bool evicted_write_backs = gpu_.writes_back_at_eviction();
  if ((write || atomic) && evicted_write_backs) arrive = std::max(arrive, dram_channel_.busy_until(now));
  std::uint32_t latency = gpu_.l2_latency;
  std::uint32_t filled = a.sectors;
  std::uint64_t fetched_ready = 0;
  std::uint32_t fetched_sectors = 0;
  // memory.dirty_sectors: a store or atomic costs the write-back of the sectors it is the first to
  // write (below), not the sectors it allocates.
  const bool write_backs = (write || atomic) && gpu_.dirty_sectors != 0;
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
    // A read's fetch; without memory.dirty_sectors, a store's allocation.
    const std::uint64_t bytes = write && write_backs ? 0 : std::uint64_t{count_sectors(fetched)} * gpu_.sector_bytes;
    stats.dram_bytes += bytes;
    // A fetch that opens a DRAM page of its own (the request's lines scatter and the SM opened no
    // fetch of that page lately: calibrate's gather-dram) costs the channel more than its bytes.
    const double page = request_scattered_ && opens_page(a.line) ? gpu_.dram_page_miss_bytes : 0.0;
    arrive = std::max(arrive, dram_channel_.serve(now, double(bytes) + page));
    if (!write) {
      latency = dram_latency_;
      fetched_sectors = fetched;
    }
  }
  // The write-back of the sectors this store or atomic is the first to write (missing, or present
  // but clean: an in-place update's read brought them in), once: a sector a store of this epoch
  // already wrote (the other half of an 8-byte pair, a neighbour's misaligned store) is charged
  // again here, as the L2 this SM reads is the epoch's start, and the merge gives the repeats back
  // (find_repeated_fetches).
  // memory.write_back_at_eviction: the write-back is charged when the merge evicts the dirty line
  // (charge_write_backs), and not at all while the line stays in L2. The fill then marks every
  // sector written dirty: a line dirty at the epoch's start may be evicted or cleaned by an earlier
  // fill of the same merge, and this store's data must still be written back.
  const std::uint32_t dirtied = write_backs ? a.sectors & ~dirty : 0;
  if (dirtied != 0 && !evicted_write_backs) {
    const std::uint64_t bytes = std::uint64_t{count_sectors(dirtied)} * gpu_.sector_bytes;
    stats.dram_bytes += bytes;
    arrive = std::max(arrive, dram_channel_.serve(now, double(bytes)));
  }
  // memory.l2_near_ways: a load's hit on a line that is not among its set's l2_near_ways most
  // recently used takes memory.l2_far_cycles more (chase-l2-32m: 521 cycles a load on the H100
  // against chase-l2's 276 over 4 MiB and chase-l2-16m's 276; chase-dram-16m, which misses, 672:
  // the L2 serves a footprint past about half its size from its far partition).
  // memory.l2_side_copies: a hit on the other half's copy alone is far too.
  if (missing == 0 && ((far_hits && newer >= gpu_.l2_near_ways) || other_copy != 0)) latency += gpu_.l2_far_cycles;
  std::uint64_t ready = static_cast<std::uint64_t>(std::ceil(arrive)) + latency;
  if (missing > 0 && !write) fetched_ready = ready;
  // Lines brought in by other SMs in earlier epochs are present here at once; one whose data is
  // still on its way from DRAM answers when it arrives (ncu counts such requests as L2 hits too).
  if (gpu_.pending_fills && !write) ready = std::max(ready, pending);
  const std::uint32_t marked = write_backs && evicted_write_backs ? a.sectors : dirtied;
  l2_fills_[SectorCache::partition_of_set(set)].push_back({tag, set, filled, fetched_ready, fetched_sectors, marked});
  return ready + extra_latency;
}

void MemoryPath::apply_refunds(std::uint64_t now) {
  std::uint64_t bytes = 0, merges = 0, write_backs = 0;
  for (unsigned p = 0; p < SectorCache::kPartitions; ++p) {
    bytes += refunds_[p];
    merges += merges_[p];
    write_backs += write_backs_[p];
    refunds_[p] = merges_[p] = write_backs_[p] = 0;
  }
  if (bytes != 0) {
    stats.dram_bytes -= std::min(bytes, stats.dram_bytes);
    dram_channel_.give_back(double(bytes));
  }
  // After the refunds, which give back time already served: the merge reads and write-backs are new.
  if (merges != 0) {
    stats.dram_bytes += merges * gpu_.sector_bytes;
    dram_channel_.serve(now, double(merges) * gpu_.dram_merge_bytes);
  }
  if (write_backs != 0) {
    const std::uint64_t written = write_backs * gpu_.sector_bytes;
    stats.dram_bytes += written;
    dram_channel_.serve(now, double(written));
  }
}

std::uint64_t MemoryPath::load(std::uint64_t now, const std::vector<LineAccess>& lines, unsigned passes,
                                std::size_t read) {
  ++stats.global_load_requests;
  // memory.l1_request_cycles: a load holds the LSU at least this long (pipe-rows1: four coalesced
  // L1-hit loads a trip, 64 warps an SM, 3.25 cycles each on the GH100); l1_replay_cycles: one whose
  // lanes conflict in the data banks holds it past its passes (stride-l1-s4/-s8/-s16/-s32: 4, 8, 16
  // and 32 passes, 5.3/9.1/17.3/33.6 cycles a request). Both 0 on the H100 (withdrawn at stop 35).
  // A conflict is more passes than the bytes read need: an 8- or 16-byte access takes 2 or 4 without one.
  unsigned held = std::max(passes, gpu_.l1_request_cycles);
  if (gpu_.l1_replay_cycles != 0) {
    const std::size_t row = std::size_t{gpu_.shared_banks} * gpu_.shared_bank_bytes;
    if (passes > std::max<std::size_t>(1, (read + row - 1) / row)) held = std::max(held, passes + gpu_.l1_replay_cycles);
  }
  const std::uint64_t start = start_request(now, lines, held, read);
  // memory.l1_pass_cycles: a load's data-bank passes return one after another (chase-lanes-l1: a warp
  // load of 32 L1-resident lines, each lane at a line's first word, 105.8 cycles on the H100 against
  // chase-l1's 32.7 for one line; 4 warps take 128.5 a load each, the passes' one a cycle).
  std::uint64_t done = start + gpu_.l1_latency;
  if (passes > 1 && gpu_.l1_pass_cycles > 0)
    done += static_cast<std::uint64_t>(std::llround(gpu_.l1_pass_cycles * (passes - 1)));
  // A scattered request's misses leave the SM one after another (chase-lanes-w1: 32 chains in one
  // warp take 1,085 cycles a hop on the H100 where one chain takes 686; 4 warps 1,100: per request).
  const double stagger = request_scattered_ ? gpu_.scatter_line_cycles : 0.0;
  unsigned missed_lines = 0;
  // memory.l2_line_cycles, dram_line_cycles: the L1-missing lines of a load over more than 4 lines
  // come back one after another (stride-chase-l2 and -dram: one warp's 32 lines 256 bytes apart,
  // in a few DRAM pages, 367 cycles a load from L2 on the H100 against chase-l2's 276 for one line,
  // 913-921 from DRAM against chase-dram's 677). A scattered request's misses already leave one
  // after another (scatter_line_cycles, fitted to chase-lanes-w1 without this): not both.
  const bool serial = lines.size() > kFewLines && !request_scattered_ &&
                      (gpu_.l2_line_cycles > 0 || gpu_.dram_line_cycles > 0);
  double last_return = 0;
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
      const auto leaves = start + static_cast<std::uint64_t>(std::llround(stagger * missed_lines++));
      std::uint32_t from_dram = 0;
      std::uint64_t arrival = to_l2(leaves, {a.line, miss}, 0, false, &from_dram);
      if (serial) {  // kept fractional, so that the gaps add up to the parameter, not to its rounding
        double t = double(arrival);
        if (missed_lines > 1) t = std::max(t, last_return + (from_dram != 0 ? gpu_.dram_line_cycles : gpu_.l2_line_cycles));
        last_return = t;
        arrival = static_cast<std::uint64_t>(std::llround(t));
      }
      done = std::max(done, arrival);
      if (ready != nullptr) *ready = std::max(*ready, arrival);
    }
  }
  return done;
}

std::uint64_t MemoryPath::store(std::uint64_t now, const std::vector<LineAccess>& lines, std::uint32_t bytes,
                                std::uint64_t dense_first, std::uint64_t dense_end) {
  ++stats.global_store_requests;
  const std::uint64_t start = start_request(now, lines);
  // memory.store_line_cycles: the LSU sends the lines of a store over more than 4 one after another
  // (store-lines-w1 and -w4: a warp store of one word of 32 lines 256 bytes apart holds its SM's LSU
  // 63-64 cycles on the H100, one warp or four, and so do lines 132 bytes apart, one bank pass:
  // store-lines-s33-w4; store-line-w4's coalesced stores over two lines go at the warps' issue rate).
  store_taken_ = start;
  if (gpu_.store_line_cycles > 0 && lines.size() > kFewLines)
    lsu_free_ = std::max(lsu_free_, start + static_cast<std::uint64_t>(
                                                std::llround(gpu_.store_line_cycles * double(lines.size()))));
  std::uint64_t done = start;
  std::size_t sectors = 0;
  for (const auto& a : lines) sectors += count_sectors(a.sectors);
  stats.global_sectors += sectors;
  // memory.dram_merge_bytes: what the store writes of each sector. A dense store (lanes 0..n-1 at
  // consecutive elements) writes its middle sectors whole and its first and last (lo, hi) by what
  // of them it covers; any other store's bytes are spread evenly over its sectors.
  const bool merges = gpu_.dram_merge_bytes > 0 && sectors > 0;
  const bool dense = merges && dense_end > dense_first;
  std::uint32_t per_sector = gpu_.sector_bytes, lo_bytes = 0, hi_bytes = 0;
  std::uint64_t lo = 0, hi = 0;
  if (dense) {
    const unsigned shift = static_cast<unsigned>(std::countr_zero(gpu_.sector_bytes));
    lo = dense_first >> shift;
    hi = (dense_end - 1) >> shift;
    lo_bytes = static_cast<std::uint32_t>(std::min((lo + 1) << shift, dense_end) - dense_first);
    hi_bytes = static_cast<std::uint32_t>(dense_end - std::max(hi << shift, dense_first));
    per_sector = std::min(lo_bytes, hi_bytes);
  } else if (merges) {
    per_sector = static_cast<std::uint32_t>(std::min<std::size_t>(gpu_.sector_bytes, bytes / sectors));
  }
  if (per_sector < gpu_.sector_bytes) partial_seen_ = log_stores_ = true;
  for (const auto& a : lines) {
    l1_.update(a.line, a.sectors);
    std::uint32_t missed = 0;
    done = std::max(done, to_l2(start, a, 0, true, &missed));
    // The merge adds them to their partition's PartialSectors (a sector the L2 held already is not
    // read back; one written whole only completes others' bytes).
    if (!log_stores_) continue;
    auto& log = stored_[SectorCache::partition_of_set(l2_.set_index(a.line))];
    if (!dense) {
      log.push_back({a.line, a.sectors, missed, per_sector});
      continue;
    }
    const std::uint32_t per_line = gpu_.line_bytes / gpu_.sector_bytes;
    std::uint32_t whole = a.sectors;
    for (const auto& [sector, part] : {std::pair{lo, lo_bytes}, std::pair{hi, hi_bytes}}) {
      if (sector / per_line != a.line || part >= gpu_.sector_bytes) continue;
      const std::uint32_t bit = 1u << (sector % per_line);
      if (!(whole & bit)) continue;  // lo == hi: one sector, entered once
      whole &= ~bit;
      log.push_back({a.line, bit, missed & bit, part});
    }
    if (whole != 0) log.push_back({a.line, whole, missed & whole, gpu_.sector_bytes});
  }
  return done;
}

unsigned PartialSectors::add(std::uint64_t line, std::uint32_t sectors, std::uint32_t missed, std::uint32_t bytes,
                             std::uint32_t sector_bytes) {
  if (table_.empty()) table_.resize(kSlots);
  unsigned pushed = 0;
  for (std::uint32_t m = sectors; m != 0; m &= m - 1) {
    const unsigned s = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t key = (line << 5 | s) + 1;
    Entry& e = table_[(key * 0x9e3779b97f4a7c15ull) >> (64 - std::countr_zero(kSlots))];
    if (e.key == key) {  // more of a sector already partly written
      e.bytes += bytes;
      if (e.bytes >= sector_bytes) e = {};
      continue;
    }
    if (bytes >= sector_bytes || !(missed & (1u << s))) continue;  // whole, or a sector L2 held
    if (e.key != 0) ++pushed;  // the sector pushed out was left partly written: its merge read
    e = {key, bytes};
  }
  return pushed;
}

std::uint64_t MemoryPath::atomic(std::uint64_t now, const std::vector<LineAccess>& lines, unsigned same_address,
                                 AtomicKind kind, const std::vector<unsigned>& serial_lanes) {
  ++stats.global_atomic_requests;
  const std::uint64_t start = start_request(now, lines);
  const std::uint32_t serial = gpu_.atomic_latency + (same_address > 1 ? (same_address - 1) * gpu_.atomic_same_address_cycles : 0);
  std::uint64_t done = start;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const LineAccess& a = lines[i];
    stats.global_sectors += count_sectors(a.sectors);
    std::uint64_t queued = 0;
    if (!slice_free_.empty()) {
      // The L2 takes the chip's integer atomic line requests at memory.atomic_lines_per_cycle, each
      // SM a share (atom-lines-u32-c256/-c1024 and atom-lines-cas/-max-c1024: 1.2 cycles a warp
      // request of 32 lines; float ones are bound by their slice turn: atom-spread, 33.2 a cycle).
      double ready = double(start);
      if (atomic_line_cycles_ > 0 && kind != AtomicKind::Float) {
        ready = std::max(atomic_port_free_, ready);
        atomic_port_free_ = ready + atomic_line_cycles_;
      }
      // The slice works through its atomics one request after another, shared by every SM at
      // work (atom-hot, atom-spread): this SM's share of it is free at slice_free_. Each aligned group
      // of 2^l2_slice_line_shift lines shares one (atom-lines-u32-c32: 32 lines on about 8 slices).
      const auto group = a.line >> gpu_.l2_slice_line_shift;
      const auto line = group ^ (group >> 9) ^ (group >> 17);
      double& free = slice_free_[line % slice_free_.size()];
      const double begin = std::max(free, ready);
      const double lanes = std::max(same_address, 1u);
      const double integer_lanes = i < serial_lanes.size() ? double(serial_lanes[i]) : lanes;
      // Without the line rate, an integer line's turn is at least the float one (which then stood in
      // for it: atom-lines-u32-c1024); with it, the integer adder's turn per serial lane.
      const double integer_floor = atomic_line_cycles_ > 0 ? 0.0 : slice_cycles_;
      free = begin + (kind == AtomicKind::SingleInteger ? int_slice_cycles_
                      : kind == AtomicKind::Integer     ? std::max(integer_floor, int_slice_cycles_ * integer_lanes)
                                                        : slice_cycles_ * lanes);
      queued = static_cast<std::uint64_t>(std::ceil(begin)) - start;
    }
    done = std::max(done, to_l2(start, a, serial, false, nullptr, true) + queued);
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
