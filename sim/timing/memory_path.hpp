// The memory path below the coalescer: each SM's L1 (a sector cache, loads allocate, stores write
// through) and its share of the shared L2 and DRAM bandwidth; the L2's tags are shared by every SM.
// During an epoch an SM reads the L2 as it was at the epoch's start and logs what it brought in;
// at the epoch's end the logs are merged in SM order, so the result does not depend on how many
// host threads stepped the SMs. Atomics are performed at the L2.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "device/stats.hpp"
#include "sim/timing/coalescer.hpp"
#include "sim/timing/preset.hpp"
#include "sim/timing/sector_cache.hpp"

namespace warpsim::sim {

// A bandwidth-limited channel: bytes are served one request after another.
class Channel {
 public:
  // `burst`: the bytes the channel may move at once after idling (a token bucket's depth): its
  // time runs at most burst / rate behind the request's.
  void set_rate(double bytes_per_cycle, double burst = 0) {
    cycles_per_byte_ = 1.0 / bytes_per_cycle;
    credit_cycles_ = burst * cycles_per_byte_;
  }
  // When a request of `bytes` arriving at `now` has been transferred.
  double serve(std::uint64_t now, double bytes) {
    const double earliest = double(now) - credit_cycles_;
    const double start = free_at_ > earliest ? free_at_ : earliest;
    free_at_ = start + bytes * cycles_per_byte_;
    return free_at_ > double(now) ? free_at_ : double(now);
  }
  // Gives back `bytes` served that another SM's request had already asked for (MemoryPath::refund).
  void give_back(double bytes) { free_at_ -= bytes * cycles_per_byte_; }
  // When what is queued has been moved, for a request arriving at `now` (nothing is served).
  double busy_until(std::uint64_t now) const { return free_at_ > double(now) ? free_at_ : double(now); }

 private:
  double cycles_per_byte_ = 0;
  double credit_cycles_ = 0;
  double free_at_ = 0;
};

// A line an SM brought into L2, with its L2 set (looked up once, when the SM missed).
struct L2Fill {
  std::uint64_t line = 0;
  std::uint64_t set = 0;
  std::uint32_t sectors = 0;
  std::uint64_t ready = 0;  // when the data fetched from DRAM arrives (0: a hit, nothing fetched)
  std::uint32_t fetched = 0;  // the sectors a read fetched from DRAM (0: none, or a write)
  std::uint32_t dirtied = 0;  // the sectors a store wrote first (memory.dirty_sectors: their write-back was
                              // charged), or with memory.write_back_at_eviction every sector it wrote (dirty at the merge)
};

// A store's sectors of one line that its lanes wrote the same number of bytes of (memory.dram_merge_bytes),
// with those the L2 did not hold, for the merge's PartialSectors.
struct StoredSectors {
  std::uint64_t line = 0;
  std::uint32_t sectors = 0, missed = 0, bytes = 0;
};

// Partly written sectors (memory.dram_merge_bytes), chip-wide: a sector that a store allocated in L2
// with part of its bytes is kept, with the bytes written so far, in a direct-mapped table of one L2
// partition (SectorCache::partition_of_set), filled by the epoch's merge in SM order; later stores
// of any SM add theirs, and a sector whose bytes are all written leaves it (a transpose's column
// stores: a block's 8 warps write a sector's 8 words; LBM's misaligned pushes: the neighbouring
// block, on another SM, writes the rest). One pushed out unfilled costs the SM whose store pushed
// it a merge (scatter-dram: the H100's L2 reads such a sector back from DRAM before writing it,
// Nsight Compute's DRAM reads equal its writes). Until stop 29 each SM kept its own table, and the
// sectors two SMs' stores share were all charged: set28's LBM push, +78% (Nsight Compute: 155 MB
// read from DRAM where pull reads 151).
class PartialSectors {
 public:
  // Adds a store's `bytes` to each sector of `sectors` of `line` already in the table, and enters
  // those of `missed` it writes only part of; returns how many partly written sectors it pushed out.
  unsigned add(std::uint64_t line, std::uint32_t sectors, std::uint32_t missed, std::uint32_t bytes,
               std::uint32_t sector_bytes);

