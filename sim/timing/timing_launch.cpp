#include "sim/timing/timing_launch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <thread>
#include <tuple>
#include <vector>

#include "device/errors.hpp"
#include "sim/timing/occupancy.hpp"
#include "sim/timing/sm.hpp"

namespace warpsim::sim {

namespace {

bool uses_barriers(const Program& p) {
  for (const auto& in : p.code)
    if (in.flow == Flow::Barrier) return true;
  return false;
}

// A barrier that spins (then yields) instead of sleeping: epochs are short, and waking a sleeping
// thread costs more than the epoch's work on a small grid.
class SpinBarrier {
 public:
  explicit SpinBarrier(unsigned parties) : parties_(parties) {}
  void arrive_and_wait() {
    const unsigned generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == parties_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    for (unsigned spins = 0; generation_.load(std::memory_order_acquire) == generation; ++spins) {
      if (spins > 256) std::this_thread::yield();
#if defined(__x86_64__) || defined(__i386__)
      else __builtin_ia32_pause();  // lets the other thread of a shared core run while this one waits
#endif
    }
  }

 private:
  const unsigned parties_;
  std::atomic<unsigned> arrived_{0};
  std::atomic<unsigned> generation_{0};
};

// Steps every SM through one epoch, on `threads` host threads that live as long as the launch;
// the lowest SM's fault wins. Thread t owns SMs t, t + threads, ...: the SMs the dispatcher is
// filling at any moment (it starts blocks in SM order, one per block_dispatch_cycles, so the busy
// SMs of an epoch are a contiguous run) are shared among the threads, and an SM's state mostly
// stays in one core's cache. Contiguous halves left one thread idle through much of many epochs
// (grey 1920x1080: 0.09 s of 0.33 s waiting, docs/performance.md). A thread done with its own SMs
// takes the others' unstepped ones, so a core that runs slower holds the epoch up less.
class EpochRunner {
 public:
  EpochRunner(std::vector<std::unique_ptr<Sm>>& sms, SectorCache& l2, unsigned threads, const GpuPreset& gpu)
      : sms_(sms),
        l2_(l2),
        threads_(std::max(1u, threads)),
        errors_(sms.size()),
        progress_(sms.size(), 0),
        next_(threads_),
        start_(threads_),
        stepped_(threads_),
        merge_misses_(gpu.merge_epoch_misses != 0),
        dirty_sectors_(gpu.dirty_sectors != 0),
        sector_bytes_(gpu.sector_bytes),
        copy_shift_(gpu.l2_side_copies != 0 ? 1u : 0u),
        write_back_at_eviction_(gpu.writes_back_at_eviction()),
        dirty_ways_(write_back_at_eviction_ ? gpu.l2_dirty_ways : 0),
        misses_(threads_) {
    for (unsigned t = 1; t < threads_; ++t)
      pool_.emplace_back([this, t] {
        for (;;) {
          start_.arrive_and_wait();
          if (quit_) return;
          step(t);
          stepped_.arrive_and_wait();
          merge(t);  // the next start_ waits for it
        }
      });
  }
  ~EpochRunner() {
    quit_ = true;
    if (threads_ > 1) start_.arrive_and_wait();
    for (auto& t : pool_) t.join();
  }
  EpochRunner(const EpochRunner&) = delete;
  EpochRunner& operator=(const EpochRunner&) = delete;

  bool run(std::uint64_t end) {
    end_ = end;
    std::fill(errors_.begin(), errors_.end(), nullptr);
    std::fill(progress_.begin(), progress_.end(), 0);
    for (auto& n : next_) n.value.store(0, std::memory_order_relaxed);  // published by start_
    if (threads_ > 1) start_.arrive_and_wait();
    step(0);
    if (threads_ > 1) stepped_.arrive_and_wait();
    // The other threads may still be merging: the caller's work between epochs (dispatch, bandwidth
    // shares) does not touch the L2 or the fills, and the next epoch's start_ waits for them. Each
    // SM clears its fills when it starts its next epoch.
    merge(0);
    for (const auto& e : errors_)
      if (e) std::rethrow_exception(e);
    return std::any_of(progress_.begin(), progress_.end(), [](char p) { return p != 0; });
  }

