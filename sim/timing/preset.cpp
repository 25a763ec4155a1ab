#include "sim/timing/preset.hpp"

#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <charconv>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>

#include "device/errors.hpp"
#include "sim/presets/embedded.hpp"

namespace warpsim::sim {

namespace po = boost::program_options;

std::string_view policy_name(SchedulerPolicy p) {
  switch (p) {
    case SchedulerPolicy::LooseRoundRobin: return "lrr";
    case SchedulerPolicy::GreedyThenOldest: return "gto";
    case SchedulerPolicy::OldestFirst: return "oldest";
  }
  return "gto";
}

namespace {

[[noreturn]] void bad(const std::string& key, const std::string& value, const std::string& why) {
  throw Error(fmt::format("GPU preset parameter '{}': '{}' {}", key, value, why), ExitCode::Usage);
}

std::uint64_t to_unsigned(const std::string& key, const std::string& text) {
  std::uint64_t v = 0;
  const auto* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v);
  if (r.ec != std::errc() || r.ptr != end) bad(key, text, "is not a whole number");
  return v;
}

double to_double(const std::string& key, const std::string& text) {
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double v = 0;
  if (!(in >> v) || !in.eof() || !std::isfinite(v)) bad(key, text, "is not a number");
  return v;
}

// One row per parameter: its key, how to read and print it, and what it means.
struct Field {
  std::string key;
  std::string help;
  std::function<void(GpuPreset&, const std::string&)> set;
  std::function<std::string(const GpuPreset&)> get;
};

template <class T>
Field number(std::string key, T GpuPreset::* member, std::string help) {
  return {key, std::move(help),
          [key, member](GpuPreset& p, const std::string& v) {
            if constexpr (std::is_floating_point_v<T>)
              p.*member = to_double(key, v);
            else {
              const std::uint64_t x = to_unsigned(key, v);
              if (x > std::numeric_limits<T>::max()) bad(key, v, "is too large");
              p.*member = static_cast<T>(x);
            }
          },
          [member](const GpuPreset& p) { return fmt::format("{}", p.*member); }};
}

const std::vector<Field>& fields() {
  static const std::vector<Field> table = [] {
    std::vector<Field> f;
    f.push_back({"gpu.name", "preset name", [](GpuPreset& p, const std::string& v) { p.name = v; },
                 [](const GpuPreset& p) { return p.name; }});
    f.push_back({"gpu.description", "one line on the GPU",
                 [](GpuPreset& p, const std::string& v) { p.description = v; },
                 [](const GpuPreset& p) { return p.description; }});
    f.push_back(number("gpu.clock_mhz", &GpuPreset::clock_mhz, "SM clock (MHz): cycles become time at it"));
    f.push_back(number("gpu.sms", &GpuPreset::sms, "streaming multiprocessors"));
    f.push_back(number("gpu.sub_partitions", &GpuPreset::sub_partitions, "warp schedulers per SM"));
    f.push_back(number("gpu.block_dispatch_cycles", &GpuPreset::block_dispatch_cycles,
                       "chip-wide: cycles between two blocks the block dispatcher starts (0: no limit)"));
    f.push_back(number("sm.max_threads", &GpuPreset::max_threads_per_sm, "resident threads per SM"));
    f.push_back(number("sm.max_warps", &GpuPreset::max_warps_per_sm, "resident warps per SM"));
    f.push_back(number("sm.max_blocks", &GpuPreset::max_blocks_per_sm, "resident blocks per SM"));
    f.push_back(number("sm.registers", &GpuPreset::registers_per_sm, "32-bit registers per SM"));
    f.push_back(number("sm.register_allocation_unit", &GpuPreset::register_allocation_unit,
                       "registers per warp are allocated in units of this many"));
    f.push_back(number("sm.max_registers_per_thread", &GpuPreset::max_registers_per_thread,
                       "most registers one thread may use"));
    f.push_back(number("sm.shared_bytes", &GpuPreset::shared_bytes_per_sm, "shared memory per SM (bytes)"));
    f.push_back({"sm.shared_carveouts_kib", "shared-memory carve-outs the driver picks from (KiB, ascending)",
                 [](GpuPreset& p, const std::string& v) {
                   p.shared_carveouts_kib.clear();
                   std::size_t start = 0;
                   while (start <= v.size()) {
                     const auto comma = v.find(',', start);
                     const auto item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
                     const auto x = to_unsigned("sm.shared_carveouts_kib", item);
                     if (x > 1u << 20) bad("sm.shared_carveouts_kib", v, "has a carve-out over 1 GiB");
                     p.shared_carveouts_kib.push_back(static_cast<std::uint32_t>(x));
                     if (comma == std::string::npos) break;
                     start = comma + 1;
                   }
                 },
                 [](const GpuPreset& p) { return fmt::format("{}", fmt::join(p.shared_carveouts_kib, ",")); }});
    f.push_back(number("sm.shared_allocation_unit", &GpuPreset::shared_allocation_unit,
                       "shared memory per block is rounded up to this (bytes)"));
    f.push_back(number("sm.shared_reserved_per_block", &GpuPreset::shared_reserved_per_block,
                       "shared memory the driver reserves per block (bytes)"));
    f.push_back(number("sm.unified_l1_shared_kib", &GpuPreset::unified_l1_shared_kib,
                       "L1 and shared memory together (KiB); L1 gets what the carve-out leaves"));
    f.push_back(number("sm.carveout_unused_kib", &GpuPreset::carveout_unused_kib,
                       "for a kernel without shared memory the driver picks the smallest carve-out of at least "
                       "this (KiB)"));
    f.push_back(number("sm.carveout_headroom", &GpuPreset::carveout_headroom,
                       "for a kernel with shared memory, how many carve-outs past the smallest that holds its "
                       "blocks the driver picks"));
    f.push_back(number("sm.barriers", &GpuPreset::barriers_per_sm, "hardware barriers per SM"));
    f.push_back(number("sm.barrier_warp_cycles", &GpuPreset::barrier_warp_cycles,
                       "cycles a barrier's release waits per warp it gathers, after barrier_latency"));
    f.push_back(number("sm.block_launch_cycles", &GpuPreset::block_launch_cycles,
                       "cycles from a free block slot to the block's first warp"));
    f.push_back(number("sm.warp_launch_cycles", &GpuPreset::warp_launch_cycles,
                       "cycles between consecutive warps of a block starting"));
    f.push_back(number("sm.special_register_cycles", &GpuPreset::special_register_cycles,
                       "cycles the SM takes to serve each warp's first read of a special register other than "
                       "%clock, %clock64 and %warpsize, one warp after another (0: none)"));
    f.push_back(number("sm.warp_exit_cycles", &GpuPreset::warp_exit_cycles,
                       "cycles per warp, one finished block after another, between a block's last warp exiting "
                       "and the next block starting in its slot (0: none)"));
    f.push_back(number("sm.if_convert_max", &GpuPreset::if_convert_max,
                       "the longest branch body the compiler turns into predicated code (instructions; 0: none)"));
    f.push_back(number("sm.fold_immediates", &GpuPreset::fold_immediates,
                       "1: a mov of an immediate runs with the instruction before it and takes no issue slot (ptxas folds the constant into its users; 0: it issues)"));
    f.push_back(number("sm.fold_truncations", &GpuPreset::fold_truncations,
                       "1: a cvt of a 64-bit integer to 32 bits runs with the instruction before it and takes no issue slot (the GPU reads the pair's low register; 0: it issues)"));
    f.push_back(number("sm.int_either_pipe", &GpuPreset::int_either_pipe,
                       "1: class int (adds, moves) issues to the int or the fma pipe, whichever is free (ptxas's IADD3 or "
                       "IMAD.IADD); 0: the int pipe only"));
    f.push_back(number("sm.lower_int64", &GpuPreset::lower_int64,
                       "1: 64-bit integer arithmetic is timed as ptxas lowers it: in 32 bits where only the low half "
                       "is read, a full-width xor/and/or as two LOP3 (class logic64) unless an operand's high half is "
                       "known zero, a shift by 32 or more as one (0: each IR instruction by its own class)"));
    f.push_back(number("sm.fold_widenings", &GpuPreset::fold_widenings,
                       "1: a cvt of a 32-bit integer to 64 bits takes no issue slot when it zero-extends (the high half "
                       "is RZ) or, with sm.lower_int64, when only its low half is read, and is one SHF (class logic) "
                       "when it sign-extends (0: class cvt)"));
    f.push_back(number("sm.fuse_addresses", &GpuPreset::fuse_addresses,
                       "1: a mul.wide (or, with sm.lower_int64, a u64 mul only truncated), or a u64 shl by an immediate "
                       "below 32, whose value only an unguarded u64 add in its straight-line run reads takes no issue "
                       "slot: the add is one IMAD.WIDE (class imul) or LEA and LEA.HI.X; an add takes in one (0: each "
                       "issues)"));
    f.push_back(number("sm.fuse_logic", &GpuPreset::fuse_logic,
                       "1: an and/or/xor/not read only by the next such instruction is part of its LOP3, and a rotate's "
                       "two shifts are one funnel shift: they take no issue slot (ptxas)"));
    f.push_back(number("sm.unroll", &GpuPreset::unroll,
                       "an innermost loop's counter update, compare and back branch issue once per this many trips (the compiler's unrolling; 1: every trip)"));
    f.push_back(number("sm.predicated_shared_passes", &GpuPreset::predicated_shared_passes,
                       "1: each shared access of a skipped if-converted body still takes a pass of the SM's shared pipe (0: none)"));
    f.push_back(number("sm.batched_loads", &GpuPreset::batched_loads,
                       "loads a warp keeps pending past the arithmetic of an unrolled loop that uses them (accumulations and what feeds them; 0: none)"));
    f.push_back(number("sm.unroll_remainder", &GpuPreset::unroll_remainder,
                       "1: in an innermost loop whose trip count its own instructions fix when a warp enters it, a "
                       "trip past the last whole group of sm.unroll starts only when the trip before it has its loads, "
                       "as ptxas's remainder loop runs them (0: loads batch across every trip)"));
    f.push_back(number("sm.hoist_shared_loads", &GpuPreset::hoist_shared_loads,
                       "shared loads a warp issues ahead of the instructions before them in a straight-line run, at most this many unread at once (the compiler's scheduling; 0: the IR's order)"));
    f.push_back(number("sm.hoist_global_loads", &GpuPreset::hoist_global_loads,
                       "1: global loads issue ahead of the arithmetic before them as shared loads do (sm.hoist_shared_loads's count; 0: they keep the IR's place)"));
    f.push_back(number("sm.slow_paths", &GpuPreset::slow_paths,
                       "1: an IEEE division, reciprocal or square root (div/rcp/sqrt .rn) ends a straight-line run as its slow-path branch does in the SASS: no instruction is scheduled across it and it waits for its operands (0: an instruction like any other)"));
    f.push_back(number("sm.slow_path_slots", &GpuPreset::slow_path_slots,
                       "issue slots of its sub-partition an IEEE division, reciprocal or square root takes (its fast path's SASS instructions; 0 or 1: one)"));
    f.push_back(number("sm.vector_shared_loads", &GpuPreset::vector_shared_loads,
                       "1: shared loads of one base register within one aligned 8- or 16-byte chunk issue as one vector load (the compiler's LDS.64/LDS.128; 0: one each)"));
    f.push_back(number("sm.schedule_arithmetic", &GpuPreset::schedule_arithmetic,
                       "within a straight-line run an instruction may issue ahead of up to this many before it, in the order its operands' latencies allow (the compiler's list scheduling; 0: the IR's order)"));
    f.push_back({"sm.scheduler", "warp scheduler policy: lrr, gto or oldest",
                 [](GpuPreset& p, const std::string& v) {
                   if (v == "lrr") p.scheduler = SchedulerPolicy::LooseRoundRobin;
                   else if (v == "gto") p.scheduler = SchedulerPolicy::GreedyThenOldest;
                   else if (v == "oldest") p.scheduler = SchedulerPolicy::OldestFirst;
                   else bad("sm.scheduler", v, "is not a policy (lrr, gto or oldest)");
                 },
                 [](const GpuPreset& p) { return std::string(policy_name(p.scheduler)); }});
    for (unsigned c = 0; c < isa::kTimingClasses; ++c) {
      const auto tc = static_cast<isa::TimingClass>(c);
      const std::string stem(isa::timing_class_key(tc));
      const std::string what(isa::timing_class_description(tc));
      for (const bool latency : {true, false}) {
        const std::string key = fmt::format("pipeline.{}_{}", stem, latency ? "latency" : "interval");
        f.push_back({key,
                     latency ? fmt::format("{}: cycles until a dependent instruction may issue", what)
                             : fmt::format("{}: cycles the sub-partition's unit is busy per warp instruction", what),
                     [key, c, latency](GpuPreset& p, const std::string& v) {
                       const auto x = to_unsigned(key, v);
                       if (x > 1u << 20) bad(key, v, "is over 2^20 cycles");
                       (latency ? p.pipeline[c].latency : p.pipeline[c].interval) = static_cast<std::uint32_t>(x);
                     },
                     [c, latency](const GpuPreset& p) {
                       return fmt::format("{}", latency ? p.pipeline[c].latency : p.pipeline[c].interval);
                     }});
      }
    }
    f.push_back(number("memory.sector_bytes", &GpuPreset::sector_bytes, "bytes per sector"));
    f.push_back(number("memory.line_bytes", &GpuPreset::line_bytes, "bytes per cache line"));
    f.push_back(number("memory.l1_latency", &GpuPreset::l1_latency, "L1 hit latency (cycles)"));
    f.push_back(number("memory.l1_associativity", &GpuPreset::l1_associativity, "L1 ways"));
    f.push_back(number("memory.l1_index_fold", &GpuPreset::l1_index_fold,
                       "the L1's set index: the line address XOR itself shifted right by 1, 2 and 3 times this many bits "
                       "(0: the L2's index, shifts of 11 and 23)"));
    f.push_back(number("memory.l1_lines_per_cycle", &GpuPreset::l1_lines_per_cycle, "L1 tag lookups per cycle"));
    f.push_back(number("memory.l1_bytes_per_cycle", &GpuPreset::l1_bytes_per_cycle,
                       "sector bytes the L1 moves per cycle (a request takes the longer of its lookups and its sectors)"));
    f.push_back(number("memory.l2_kib", &GpuPreset::l2_kib, "L2 size (KiB)"));
    f.push_back(number("memory.l2_associativity", &GpuPreset::l2_associativity, "L2 ways"));
    f.push_back(number("memory.l2_latency", &GpuPreset::l2_latency, "L2 hit latency (cycles)"));
    f.push_back(number("memory.l2_near_ways", &GpuPreset::l2_near_ways,
                       "a load's L2 hit on a line with at least this many more recently used lines in its set is "
                       "served from the far partition (0: every hit is near)"));
    f.push_back(number("memory.l2_far_cycles", &GpuPreset::l2_far_cycles,
                       "cycles a far L2 hit adds to memory.l2_latency"));
    f.push_back(number("memory.l2_side_copies", &GpuPreset::l2_side_copies,
                       "1: the SMs are two halves (alternate pairs), and a load keeps its half's own copy of a line in "
                       "the line's set, finding the other half's copy as a far hit; stores and atomics use the line's "
                       "home copy (0: one copy)"));
    f.push_back(number("memory.l2_bytes_per_cycle", &GpuPreset::l2_bytes_per_cycle, "L2 bandwidth, whole chip"));
    f.push_back(number("memory.l2_access_bytes", &GpuPreset::l2_access_bytes,
                       "the least of its SM's L2 bandwidth share one access to a line takes (bytes; scattered sectors)"));
    f.push_back(number("memory.l2_store_access_bytes", &GpuPreset::l2_store_access_bytes,
                       "the least of its SM's L2 bandwidth share one store's access to a line takes when the store touches more than 8 lines or its lines span more than 8 DRAM pages (bytes; 0: as memory.l2_access_bytes)"));
    f.push_back(number("memory.l2_store_byte_cost", &GpuPreset::l2_store_byte_cost,
                       "bytes of L2 bandwidth a stored byte takes (1: as a loaded byte)"));
    f.push_back(number("memory.dram_latency", &GpuPreset::dram_latency, "DRAM latency (cycles)"));
    f.push_back(number("memory.dram_bytes_per_cycle", &GpuPreset::dram_bytes_per_cycle, "DRAM bandwidth, whole chip"));
    f.push_back(number("memory.share_burst_bytes", &GpuPreset::share_burst_bytes,
                       "bytes an SM's share of L2 and of DRAM bandwidth may each move at once after idling (0: none)"));
    f.push_back(number("memory.dram_loaded_latency", &GpuPreset::dram_loaded_latency,
                       "k: a DRAM read waits k u / (1 - u) more cycles, u the recent DRAM utilisation (at most 0.9)"));
    f.push_back(number("memory.dram_fetch_sectors", &GpuPreset::dram_fetch_sectors,
                       "sectors a read that misses L2 fetches from DRAM at once (aligned group: 1, 2 or 4)"));
    f.push_back(number("memory.dram_page_bytes", &GpuPreset::dram_page_bytes,
                       "DRAM page (row) bytes: fetches within one aligned page share its opening"));
    f.push_back(number("memory.l1_pass_cycles", &GpuPreset::l1_pass_cycles,
                       "cycles each L1 data-bank pass of a load after its first adds to its hit latency (lanes at "
                       "different lines in one bank: chase-lanes-l1; 0: none)"));
    f.push_back(number("memory.l1_request_cycles", &GpuPreset::l1_request_cycles,
                       "the least cycles a global load holds the SM's LSU (pipe-rows1: four coalesced L1-hit loads "
                       "a trip, 64 warps an SM, 3.25 cycles each; 0: no floor)"));
    f.push_back(number("memory.l1_replay_cycles", &GpuPreset::l1_replay_cycles,
                       "cycles a global load whose lanes conflict in the L1's data banks holds the LSU past its "
                       "passes (stride-l1-s4/-s8/-s16/-s32: 5.3/9.1/17.3/33.6 cycles a request; 0: its passes)"));
    f.push_back(number("memory.l1_read_bytes", &GpuPreset::l1_read_bytes,
                       "1: a global load holds the LSU for the bytes its lanes read (at most its sectors'), not "
                       "for every sector it touches, and its data-bank passes (the LSU's hold, and "
                       "memory.l1_pass_cycles' latency) count from 2 lines, not 5 "
                       "(gather-l1-b7/-b8, stride-l1-s4; 0: sectors, and passes from 5 lines)"));
    f.push_back(number("memory.l2_line_cycles", &GpuPreset::l2_line_cycles,
                       "a load over more than 4 lines: each of its L1-missing lines that hits L2 is ready at least "
                       "this after the one before (stride-chase-l2; 0: all at once)"));
    f.push_back(number("memory.dram_line_cycles", &GpuPreset::dram_line_cycles,
                       "the same for a line that comes from DRAM (stride-chase-dram; 0: all at once)"));
    f.push_back(number("memory.store_line_cycles", &GpuPreset::store_line_cycles,
                       "cycles a global store over more than 4 lines holds its SM's LSU per line; the warp issues "
                       "nothing more until the LSU takes the store (store-lines-w4; 0: a store holds it for its "
                       "lookups only)"));
    f.push_back(number("memory.scatter_line_cycles", &GpuPreset::scatter_line_cycles,
                       "cycles between the lines of a scattered request (lines in more than 8 DRAM pages) that miss "
                       "L1: the k-th leaves k times this after the first (chase-lanes-w1; 0: all at once)"));
    f.push_back(number("memory.dram_page_miss_bytes", &GpuPreset::dram_page_miss_bytes,
                       "extra DRAM bytes a fetch costs when its request's lines span more than 8 pages and none of its SM's last 64 scattered fetches opened its page (scattered reads; 0: off)"));
    f.push_back(number("memory.dram_merge_bytes", &GpuPreset::dram_merge_bytes,
                       "DRAM bytes a sector costs when a store that missed L2 wrote part of it and no store of any SM filled the rest "
                       "soon after (the merge read of a partly written sector; 0: off)"));
    f.push_back(number("memory.dirty_sectors", &GpuPreset::dirty_sectors,
                       "1: the L2 keeps which sectors stores wrote; a store costs DRAM a sector's write-back when it first "
                       "writes it (missing from L2, or present but clean), once however many stores of the epoch write it "
                       "(0: each store costs the sectors it misses in L2)"));
    f.push_back(number("memory.write_back_at_eviction", &GpuPreset::write_back_at_eviction,
                       "with memory.dirty_sectors 1: a dirty sector's write-back is charged when its line leaves the "
                       "L2 (a dirty line still there when the launch ends costs it nothing), and a store waits for the "
                       "write-backs queued on DRAM; 0: when a store first dirties it"));
    f.push_back(number("memory.l2_dirty_ways", &GpuPreset::l2_dirty_ways,
                       "with memory.write_back_at_eviction: a set keeps at most this many dirty lines, a store past "
                       "it writing back the set's least recently used other dirty line (0: any number)"));
    f.push_back(number("memory.pending_fills", &GpuPreset::pending_fills,
                       "1: a hit on an L1 or L2 line whose fill is still on its way waits for the data (0: answers at hit latency)"));
    f.push_back(number("memory.atomic_latency", &GpuPreset::atomic_latency, "extra cycles of an atomic at L2"));
    f.push_back(number("memory.atomic_same_address_cycles", &GpuPreset::atomic_same_address_cycles,
                       "cycles L2 spends per atomic to one address"));
    f.push_back(number("memory.atomic_int_slice_cycles", &GpuPreset::atomic_int_slice_cycles,
                       "the same for a request that is one integer operation at the L2 (one lane, or a warp's lanes on one address aggregated); float atomics and several integer lanes take memory.atomic_slice_cycles (0: all do)"));
    f.push_back(number("memory.atomic_slice_cycles", &GpuPreset::atomic_slice_cycles,
                       "cycles the L2 slice holding a line spends on one warp's atomic to it, times the lanes on its busiest word; "
                       "all SMs at work share each slice (0: atomics take no slice time)"));
    f.push_back(number("memory.l2_slices", &GpuPreset::l2_slices, "L2 slices that lines are spread over (atomics)"));
    f.push_back(number("memory.l2_slice_line_shift", &GpuPreset::l2_slice_line_shift,
                       "atomics: each aligned group of 2^this lines shares an L2 slice (0: each line is hashed alone)"));
    f.push_back(number("memory.atomic_lines_per_cycle", &GpuPreset::atomic_lines_per_cycle,
                       "integer atomics: line requests the L2 takes a cycle, whole chip, shared by the SMs at work "
                       "(0: no such bound, and an integer line's turn is at least the float one)"));
    f.push_back(number("memory.shared_banks", &GpuPreset::shared_banks, "shared-memory banks"));
    f.push_back(number("memory.shared_bank_bytes", &GpuPreset::shared_bank_bytes, "bytes per bank word"));
    f.push_back(number("memory.shared_replay_cycles", &GpuPreset::shared_replay_cycles,
                       "cycles of each shared-memory pass after the first (bank conflicts, atomics to one word)"));
    f.push_back(number("memory.shared_replay_interval", &GpuPreset::shared_replay_interval,
                       "cycles the SM's shared-memory pipe is held by each pass after the first"));
    f.push_back(number("sim.epoch_cycles", &GpuPreset::epoch_cycles,
                       "cycles SMs run apart before L2 state and new blocks are merged"));
    f.push_back(number("sim.merge_epoch_misses", &GpuPreset::merge_epoch_misses,
                       "1: SMs that fetch one line from DRAM within one epoch move it once (the L2's miss merging); "
                       "0: each pays for its own fetch"));
    f.push_back(number("sim.skip_idle_epochs", &GpuPreset::skip_idle_epochs,
                       "1: epochs in which no SM can do anything are stepped as one (the same report, faster); 0: "
                       "every epoch is stepped"));
    f.push_back(number("sim.watchdog_cycles", &GpuPreset::watchdog_cycles,
                       "cycles without progress after which a launch is reported as a deadlock"));
    return f;
  }();
  return table;
}

const Field* find_field(const std::string& key) {
  for (const auto& f : fields())
    if (f.key == key) return &f;
  // Overrides may leave out the section when the name is unique: --gpu-set l2_latency=300.
  const Field* found = nullptr;
  for (const auto& f : fields()) {
    const auto dot = f.key.find('.');
    if (f.key.substr(dot + 1) == key) {
      if (found != nullptr) return nullptr;
      found = &f;
    }
  }
  return found;
}

}  // namespace