 private:
  struct Entry {
    std::uint64_t key = 0;  // (line x 32 + sector) + 1; 0: empty
    std::uint32_t bytes = 0;
  };
  static constexpr std::size_t kSlots = 32768;  // a power of two: the slot is the hash's top bits
  static_assert((kSlots & (kSlots - 1)) == 0);
  std::vector<Entry> table_;  // allocated at the first logged store
};

// memory.l2_side_copies: the GH100's L2 is two partitions, each near half of the SMs (h100/stop39:
// probe39's map, SMs in runs of two to eight, TPC by TPC). The model alternates TPCs: SM pairs
// (0, 1), (4, 5), ... are half 0. A line's copy for half `side` is kept in the line's set as
// line x 2 + side; stores and atomics use the line's home copy (a hash of its slice group).
inline unsigned l2_side_of_sm(std::uint32_t sm) { return (sm >> 1) & 1u; }
inline unsigned l2_home_side(std::uint64_t line, unsigned slice_line_shift) {
  return static_cast<unsigned>(std::popcount(line >> slice_line_shift) & 1);
}
inline std::uint64_t l2_copy_tag(std::uint64_t line, unsigned side) { return line << 1 | side; }

class MemoryPath {
 public:
  // `sm`: the SM's index (its half of the L2, memory.l2_side_copies).
  MemoryPath(const GpuPreset& gpu, const SectorCache& l2, std::uint64_t l1_bytes, std::uint32_t sm = 0);

  // Each SM's share of the chip's L2 and DRAM bandwidth (set at every epoch from the SMs at work).
  // `loaded_latency`: the extra DRAM latency for the chip's recent utilisation (timing_launch.cpp).
  // `dram_spare`, `l2_spare`: the fraction of the chip's DRAM and L2 bandwidth that went unused in
  // recent epochs; an SM's share may burst memory.share_burst_bytes times that (Channel::set_rate).
  void set_share(unsigned active_sms, std::uint32_t loaded_latency = 0, double dram_spare = 1, double l2_spare = 1);

  // Cycles the L1 takes for a request's lookups (memory.l1_lines_per_cycle a cycle: gather-l1, 32
  // scattered lines a request) and its data (memory.l1_bytes_per_cycle: a coalesced vector load):
  // its sectors, or with memory.l1_read_bytes and `read` non-zero the bytes its lanes read, at most
  // its sectors' (gather-l1-b8: 32 words of 8 lines go at the lookups' rate, not a cycle a 4 sectors).
  std::size_t l1_cycles(const std::vector<LineAccess>& lines, std::size_t read = 0) const;