 private:
  // A thread steps its own SMs, then helps the others with theirs: each list is taken in SM order
  // through its counter, so every SM is stepped once and a list's unstepped SMs (after a fault) lie
  // above the fault that stopped it, so the lowest fault is always found. Which thread steps an SM
  // changes nothing in the report. After a fault, which other SMs of that epoch were stepped
  // depends on timing; the launch then ends with the fault and reports nothing of that epoch.
  void step(unsigned thread) {
    if (threads_ == 1) {  // no one to share with: no counters
      for (std::size_t i = 0; i < sms_.size(); ++i)
        if (!step_sm(i)) return;
      return;
    }
    for (unsigned k = 0; k < threads_; ++k) {
      const unsigned list = (thread + k) % threads_;
      for (;;) {
        const std::size_t i = list + threads_ * next_[list].value.fetch_add(1, std::memory_order_relaxed);
        if (i >= sms_.size()) break;
        if (!step_sm(i)) return;
      }
    }
  }
  bool step_sm(std::size_t i) {
    try {
      progress_[i] = sms_[i]->run_until(end_);
      return true;
    } catch (...) {
      errors_[i] = std::current_exception();
      return false;
    }
  }

  // The lines every SM brought into L2 this epoch, in SM order; each thread fills the partitions of
  // sets that are its own (partition % threads), so each partition sees its lines in the same order
  // for any number of threads. The SMs sorted their fills by partition as they made them.
  //
  // With sim.merge_epoch_misses, a line that several SMs fetched from DRAM within the epoch (none
  // could see the others' miss) is fetched once: the fetch with the earliest arrival (then the lowest
  // SM) stands, and each other SM gets back the bytes of the sectors fetched before it
  // (MemoryPath::refund). On the GPU the later requests find the miss pending in the L2 (set22's
  // stencil2d with 8x32 blocks: Nsight Compute reads 33.6 MB where every SM's own fetch made 126.8).
  // With memory.dirty_sectors, a sector several stores of the epoch wrote first is written back
  // once: the others get their charge back the same way. With memory.write_back_at_eviction nothing
  // was charged at the store: a fill that evicts a dirty line (or, memory.l2_dirty_ways, cleans one)
  // charges its SM the write-back instead (MemoryPath::charge_write_backs), once per line however
  // many stores dirtied it. Then each partition's PartialSectors takes the SMs' logged stores in SM
  // order, and an SM whose store pushed a partly written sector out pays its merge read
  // (MemoryPath::charge_merges), whether or not the L2 still holds the line.
  void merge(unsigned thread) {
    for (unsigned part = thread; part < SectorCache::kPartitions; part += threads_) {
      if (merge_misses_ || dirty_sectors_) find_repeated_fetches(part, misses_[thread]);
      for (auto& sm : sms_) {
        for (const auto& f : sm->memory().l2_fills()[part]) {
          const unsigned written =
              l2_.fill_set_partition(f.line, f.sectors, f.set, part, f.ready, f.dirtied, dirty_ways_);
          if (written != 0 && write_back_at_eviction_) sm->memory().charge_write_backs(part, written);
        }
        unsigned pushed = 0;
        for (const auto& st : sm->memory().stored_sectors()[part])
          pushed += partial_[part].add(st.line, st.sectors, st.missed, st.bytes, sector_bytes_);
        if (pushed != 0) sm->memory().charge_merges(part, pushed);
      }
    }
  }
  struct Miss {
    std::uint64_t line, ready;
    std::uint32_t sm, fill;
  };
  void find_repeated_fetches(unsigned part, std::vector<Miss>& misses) {
    misses.clear();
    for (std::uint32_t i = 0; i < sms_.size(); ++i) {
      const auto& fills = sms_[i]->memory().l2_fills()[part];
      for (std::uint32_t k = 0; k < fills.size(); ++k)
        if ((merge_misses_ && fills[k].fetched != 0) || (fills[k].dirtied != 0 && !write_back_at_eviction_))
          misses.push_back({fills[k].line >> copy_shift_, fills[k].ready, i, k});
    }
    if (misses.size() < 2) return;
    std::sort(misses.begin(), misses.end(), [](const Miss& a, const Miss& b) {
      return std::tie(a.line, a.ready, a.sm, a.fill) < std::tie(b.line, b.ready, b.sm, b.fill);
    });
    std::uint32_t covered = 0, written = 0;  // the sectors of the line fetched so far, and written
    std::uint64_t first_tag = 0;              // the L2 tag of the line's first fill
    for (std::size_t k = 0; k < misses.size(); ++k) {
      const Miss& m = misses[k];
      L2Fill& f = sms_[m.sm]->memory().l2_fills()[part][m.fill];
      if (k == 0 || misses[k - 1].line != m.line) {
        first_tag = f.line;
        covered = f.fetched;
        written = f.dirtied;
        continue;
      }
      const std::uint32_t again = merge_misses_ ? f.fetched & covered : 0;
      if (again != 0) sms_[m.sm]->memory().refund(part, again);
      // The line arrives with the first fetch (memory.l2_side_copies: only in the same copy).
      if (merge_misses_ && again == f.fetched && f.line == first_tag) f.ready = 0;
      covered |= f.fetched;
      // memory.dirty_sectors: a sector written by several stores of the epoch is written back once.
      const std::uint32_t rewritten = write_back_at_eviction_ ? 0 : f.dirtied & written;
      if (rewritten != 0) sms_[m.sm]->memory().refund(part, rewritten);
      written |= f.dirtied;
    }
  }