const GpuPreset& default_preset() {
  static const GpuPreset h100 = load_preset("h100");
  return h100;
}

std::vector<std::string> builtin_presets() {
  std::vector<std::string> names;
  for (const auto& p : presets::embedded()) names.emplace_back(p.name);
  return names;
}

std::string builtin_preset_text(std::string_view name) {
  for (const auto& p : presets::embedded())
    if (p.name == name) return std::string(p.text);
  return {};
}

GpuPreset parse_preset(const std::string& text, const std::string& origin) {
  po::options_description options;
  for (const auto& f : fields()) options.add_options()(f.key.c_str(), po::value<std::string>());
  std::istringstream in(text);
  po::parsed_options parsed(&options);
  try {
    parsed = po::parse_config_file(in, options, false);
  } catch (const po::error& e) {
    throw Error(fmt::format("GPU preset {}: {}", origin, e.what()), ExitCode::Usage);
  }
  GpuPreset preset;
  for (const auto& option : parsed.options) {
    if (option.value.size() != 1) throw Error(fmt::format("GPU preset {}: '{}' has no value", origin, option.string_key), ExitCode::Usage);
    find_field(option.string_key)->set(preset, option.value.front());
  }
  validate_preset(preset);
  return preset;
}

GpuPreset load_preset(const std::string& name_or_file) {
  const std::string text = builtin_preset_text(name_or_file);
  if (!text.empty()) return parse_preset(text, fmt::format("'{}'", name_or_file));
  if (name_or_file.find('/') == std::string::npos && name_or_file.find('.') == std::string::npos)
    throw Error(fmt::format("--gpu: unknown GPU '{}' (built in: {}; or give a preset file)", name_or_file,
                            fmt::join(builtin_presets(), ", ")),
                ExitCode::Usage);
  std::ifstream file(name_or_file);
  if (!file) throw Error(fmt::format("--gpu: cannot read the preset file '{}'", name_or_file), ExitCode::Usage);
  std::stringstream buffer;
  buffer << file.rdbuf();
  return parse_preset(buffer.str(), fmt::format("file '{}'", name_or_file));
}