  // Cycle at which the request's result is ready (loads, atomics) or its write is done (stores).
  // `passes`: the L1 data banks' passes of a load over several lines (lanes at different words of
  // one of the 32 banks: gemv_row_thread's rows 2 KiB apart take 32), a floor on its LSU time.
  std::uint64_t load(std::uint64_t now, const std::vector<LineAccess>& lines, unsigned passes = 1, std::size_t read = 0);
  // `bytes`: what the executing lanes write (lanes x access size), spread evenly over the request's
  // sectors: fewer than a sector's bytes each leave the sectors partly written (a scatter, a column).
  // `dense_end` > `dense_first`: the lanes write every byte of [dense_first, dense_end) (coalesce's
  // `dense`), so only the sectors at its ends can be partly written, by what of them it covers.
  std::uint64_t store(std::uint64_t now, const std::vector<LineAccess>& lines, std::uint32_t bytes,
                      std::uint64_t dense_first = 0, std::uint64_t dense_end = 0);
  // The cycle the LSU took the last store (memory.store_line_cycles: its warp waits for it).
  std::uint64_t store_taken() const { return store_taken_; }
  // `same_address`: the most lanes on one word. An integer request's lines first pass this SM's
  // share of the chip's integer atomic line rate, one after another (memory.atomic_lines_per_cycle,
  // when set). Each line's L2 slice (a hash of its aligned group of 2^memory.l2_slice_line_shift
  // lines) is then held for a turn x the SMs at work (they share it); a request waits for its
  // slice. The turn, by kind:
  //  - Float: memory.atomic_slice_cycles x same_address (atom-hot 3.49 a lane, atom-line-m4 13.9 for
  //    four lanes a word);
  //  - SingleInteger, one integer operation (one lane, or a warp's lanes aggregated):
  //    memory.atomic_int_slice_cycles when that is set (atom-hot-u32, 1.46), else the float turn;
  //  - Integer, several integer lanes: the integer turn x `serial[i]` for lines[i] (the sum over
  //    its sectors of the most lanes on one word of the sector: serial_lanes_per_line), without the
  //    line rate at least the float turn (stop 26: atom-lanes-u32-m32, 32 lanes on one word, 46.4
  //    cycles a request = 32 x 1.45; -m4 and -d32, 4.7 and 5.0 against 5.8 modelled; set26's atomic_agg, 8 keys of one
  //    sector, about 1.45 x its busiest key; set22's histo_global over 32 bins, about 1.45 x the sum of
  //    its four sectors' busiest bins).
  enum class AtomicKind : std::uint8_t { Float, SingleInteger, Integer };
  std::uint64_t atomic(std::uint64_t now, const std::vector<LineAccess>& lines, unsigned same_address,
                       AtomicKind kind, const std::vector<unsigned>& serial);
  // Shared memory: `passes` bank passes; the first takes one cycle of the SM's shared-memory pipe,
  // each further one `memory.shared_replay_interval`; the result waits `memory.shared_replay_cycles`
  // per further pass.
  std::uint64_t shared(std::uint64_t now, unsigned passes, std::uint32_t latency);
  // A shared access with every lane predicated off: one pass of the pipe, no result, no request.
  // Returns the cycle the pipe takes it.
  std::uint64_t shared_pass(std::uint64_t now) {
    const std::uint64_t start = std::max(now, shared_free_);
    shared_free_ = start + 1;
    return start;
  }


  // The lines this SM brought into L2 since the last merge, by L2 partition
  // (SectorCache::partition_of_set), so each host thread of the merge reads only its partitions.
  std::vector<L2Fill>* l2_fills() { return l2_fills_; }
  // The same for the sectors its stores wrote, once a store of any SM wrote part of a sector: each
  // SM's partial_seen is gathered after the merge, and log_stores turns the logs on for every SM from
  // the next epoch (so whole stores complete the partial sectors of other SMs), the same for any
  // number of host threads. A partial store logs itself from the first.
  std::vector<StoredSectors>* stored_sectors() { return stored_; }
  bool partial_seen() const { return partial_seen_; }
  void log_stores() { log_stores_ = true; }
  void clear_l2_fills() {
    for (auto& f : l2_fills_) f.clear();
    for (auto& f : stored_) f.clear();
  }
  // The merge found that an SM with a lower (ready, SM) fetched `sectors` of a line this SM also
  // fetched from DRAM in the same epoch: on the GPU the second request waits on the first's miss in
  // the L2, and DRAM moves the line once (or, memory.dirty_sectors, that another store of the epoch
  // wrote them first: they are written back once). Called by the merge's thread of partition `part` only;
  // apply_refunds (the SM's next epoch) takes the bytes off this SM's DRAM figures and its channel.
  void refund(unsigned part, std::uint32_t sectors) { refunds_[part] += std::uint64_t{count_lanes(sectors)} * gpu_.sector_bytes; }
  // The merge found that a store of this SM pushed `sectors` partly written sectors out of
  // partition `part`'s PartialSectors: each costs a merge read (memory.dram_merge_bytes), charged
  // by apply_refunds.
  void charge_merges(unsigned part, unsigned sectors) { merges_[part] += sectors; }
  // memory.write_back_at_eviction: a fill of this SM's wrote back `sectors` dirty sectors of
  // partition `part` (a line it evicted or, memory.l2_dirty_ways, cleaned): charged by apply_refunds.
  void charge_write_backs(unsigned part, unsigned sectors) { write_backs_[part] += sectors; }
  // Takes the refunds off this SM's DRAM figures and channel, and puts the merge reads and the
  // evictions' write-backs on, at `now`.
  void apply_refunds(std::uint64_t now);
  MemoryStats stats;