  std::vector<std::unique_ptr<Sm>>& sms_;
  SectorCache& l2_;
  unsigned threads_;
  std::vector<std::exception_ptr> errors_;
  std::vector<char> progress_;
  struct alignas(64) Counter {
    std::atomic<std::size_t> value{0};
  };
  std::vector<Counter> next_;  // per thread's list: how many of its SMs have been taken this epoch
  SpinBarrier start_, stepped_;
  std::vector<std::thread> pool_;
  std::uint64_t end_ = 0;
  std::atomic<bool> quit_{false};
  bool merge_misses_ = false;
  bool dirty_sectors_ = false;
  std::uint32_t sector_bytes_ = 32;
  unsigned copy_shift_ = 0;  // memory.l2_side_copies: a fill's tag is its line x 2 + its copy
  bool write_back_at_eviction_ = false;  // memory.write_back_at_eviction: evictions charge their dirty sectors
  unsigned dirty_ways_ = 0;              // memory.l2_dirty_ways (with write_back_at_eviction)
  PartialSectors partial_[SectorCache::kPartitions];  // each filled by its partition's merge thread
  std::vector<std::vector<Miss>> misses_;  // per thread, reused from epoch to epoch
};

}  // namespace

LaunchResult run_timing(const LaunchSpec& spec, const Program& program, const Config& config, GlobalMemory& memory,
                        SectorCache& l2) {
  const GpuPreset& gpu = config.gpu;
  const std::uint32_t ws = program.warp_size;
  const std::uint64_t blocks = spec.grid.count();
  const std::uint64_t warps_per_block = (spec.block.count() + ws - 1) / ws;

  OccupancyInput oi;
  oi.threads_per_block = spec.block.count();
  oi.warp_size = ws;
  oi.registers_per_thread = config.registers != 0 ? config.registers : spec.analysis->registers_per_thread;
  oi.shared_bytes_per_block = spec.kernel->shared_bytes();
  oi.uses_barriers = uses_barriers(program);
  Occupancy occupancy;
  try {
    occupancy = compute_occupancy(gpu, oi);
  } catch (const Error& e) {
    throw Error(fmt::format("launch of '{}' on the {}: {}", spec.kernel->name, gpu.name, e.what()), e.code());
  }
  const std::uint32_t carveout = shared_carveout_bytes(gpu, occupancy.blocks_per_sm, oi.shared_bytes_per_block);
  const std::uint64_t unified = std::uint64_t{gpu.unified_l1_shared_kib} * 1024;

  const CompilerShape shape = compiler_shape(program, *spec.kernel, gpu);
  SmContext context{spec, program, config, gpu, memory, l2, shape, warps_per_block, occupancy.blocks_per_sm,
                    unified > carveout ? unified - carveout : 0};
  std::vector<std::unique_ptr<Sm>> sms;
  for (std::uint32_t i = 0; i < gpu.sms; ++i) sms.push_back(std::make_unique<Sm>(context, i));

  // Blocks cannot see each other's memory mid-launch unless they use global atomics or fences:
  // only then could SMs stepped on several host threads observe each other in another order.
  const unsigned threads = program.global_atomics ? 1u : std::min<unsigned>(config.threads, gpu.sms);
  std::optional<EpochRunner> runner;
  runner.emplace(sms, l2, threads, gpu);
  bool logging_stores = false;

  std::uint64_t next_block = 0, now = 0, last_progress = 0;
  // DRAM utilisation, chip-wide: the bytes all SMs moved in the last epoch over what the chip could
  // move, averaged over recent epochs (weight 1/4 for the newest): u. A read waits
  // memory.dram_loaded_latency x u / (1 - u), u at most 0.9, on top of the idle latency (a queue's
  // shape: calibrate's dram-loaded-w2..w64 measure the round trip growing with load that way).
  std::uint64_t dram_bytes_before = 0;
  double dram_load = 0;
  // The same for the L2's bandwidth (its sectors accessed): with DRAM's, what an SM's share may
  // burst (memory.share_burst_bytes x the spare fraction: SMs burst into bandwidth the others leave).
  std::uint64_t l2_sectors_before = 0;
  double l2_load = 0;
  std::uint64_t decays = 0;    // idle epochs stepped with the last whose load updates are due
  std::uint64_t t_epochs = 0;  // epochs stepped (TimingStats::epochs)
  // The chip's block dispatcher starts one block per gpu.block_dispatch_cycles: the cycle it is free.
  double dispatcher_free = 0;
  auto dispatch = [&](std::uint64_t at) {
    // Breadth first: one block per SM per pass, in SM order, while any SM has room.
    bool placed = true;
    while (placed && next_block < blocks) {
      placed = false;
      for (auto& sm : sms) {
        if (next_block >= blocks) break;
        if (!sm->has_room()) continue;
        const double begin = std::max(static_cast<double>(at), dispatcher_free);
        dispatcher_free = begin + gpu.block_dispatch_cycles;
        sm->add_block(next_block++, static_cast<std::uint64_t>(std::llround(begin)) + gpu.block_launch_cycles);
        placed = true;
      }
    }
    if (spec.progress != nullptr) spec.progress->store(next_block, std::memory_order_relaxed);
  };
  dispatch(0);
  auto busy = [&] { return std::any_of(sms.begin(), sms.end(), [](const auto& sm) { return sm->busy(); }); };
  while (next_block < blocks || busy()) {
    unsigned active = 0;
    std::uint64_t dram_bytes = 0, l2_sectors = 0;
    for (auto& sm : sms) {
      active += sm->busy();
      dram_bytes += sm->memory().stats.dram_bytes;
      l2_sectors += sm->memory().stats.l2_sector_accesses;
    }
    if (now > 0) {
      // Signed: an epoch's refunds (MemoryPath::refund) may outweigh its new bytes.
      const double moved = double(static_cast<std::int64_t>(dram_bytes - dram_bytes_before));
      const double used = std::max(0.0, moved) / (gpu.dram_bytes_per_cycle * double(gpu.epoch_cycles));
      dram_load = 0.75 * dram_load + 0.25 * std::min(1.0, used);
      const double l2_used =
          double(l2_sectors - l2_sectors_before) * gpu.sector_bytes / (gpu.l2_bytes_per_cycle * double(gpu.epoch_cycles));
      l2_load = 0.75 * l2_load + 0.25 * std::min(1.0, l2_used);
      // The idle epochs after the first of a span stepped as one (below): what they moved was
      // nothing, and the first one's bytes (its refunds and merge reads) are counted just above.
      for (; decays > 0; --decays) {
        dram_load = 0.75 * dram_load;
        l2_load = 0.75 * l2_load;
      }
    }
    dram_bytes_before = dram_bytes;
    l2_sectors_before = l2_sectors;
    const double u = std::min(dram_load, 0.9);
    const auto loaded = static_cast<std::uint32_t>(std::lround(gpu.dram_loaded_latency * u / (1 - u)));
    for (auto& sm : sms) sm->memory().set_share(active, loaded, 1 - dram_load, 1 - l2_load);
    // Epochs in which no SM can do anything (every warp waits on memory, a block start or a barrier
    // that none of them can release, and no block can be dispatched) are stepped as one: each SM
    // only counts their cycles, and the chip-wide figures decay as they would over empty epochs.
    // The watchdog still fires after the same epoch. Reports are byte-identical either way.
    // (Every epoch ends with a dispatch, so an SM with room means no block is left to place.)
    std::uint64_t epochs = 1;
    const std::uint64_t epoch = gpu.epoch_cycles;
    if (gpu.skip_idle_epochs != 0) {
      std::uint64_t event = std::numeric_limits<std::uint64_t>::max();
      for (auto& sm : sms)  // stops at the first SM with something to do within two epochs
        if ((event = std::min(event, sm->next_event())) < now + 2 * epoch) break;
      if (event >= now + 2 * epoch) {
        // The watchdog checks after each epoch that now - last_progress stays within its cycles.
        epochs = std::min((event - now) / epoch, std::max<std::uint64_t>(1, (gpu.watchdog_cycles - (now - last_progress)) / epoch));
        decays = epochs - 1;
      }
    }
    ++t_epochs;
    const std::uint64_t end = now + epoch * epochs;
    const bool progress = runner->run(end);
    // Once a store of any SM wrote part of a sector, every SM logs its stores from the next epoch,
    // so another SM's whole store completes it (PartialSectors).
    if (!logging_stores && std::any_of(sms.begin(), sms.end(), [](const auto& sm) { return sm->memory().partial_seen(); })) {
      logging_stores = true;
      for (auto& sm : sms) sm->memory().log_stores();
    }
    std::uint64_t issued = 0;
    for (auto& sm : sms) issued += sm->issued();
    now = end;
    const std::uint64_t before = next_block;
    dispatch(now);
    if (progress || next_block != before) last_progress = now;
    auto where = [&] {
      std::vector<std::string> warps;
      for (auto& sm : sms)
        for (auto& w : sm->describe_warps(8 - std::min<std::size_t>(8, warps.size()))) warps.push_back(std::move(w));
      return fmt::format("{}", fmt::join(warps, ", "));
    };
    if (issued > config.max_instructions)
      throw KernelFault(fmt::format("kernel '{}' did not finish after {} warp instructions; warps at: {} "
                                    "(--max-instructions raises the limit)",
                                    spec.kernel->name, config.max_instructions, where()));
    if (now - last_progress > gpu.watchdog_cycles) {
      std::vector<std::uint64_t> resident;
      for (auto& sm : sms)
        for (auto b : sm->resident_blocks()) resident.push_back(b);
      std::sort(resident.begin(), resident.end());
      std::string hint;
      if (next_block < blocks)
        hint = fmt::format(
            "; {} blocks wait to be scheduled (from block {}): only {} blocks fit at once ({} per SM x {} SMs, "
            "limited by {}), so a kernel that waits for every block of the grid can never finish",
            blocks - next_block, next_block, std::uint64_t{occupancy.blocks_per_sm} * gpu.sms, occupancy.blocks_per_sm,
            gpu.sms, occupancy.limiter);
      std::string shown;
      for (std::size_t i = 0; i < std::min<std::size_t>(resident.size(), 8); ++i)
        shown += fmt::format("{}{}", i ? ", " : "", resident[i]);
      if (resident.size() > 8) shown += fmt::format(" and {} more", resident.size() - 8);
      throw KernelFault(fmt::format(
          "kernel '{}' deadlocked: no warp finished, passed a barrier or changed memory for {} cycles "
          "(sim.watchdog_cycles) by cycle {}; {} blocks resident ({}){}. Warps at: {}",
          spec.kernel->name, gpu.watchdog_cycles, now, resident.size(), shown, hint, where()));
    }
  }

  // The host threads join once every one has finished the last epoch's merge; that merge's refunds
  // (MemoryPath::refund) would otherwise wait for an epoch that never comes.
  runner.reset();
  for (auto& sm : sms) sm->memory().apply_refunds(now);
  // Merge in SM order: every figure is a sum or a deterministic selection.
  StatsCollector& first = sms[0]->stats();
  for (std::size_t i = 1; i < sms.size(); ++i) first.merge(std::move(sms[i]->stats()));
  LaunchResult result;
  std::move(first).finish(result.stats, result.trace);
  LaunchStats& out = result.stats;
  out.timed = true;
  TimingStats& t = out.timing;
  t.gpu = gpu.name;
  t.clock_mhz = gpu.clock_mhz;
  t.sms = gpu.sms;
  t.sub_partitions = gpu.sub_partitions;
  t.scheduler = std::string(policy_name(gpu.scheduler));
  t.occupancy = occupancy;
  const std::uint64_t per_wave = std::uint64_t{occupancy.blocks_per_sm} * gpu.sms;
  t.waves = (blocks + per_wave - 1) / per_wave;
  t.epochs = t_epochs;
  for (auto& sm : sms) {
    // A kernel ends when its last instruction has issued and its writes have reached L2.
    t.cycles = std::max({t.cycles, sm->last_cycle() + 1, sm->drained()});
    t.resident_warp_cycles += sm->resident_warp_cycles();
    t.active_sm_cycles += sm->active_cycles();
    t.warp_instructions += sm->issued();
    t.stalls += sm->stalls();
    t.memory += sm->memory().stats;
  }
  return result;
}

}  // namespace warpsim::sim