void apply_override(GpuPreset& preset, const std::string& key, const std::string& value) {
  const Field* f = find_field(key);
  if (f == nullptr)
    throw Error(fmt::format("--gpu-set: unknown parameter '{}' (warpsim gpus --params lists them)", key),
                ExitCode::Usage);
  f->set(preset, value);
}

void validate_preset(const GpuPreset& p) {
  auto need = [](bool ok, const char* key, const std::string& value, const char* why) {
    if (!ok) bad(key, value, why);
  };
  need(p.clock_mhz > 0 && p.clock_mhz < 1e6, "gpu.clock_mhz", fmt::format("{}", p.clock_mhz), "must be above 0");
  need(p.sms >= 1 && p.sms <= 4096, "gpu.sms", fmt::format("{}", p.sms), "must be 1..4096");
  need(p.sub_partitions >= 1 && p.sub_partitions <= 16, "gpu.sub_partitions", fmt::format("{}", p.sub_partitions),
       "must be 1..16");
  need(p.max_warps_per_sm >= 1 && p.max_warps_per_sm <= 1024, "sm.max_warps", fmt::format("{}", p.max_warps_per_sm),
       "must be 1..1024");
  need(p.max_warps_per_sm <= 64u * std::max(1u, p.sub_partitions), "sm.max_warps", fmt::format("{}", p.max_warps_per_sm),
       fmt::format("must be at most 64 per sub-partition ({} with gpu.sub_partitions = {})",
                   64u * std::max(1u, p.sub_partitions), p.sub_partitions)
           .c_str());
  need(p.max_threads_per_sm >= 1, "sm.max_threads", "0", "must be at least 1");
  need(p.max_blocks_per_sm >= 1 && p.max_blocks_per_sm <= 1024, "sm.max_blocks", fmt::format("{}", p.max_blocks_per_sm),
       "must be 1..1024");
  need(p.registers_per_sm >= 1, "sm.registers", "0", "must be at least 1");
  need(p.register_allocation_unit >= 1, "sm.register_allocation_unit", "0", "must be at least 1");
  need(p.max_registers_per_thread >= 1, "sm.max_registers_per_thread", "0", "must be at least 1");
  need(p.shared_allocation_unit >= 1, "sm.shared_allocation_unit", "0", "must be at least 1");
  need(!p.shared_carveouts_kib.empty(), "sm.shared_carveouts_kib", "", "needs at least one carve-out");
  for (std::size_t i = 1; i < p.shared_carveouts_kib.size(); ++i)
    need(p.shared_carveouts_kib[i] > p.shared_carveouts_kib[i - 1], "sm.shared_carveouts_kib",
         fmt::format("{}", fmt::join(p.shared_carveouts_kib, ",")), "must be ascending");
  need(p.carveout_unused_kib <= p.unified_l1_shared_kib, "sm.carveout_unused_kib", fmt::format("{}", p.carveout_unused_kib),
       "must not exceed sm.unified_l1_shared_kib");
  need(p.carveout_headroom < p.shared_carveouts_kib.size(), "sm.carveout_headroom",
       fmt::format("{}", p.carveout_headroom), "must be less than the number of carve-outs");
  need(p.shared_carveouts_kib.back() <= p.unified_l1_shared_kib, "sm.shared_carveouts_kib",
       fmt::format("{}", fmt::join(p.shared_carveouts_kib, ",")), "must not exceed sm.unified_l1_shared_kib");
  need(p.barriers_per_sm >= 1, "sm.barriers", "0", "must be at least 1");
  for (unsigned c = 0; c < isa::kTimingClasses; ++c)
    need(p.pipeline[c].interval >= 1,
         fmt::format("pipeline.{}_interval", isa::timing_class_key(static_cast<isa::TimingClass>(c))).c_str(), "0",
         "must be at least 1");
  need(p.sector_bytes >= 4 && (p.sector_bytes & (p.sector_bytes - 1)) == 0, "memory.sector_bytes",
       fmt::format("{}", p.sector_bytes), "must be a power of two of at least 4");
  need(p.line_bytes >= p.sector_bytes && p.line_bytes % p.sector_bytes == 0 && p.line_bytes / p.sector_bytes <= 8 &&
           (p.line_bytes & (p.line_bytes - 1)) == 0,
       "memory.line_bytes", fmt::format("{}", p.line_bytes), "must be a power of two, 1 to 8 sectors");
  need(p.l1_associativity >= 1, "memory.l1_associativity", "0", "must be at least 1");
  need(p.l1_index_fold <= 21, "memory.l1_index_fold", fmt::format("{}", p.l1_index_fold), "must be at most 21");
  need(p.l1_lines_per_cycle >= 1, "memory.l1_lines_per_cycle", "0", "must be at least 1");
  need(p.l1_bytes_per_cycle >= p.sector_bytes, "memory.l1_bytes_per_cycle", fmt::format("{}", p.l1_bytes_per_cycle),
       "must be at least a sector");
  need(p.l2_access_bytes >= 0 && p.l2_access_bytes <= 4096, "memory.l2_access_bytes", fmt::format("{}", p.l2_access_bytes),
       "must be 0..4096");
  need(p.l2_store_byte_cost >= 1 && p.l2_store_byte_cost <= 64, "memory.l2_store_byte_cost",
       fmt::format("{}", p.l2_store_byte_cost), "must be 1..64");
  need(p.l2_store_access_bytes >= 0 && p.l2_store_access_bytes <= 4096, "memory.l2_store_access_bytes",
       fmt::format("{}", p.l2_store_access_bytes), "must be 0..4096");
  need(p.dram_merge_bytes >= 0 && p.dram_merge_bytes <= 65536, "memory.dram_merge_bytes",
       fmt::format("{}", p.dram_merge_bytes), "must be 0..65536");
  need(p.l2_associativity >= 1, "memory.l2_associativity", "0", "must be at least 1");
  need(p.l2_near_ways < p.l2_associativity, "memory.l2_near_ways", fmt::format("{}", p.l2_near_ways),
       "must be less than memory.l2_associativity");
  need(p.l2_side_copies <= 1, "memory.l2_side_copies", fmt::format("{}", p.l2_side_copies), "must be 0 or 1");
  need(p.l2_far_cycles <= 100000, "memory.l2_far_cycles", fmt::format("{}", p.l2_far_cycles), "must be at most 100000");
  need(std::uint64_t{p.l2_kib} * 1024 >= std::uint64_t{p.line_bytes} * p.l2_associativity, "memory.l2_kib",
       fmt::format("{}", p.l2_kib), "is smaller than one set of lines (line_bytes x l2_associativity)");
  need(p.l2_bytes_per_cycle > 0, "memory.l2_bytes_per_cycle", fmt::format("{}", p.l2_bytes_per_cycle), "must be above 0");
  need(p.dram_fetch_sectors >= 1 && p.dram_fetch_sectors <= p.line_bytes / std::max(p.sector_bytes, 1u) &&
           (p.dram_fetch_sectors & (p.dram_fetch_sectors - 1)) == 0,
       "memory.dram_fetch_sectors", fmt::format("{}", p.dram_fetch_sectors),
       "must be a power of two from 1 to the sectors in a line");
  need(p.unroll >= 1 && p.unroll <= 64, "sm.unroll", fmt::format("{}", p.unroll), "must be 1..64");
  need(p.lower_int64 <= 1, "sm.lower_int64", fmt::format("{}", p.lower_int64), "must be 0 or 1");
  need(p.fold_widenings <= 1, "sm.fold_widenings", fmt::format("{}", p.fold_widenings), "must be 0 or 1");
  need(p.fuse_addresses <= 1, "sm.fuse_addresses", fmt::format("{}", p.fuse_addresses), "must be 0 or 1");
  need(p.fold_truncations <= 1, "sm.fold_truncations", fmt::format("{}", p.fold_truncations), "must be 0 or 1");
  need(p.fold_immediates <= 1, "sm.fold_immediates", fmt::format("{}", p.fold_immediates), "must be 0 or 1");
  need(p.dram_page_bytes >= p.line_bytes && (p.dram_page_bytes & (p.dram_page_bytes - 1)) == 0,
       "memory.dram_page_bytes", fmt::format("{}", p.dram_page_bytes), "must be a power of two of at least a line");
  need(p.l2_line_cycles >= 0 && p.l2_line_cycles <= 100, "memory.l2_line_cycles", fmt::format("{}", p.l2_line_cycles),
       "must be 0..100");
  need(p.dram_line_cycles >= 0 && p.dram_line_cycles <= 100, "memory.dram_line_cycles",
       fmt::format("{}", p.dram_line_cycles), "must be 0..100");
  need(p.store_line_cycles >= 0 && p.store_line_cycles <= 100, "memory.store_line_cycles",
       fmt::format("{}", p.store_line_cycles), "must be 0..100");
  need(p.l1_request_cycles <= 64, "memory.l1_request_cycles", fmt::format("{}", p.l1_request_cycles), "must be at most 64");
  need(p.l1_replay_cycles <= 64, "memory.l1_replay_cycles", fmt::format("{}", p.l1_replay_cycles), "must be at most 64");
  need(p.l1_read_bytes <= 1, "memory.l1_read_bytes", fmt::format("{}", p.l1_read_bytes), "must be 0 or 1");
  need(p.l1_pass_cycles >= 0 && p.l1_pass_cycles <= 100, "memory.l1_pass_cycles", fmt::format("{}", p.l1_pass_cycles),
       "must be 0..100");
  need(p.scatter_line_cycles >= 0 && p.scatter_line_cycles <= 1000, "memory.scatter_line_cycles",
       fmt::format("{}", p.scatter_line_cycles), "must be 0..1000");
  need(p.dram_page_miss_bytes >= 0 && p.dram_page_miss_bytes <= 65536, "memory.dram_page_miss_bytes",
       fmt::format("{}", p.dram_page_miss_bytes), "must be 0..65536");
  need(p.dram_loaded_latency <= 1000000, "memory.dram_loaded_latency", fmt::format("{}", p.dram_loaded_latency),
       "must be 0..1000000");
  need(p.share_burst_bytes >= 0 && p.share_burst_bytes <= 1048576, "memory.share_burst_bytes",
       fmt::format("{}", p.share_burst_bytes), "must be 0 to 1048576");
  need(p.dram_bytes_per_cycle > 0, "memory.dram_bytes_per_cycle", fmt::format("{}", p.dram_bytes_per_cycle),
       "must be above 0");
  need(p.shared_banks >= 1 && p.shared_banks <= 64, "memory.shared_banks", fmt::format("{}", p.shared_banks),
       "must be 1..64");
  need(p.shared_bank_bytes >= 1, "memory.shared_bank_bytes", "0", "must be at least 1");
  need(p.shared_replay_cycles >= 1 && p.shared_replay_cycles <= 1024, "memory.shared_replay_cycles",
       fmt::format("{}", p.shared_replay_cycles), "must be 1..1024");
  need(p.shared_replay_interval >= 1 && p.shared_replay_interval <= 1024, "memory.shared_replay_interval",
       fmt::format("{}", p.shared_replay_interval), "must be 1..1024");
  need(p.atomic_int_slice_cycles >= 0 && p.atomic_int_slice_cycles <= 1e6, "memory.atomic_int_slice_cycles",
       fmt::format("{}", p.atomic_int_slice_cycles), "must be 0..1e6");
  need(p.atomic_slice_cycles >= 0 && p.atomic_slice_cycles <= 1e6, "memory.atomic_slice_cycles",
       fmt::format("{}", p.atomic_slice_cycles), "must be 0..1e6");
  need(p.l2_slice_line_shift <= 20, "memory.l2_slice_line_shift", fmt::format("{}", p.l2_slice_line_shift),
       "must be at most 20");
  need(p.atomic_lines_per_cycle == 0 || (p.atomic_lines_per_cycle >= 0.001 && p.atomic_lines_per_cycle <= 1e6),
       "memory.atomic_lines_per_cycle", fmt::format("{}", p.atomic_lines_per_cycle), "must be 0 or 0.001..1e6");
  need(p.atomic_lines_per_cycle == 0 || p.atomic_slice_cycles > 0 || p.atomic_int_slice_cycles > 0,
       "memory.atomic_lines_per_cycle", fmt::format("{}", p.atomic_lines_per_cycle),
       "needs the L2 slices' atomic turns (memory.atomic_slice_cycles or atomic_int_slice_cycles above 0)");
  need(p.l2_slices >= 1 && p.l2_slices <= 4096, "memory.l2_slices", fmt::format("{}", p.l2_slices), "must be 1..4096");
  need(p.pending_fills <= 1, "memory.pending_fills", fmt::format("{}", p.pending_fills), "must be 0 or 1");
  need(p.predicated_shared_passes <= 1, "sm.predicated_shared_passes", fmt::format("{}", p.predicated_shared_passes),
       "must be 0 or 1");
  need(p.batched_loads <= 8, "sm.batched_loads", fmt::format("{}", p.batched_loads), "must be 0..8");
  need(p.unroll_remainder <= 1, "sm.unroll_remainder", fmt::format("{}", p.unroll_remainder), "must be 0 or 1");
  need(p.schedule_arithmetic <= 64, "sm.schedule_arithmetic", fmt::format("{}", p.schedule_arithmetic), "must be 0..64");
  need(p.hoist_shared_loads <= 64, "sm.hoist_shared_loads", fmt::format("{}", p.hoist_shared_loads), "must be 0..64");
  need(p.special_register_cycles <= 100000, "sm.special_register_cycles", fmt::format("{}", p.special_register_cycles),
       "must be at most 100000");
  need(p.warp_exit_cycles <= 100000, "sm.warp_exit_cycles", fmt::format("{}", p.warp_exit_cycles), "must be at most 100000");
  need(p.if_convert_max <= 64, "sm.if_convert_max", fmt::format("{}", p.if_convert_max), "must be 0..64");
  need(p.barrier_warp_cycles >= 0 && p.barrier_warp_cycles <= 1024, "sm.barrier_warp_cycles",
       fmt::format("{}", p.barrier_warp_cycles), "must be 0..1024");
  need(p.block_dispatch_cycles >= 0 && p.block_dispatch_cycles <= 1e6, "gpu.block_dispatch_cycles",
       fmt::format("{}", p.block_dispatch_cycles), "must be 0..1000000");
  need(p.dirty_sectors <= 1, "memory.dirty_sectors", fmt::format("{}", p.dirty_sectors), "must be 0 or 1");
  need(p.write_back_at_eviction <= 1, "memory.write_back_at_eviction", fmt::format("{}", p.write_back_at_eviction),
       "must be 0 or 1");
  need(p.write_back_at_eviction == 0 || p.l2_dirty_ways < p.l2_associativity || p.l2_dirty_ways == 0,
       "memory.l2_dirty_ways",
       fmt::format("{}", p.l2_dirty_ways), "must be less than memory.l2_associativity");
  need(p.vector_shared_loads <= 1, "sm.vector_shared_loads", fmt::format("{}", p.vector_shared_loads), "must be 0 or 1");
  need(p.hoist_global_loads <= 1, "sm.hoist_global_loads", fmt::format("{}", p.hoist_global_loads), "must be 0 or 1");
  need(p.slow_path_slots <= 64, "sm.slow_path_slots", fmt::format("{}", p.slow_path_slots), "must be 0..64");
  need(p.slow_paths <= 1, "sm.slow_paths", fmt::format("{}", p.slow_paths), "must be 0 or 1");
  need(p.int_either_pipe <= 1, "sm.int_either_pipe", fmt::format("{}", p.int_either_pipe), "must be 0 or 1");
  need(p.fuse_logic <= 1, "sm.fuse_logic", fmt::format("{}", p.fuse_logic), "must be 0 or 1");
  need(p.merge_epoch_misses <= 1, "sim.merge_epoch_misses", fmt::format("{}", p.merge_epoch_misses), "must be 0 or 1");
  need(p.epoch_cycles >= 1 && p.epoch_cycles <= p.l2_latency + 1, "sim.epoch_cycles", fmt::format("{}", p.epoch_cycles),
       "must be 1..l2_latency (SMs may only run apart for less than an L2 round trip)");
  need(p.skip_idle_epochs <= 1, "sim.skip_idle_epochs", fmt::format("{}", p.skip_idle_epochs), "must be 0 or 1");
  need(p.watchdog_cycles >= 1000 && p.watchdog_cycles <= (std::uint64_t{1} << 48), "sim.watchdog_cycles",
       fmt::format("{}", p.watchdog_cycles), "must be 1000 to 2^48");
}

std::vector<PresetParameter> preset_parameters(const GpuPreset& preset) {
  std::vector<PresetParameter> out;
  for (const auto& f : fields()) out.push_back({f.key, f.get(preset), f.help});
  return out;
}

}  // namespace warpsim::sim