 private:
  std::uint64_t start_request(std::uint64_t now, const std::vector<LineAccess>& lines, unsigned passes = 1,
                              std::size_t read = 0);
  // Sends missing sectors to L2 (and DRAM); returns when they arrive.
  // `missed` (if given) receives the sectors L2 did not hold; `atomic`: a read that also writes its
  // sectors (memory.dirty_sectors).
  std::uint64_t to_l2(std::uint64_t now, const LineAccess& access, std::uint32_t extra_latency, bool write,
                      std::uint32_t* missed = nullptr, bool atomic = false);

  const GpuPreset& gpu_;
  const SectorCache& l2_;
  unsigned side_ = 0;  // the SM's half of the L2 (memory.l2_side_copies)
  SectorCache l1_;
  // For a fetch of a scattered request (its lines lie in more than kScatteredPages pages): whether
  // it opens a DRAM page none of this SM's last kRecentPages scattered fetches opened
  // (memory.dram_page_miss_bytes); its page becomes the newest.
  bool opens_page(std::uint64_t line);
  static constexpr unsigned kScatteredPages = 8, kRecentPages = 64;
  // A request over more than this many lines sends them one after another (memory.store_line_cycles,
  // l2_line_cycles, dram_line_cycles); a 2D tile's rows (2-4 lines) and a coalesced access do not.
  static constexpr unsigned kFewLines = 4;

  Channel l2_channel_, dram_channel_;
  bool request_scattered_ = false;                 // the current request's lines span many pages
  bool request_many_lines_ = false;                // the current request touches more than kScatteredPages lines
  std::uint64_t recent_pages_[kRecentPages] = {};  // page + 1 (0: none), a ring
  unsigned next_page_ = 0;
  unsigned page_shift_ = 0;                        // log2(dram_page_bytes / line_bytes)
  std::uint32_t dram_latency_ = 0;     // memory.dram_latency plus the loaded latency of this epoch
  double slice_cycles_ = 0;            // memory.atomic_slice_cycles x the SMs at work
  double int_slice_cycles_ = 0;        // memory.atomic_int_slice_cycles (or the above) x the SMs at work: one integer operation
  std::vector<double> slice_free_;     // when each L2 slice is free for this SM's next atomic
  double atomic_line_cycles_ = 0;      // the SMs at work / memory.atomic_lines_per_cycle (0: off)
  double atomic_port_free_ = 0;        // when this SM's share of the L2's atomic line rate is free
  std::uint64_t lsu_free_ = 0, shared_free_ = 0, store_taken_ = 0;
  std::vector<L2Fill> l2_fills_[SectorCache::kPartitions];
  std::uint64_t refunds_[SectorCache::kPartitions] = {};  // DRAM bytes by partition (refund)
  std::uint64_t merges_[SectorCache::kPartitions] = {};   // merge reads by partition (charge_merges)
  std::uint64_t write_backs_[SectorCache::kPartitions] = {};  // evicted dirty sectors by partition (charge_write_backs)
  std::vector<StoredSectors> stored_[SectorCache::kPartitions];
  bool partial_seen_ = false;  // a store of this SM wrote part of a sector
  bool log_stores_ = false;    // stores are logged for the merge (log_stores)
};

}  // namespace warpsim::sim
