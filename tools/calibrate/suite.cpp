#include "tools/calibrate/suite.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <random>
#include <tuple>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "kernels/library.hpp"
#include "tools/calibrate/suite_run.hpp"

namespace warpsim::calib {

namespace {

using namespace suite_detail;

std::vector<BenchInfo> make_suite() {
  std::vector<BenchInfo> s;
  s.push_back({"launch",
               "an empty kernel (1 block of 32 threads): its time as the backend measures it (queued behind the L2 "
               "flush: the fixed cost of a kernel, subtracted from every other hardware figure)",
               "us", "", Fit::None, 1, [](const Target& t) {
                 Target raw = t;
                 raw.launch_us = 0;
                 Run run(raw);
                 return run.launch("mb_memory.kir", "empty", 1, 32, {run.zeros(4)}) / t.clock_mhz;
               }});
  // Empty blocks by the thousand: the chip's block dispatcher, not any SM, bounds them (the H100
  // runs vecadd 2^22 2.3x slower with 64-thread blocks than with 256).
  s.push_back({"dispatch-64", "65,536 empty blocks of 64 threads: cycles per block, chip-wide", "cycles/block",
               "gpu.block_dispatch_cycles", Fit::Additive, 1,
               [](const Target& t) {
                 Run run(t);
                 return run.launch("mb_memory.kir", "empty", 65536, 64, {run.zeros(4)}) / 65536.0;
               },
               0.05});
  s.push_back({"dispatch-1024", "4,096 empty blocks of 1024 threads: cycles per block, chip-wide", "cycles/block", "",
               Fit::None, 1, [](const Target& t) {
                 Run run(t);
                 return run.launch("mb_memory.kir", "empty", 4096, 1024, {run.zeros(4)}) / 4096.0;
               }});
  s.push_back({"clock", "two %clock64 reads back to back", "cycles", "", Fit::None, 1, [](const Target& t) {
                 Run run(t);
                 const auto out = run.zeros(16);
                 run.launch("mb_sync.kir", "clock_pair", 1, 1, {out});
                 return double(run.read_u64(out, 1)[0]);
               }});
  for (const std::string cls : {"int", "int64", "logic", "imul", "imul64", "bits", "idiv", "fp32", "fp64", "fdiv", "ddiv", "dsqrt", "drcp", "sfu", "cvt", "shfl", "vote"}) {
    s.push_back({"lat-" + cls,
                 fmt::format("one warp, a dependent chain of {} instructions (mb_chain_{}.kir)", cls, cls), "cycles/op",
                 "pipeline." + cls + "_latency", Fit::Additive, 1,
                 [cls](const Target& t) { return chain_latency(t, cls); }});
    s.push_back({"tput-" + cls,
                 fmt::format("32 warps x 4 independent {} chains; cycles per warp instruction per sub-partition", cls),
                 "cycles/op/SMSP", "pipeline." + cls + "_interval", Fit::Additive, 1,
                 [cls](const Target& t) { return chain_throughput(t, cls); }});
  }
  // u64 shifts (stop 26, compared only): the logic64 chain alternates shr.u64 (class logic64, two SHF)
  // and xor.b64 of full-width values (class int64, here two LOP3 where int64's own chain needs one:
  // its high halves are zero), so the model, timing the xor as int64, cannot reproduce tput-logic64;
  // pipeline.logic64_* are derived from the logic class (two SHF each), not fitted to these.
  s.push_back({"lat-logic64", "one warp, a dependent chain of full-width u64 shr and xor (mb_chain_logic64.kir)",
               "cycles/op", "", Fit::None, 1, [](const Target& t) { return chain_latency(t, "logic64"); }});
  s.push_back({"tput-logic64",
               "32 warps x 4 independent full-width u64 shr/xor chains; cycles per warp instruction per sub-partition",
               "cycles/op/SMSP", "", Fit::None, 1, [](const Target& t) { return chain_throughput(t, "logic64"); }});
  s.push_back({"lat-cmp", "one warp, a dependent chain of u32 setp and selp (mb_chain_cmp.kir)", "cycles/op", "",
               Fit::None, 1, [](const Target& t) { return chain_latency(t, "cmp"); }});
  s.push_back({"tput-cmp", "32 warps x 4 independent u32 setp/selp chains; cycles per warp instruction per sub-partition",
               "cycles/op/SMSP", "", Fit::None, 1, [](const Target& t) { return chain_throughput(t, "cmp"); }});
  s.push_back({"chase-shared-s1", "one warp chasing through shared memory, conflict-free", "cycles/load",
               "pipeline.ld_shared_latency", Fit::Additive, 1, [](const Target& t) { return chase_shared(t, 1); }});
  // The 32-way chase fits the cost of each pass after the first (31 of them per load).
  for (const std::uint32_t stride : {2u, 4u, 32u})
    s.push_back({fmt::format("chase-shared-s{}", stride), fmt::format("the same with {}-way bank conflicts", stride),
                 "cycles/load", stride == 32 ? "memory.shared_replay_cycles" : "",
                 stride == 32 ? Fit::Additive : Fit::None, stride == 32 ? 31.0 : 1.0,
                 [stride](const Target& t) { return chase_shared(t, stride); }});
  // Conflicts under load: 32 warps each with 32-way conflicts; the replay occupies the shared pipe,
  // whose cost per pass may differ from the latency one warp sees (chase-shared-s32).
  s.push_back({"tput-shared-s32", "32 warps chasing with 32-way bank conflicts: SM cycles per warp load",
               "cycles/load", "memory.shared_replay_interval", Fit::Additive, 31, [](const Target& t) {
                 // 4 loads a step by each of 32 warps.
                 return slowest_per_step(t, "mb_memory.kir", "conflict_tput", 1024, 16) / (4.0 * 32);
               }});
  // Shared-load throughput with many warps and no conflicts, and with every lane on one word
  // (stop 25: set25's matmul-rect runs 64 LDS a tile, half of them broadcasts, at about 2.6 SM cycles
  // an LDS on the H100, where the model's shared pipe takes one a cycle). Compared only.
  for (const auto& [name, spread] : std::vector<std::pair<std::string, std::uint32_t>>{{"tput-shared-s1", 1u},
                                                                                      {"tput-shared-bcast", 0u}})
    s.push_back({name,
                 spread == 1 ? "32 warps x 4 conflict-free shared chases: SM cycles per warp load"
                             : "the same with every lane of a warp on one word (a broadcast)",
                 "cycles/load", "", Fit::None, 1, [spread](const Target& t) {
                   Run run(t);
                   const std::uint32_t threads = 1024, steps = 64;
                   const auto out = run.zeros(std::size_t{threads} * 16);
                   run.launch("mb_memory.kir", "shared_tput", 1, threads, {out, steps, spread});
                   // 8 loads a step by each of 32 warps.
                   return slowest(run, out, threads) / (steps * 8.0 * 32);
                 }});
  s.push_back({"chase-l1", "one thread, random chase over 64 lines (8 KiB), warmed", "cycles/load", "memory.l1_latency",
               Fit::Additive, 1, [](const Target& t) { return chase_global(t, 8192, 64, 64, 1024); }});
  s.push_back({"chase-l2", "one thread, random chase over 32768 lines (4 MiB), warmed", "cycles/load",
               "memory.l2_latency", Fit::Additive, 1,
               [](const Target& t) { return chase_global(t, 4u << 20, 32768, 32768, 4096); }});
  s.push_back({"chase-dram", "one thread, random chase over 64 MiB of a 128 MiB buffer, cold", "cycles/load",
               "memory.dram_latency", Fit::Additive, 1,
               [](const Target& t) { return chase_global(t, 128u << 20, 524288, 0, 2048); }});
  // The caches' capacity (stop 32, compared only): one thread chases a random cycle over the whole
  // footprint once to warm it, then again, timed; a cache that holds it hits, one that does not
  // (least recently used) misses every time. The L1 with no shared memory (set24's l2norm_warp reads
  // each row of 16 warps an SM twice: 256 KiB, -58%) and the L2 (its 50 MiB in two partitions: past
  // about 24 MiB one SM's chase hits the far one).
  for (const std::uint64_t kib : {128u, 192u, 224u, 256u})
    s.push_back({fmt::format("chase-l1-{}k", kib),
                 fmt::format("one thread, random chase over {} KiB, warmed by one pass", kib), "cycles/load", "",
                 Fit::None, 1, [kib](const Target& t) {
                   const auto nodes = static_cast<std::uint32_t>(kib * 1024 / 128);
                   return chase_global(t, kib * 1024, nodes, nodes, nodes);
                 }});
  // The L1's set index (stop 33, compared only): one thread chases a random cycle over `lines` lines
  // a power-of-two stride apart, warmed. A modulo index over the model's 448 sets (224 KiB of 4
  // ways) holds 4 x 448 / gcd lines of a stride: 112 of 2 KiB, 28 of 16 KiB; set29's thomas (lanes
  // 2 KiB apart) and private_hist (local arrays) went wrong with it at stop 32.
  for (const auto& [kib, lines] : std::vector<std::pair<std::uint32_t, std::uint32_t>>{
           {2, 64}, {2, 128}, {2, 256}, {16, 8}, {16, 16}, {16, 32}, {16, 64}, {16, 128}, {128, 4}, {128, 8}, {128, 16}, {128, 32}, {128, 64}})
    s.push_back({fmt::format("chase-l1-stride{}k-{}", kib, lines),
                 fmt::format("one thread, random chase over {} lines {} KiB apart, warmed by one pass", lines, kib),
                 "cycles/load", "", Fit::None, 1, [kib, lines](const Target& t) {
                   return chase_global(t, std::size_t{kib} * 1024 * lines, lines, lines, 1024, kib * 8);
                 }});
  // chase-l2-32m fits memory.l2_far_cycles: its lines are past the near half of their sets' ways.
  // Stop 38 (compared only): 48, 64 and 96 MiB, one sector of each line: whether the L2 keeps more
  // lines than its bytes hold whole (gather-l2-32m from every SM finds about half the L2).
  for (const std::uint64_t mib : {16u, 24u, 32u, 40u, 48u, 64u, 96u})
    s.push_back({fmt::format("chase-l2-{}m", mib),
                 fmt::format("one thread, random chase over {} MiB, warmed by one pass (8,192 loads timed)", mib),
                 "cycles/load", mib == 32 ? "memory.l2_far_cycles" : "", mib == 32 ? Fit::Additive : Fit::None, 1,
                 [mib](const Target& t) {
                   const auto nodes = static_cast<std::uint32_t>((mib << 20) / 128);
                   return chase_global(t, mib << 20, nodes, nodes, 8192);
                 }});
  // A whole line against one sector (stop 33, chase_line, compared only): one warp chases random
  // lines over 64 MiB of a 128 MiB buffer, cold, reading one sector (8 lanes), two (16) or the
  // whole line (32) of each. dram-loaded-w2 (a line a warp, 2 warps an SM, grid-stride) takes
  // about 801 cycles a load on the H100 where chase-dram (8 bytes) takes 689.
  // Stop 34: 1 and 24 lanes too (one word, three sectors), and the same from L2 (chase-l2-lanes*:
  // 4 MiB, warmed by a pass; suite_lifetime.cpp), for where a whole line's extra round trip arises.
  for (const std::uint32_t lanes : {1u, 8u, 16u, 24u, 32u})
    s.push_back({fmt::format("chase-dram-lanes{}", lanes),
                 fmt::format("one warp, random chase over 64 MiB of a 128 MiB buffer, cold, {} lanes reading {} bytes of "
                             "each line",
                             lanes, lanes * 4),
                 "cycles/load", "", Fit::None, 1,
                 [lanes](const Target& t) { return line_chase(t, 128u << 20, 524288, lanes, 0, 2048); }});
  // Footprints past chase-dram's 64 MiB (stop 26's second call, compared only): set26's chase-small
  // (1,024 hops through 128 MiB) ran at about 1,030 cycles a hop on the H100 against chase-dram's 684,
  // as a chase past the reach of the GPU's address translation would; these say where that starts.
  for (const auto& [name, mib] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"chase-dram-16m", 16}, {"chase-dram-128m", 128}, {"chase-dram-512m", 512}})
    s.push_back({name, fmt::format("one thread, random chase over {} MiB of a {} MiB buffer, cold", mib, 2 * mib),
                 "cycles/load", "", Fit::None, 1, [mib](const Target& t) {
                   return chase_global(t, (2 * mib) << 20, static_cast<std::size_t>((mib << 20) / 128), 0, 2048);
                 }});
  // Many chains at once (stop 26's third call, compared only): set26's chase-small runs 128 threads a
  // block, each its own chain, at about 1,030 cycles a hop on the H100 where chase-dram's one thread
  // takes 677 (and 669 over 128 MiB: not the footprint). Each warp load here gathers 32 lines.
  for (const auto& [name, blocks, threads] : std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t>>{
           {"chase-lanes-w1", 1u, 32u}, {"chase-lanes-w4", 1u, 128u}, {"chase-lanes-sm66-w4", 66u, 128u}})
    s.push_back({name,
                 fmt::format("{} block(s) of {} threads, each its own random chain over 64 MiB, cold", blocks, threads),
                 "cycles/load", "", Fit::None, 1, [blocks, threads](const Target& t) {
                   return chase_lanes(t, 128u << 20, 524288, blocks, threads, 512);
                 }});
  // The same over 64 KiB (512 lines, which the L1 holds once the first lanes brought them in; stop 31):
  // each dependent warp load gathers 32 lines that hit L1. set29's thomas over contiguous systems
  // (4 warps an SM, each lane its own system, 32 lines a load) measured -44%; chase-l1 has one line.
  // chase-lanes-l1 fits memory.l1_pass_cycles (its lanes all read a line's first word: 32 passes of
  // one data bank); chase-lanes-l1-w4 is compared only (4 warps: the passes' one a cycle).
  for (const auto& [name, threads] : std::vector<std::pair<std::string, std::uint32_t>>{{"chase-lanes-l1", 32u},
                                                                                       {"chase-lanes-l1-w4", 128u}})
    s.push_back({name, fmt::format("1 block of {} threads, each its own stretch of one random chain over 64 KiB (L1)", threads),
                 "cycles/load", threads == 32 ? "memory.l1_pass_cycles" : "", threads == 32 ? Fit::Additive : Fit::None,
                 31, [threads](const Target& t) { return chase_lanes(t, 128u << 10, 512, 1, threads, 8192); }, 0.01});
  // One warp's dependent loads of 32 new lines at once that miss L1 but lie in a few DRAM pages
  // (stop 31, stride_chase): lanes 256 bytes apart (32 passes of one bank) or 128 (consecutive lines),
  // 1,024 steps over 8 MiB, from L2 (a warm-up pass first) or DRAM (cold). set29's thomas over
  // contiguous systems at n=64 (lanes 256 bytes apart, 16 warps an SM) measured -32%. The -l1 pair
  // (16 steps, L1-resident once warmed) says whether chase-lanes-l1's cost is the bank's passes
  // (lanes 256 bytes apart: 32 passes) or the lines (132 bytes apart: 32 lines, 32 banks, one pass).
  // stride-chase-l2 fits memory.l2_line_cycles, stride-chase-dram memory.dram_line_cycles (31 lines
  // after the first each).
  struct StrideChase {
    const char* name;
    std::uint32_t stride, warm;
    const char* param;  // "" when compared only
  };
  for (const auto& [name, stride, warm, param] : std::vector<StrideChase>{
           {"stride-chase-l2", 64, 1, "memory.l2_line_cycles"}, {"stride-chase-l2-s32", 32, 1, ""},
           {"stride-chase-dram", 64, 0, "memory.dram_line_cycles"}, {"stride-chase-l1", 64, 2, ""},
           {"stride-chase-l1-s33", 33, 2, ""}})
    s.push_back({name,
                 fmt::format("one warp, dependent loads of 32 new lines {} bytes apart a step, {}", stride * 4,
                             warm == 2 ? "16 steps from L1 (warmed)" : warm ? "8 MiB from L2 (warmed)" : "8 MiB cold"),
                 "cycles/load", param, *param != 0 ? Fit::Additive : Fit::None, 31, [stride, warm](const Target& t) {
                   Run run(t);
                   // warm 2: 16 steps (at most 132 KiB, which the L1 holds), warmed.
                   const std::uint32_t steps = warm == 2 ? 16 : 1024;
                   const auto in = run.zeros(std::size_t{steps} * 32 * stride * 4 + 4096);
                   const auto out = run.zeros(32 * 16);
                   run.launch("mb_memory.kir", "stride_chase", 1, 32, {in, out, stride, steps, std::min(warm, 1u)});
                   return slowest(run, out, 32) / steps;
                 },
                 0.1});
  s.push_back({"atom-global-1", "one lane, dependent atomicAdd chain on one global word", "cycles/atomic",
               "memory.atomic_latency", Fit::Additive, 1, [](const Target& t) { return atomics(t, false, 1, 0); }});
  s.push_back({"atom-global-same32", "32 lanes, dependent atomicAdd chain, one global word", "cycles/atomic",
               "memory.atomic_same_address_cycles", Fit::Additive, 31,
               [](const Target& t) { return atomics(t, false, 32, 0); }});
  s.push_back({"atom-global-distinct32", "32 lanes, dependent atomicAdd chain, 32 words of one line", "cycles/atomic",
               "", Fit::None, 1, [](const Target& t) { return atomics(t, false, 32, 1); }});
  s.push_back({"atom-global-tput", "1024 threads, distinct words: cycles per warp atomic (slowest warp)",
               "cycles/atomic", "", Fit::None, 1, [](const Target& t) { return atomics(t, false, 1024, 1) / 32; }});
  s.push_back({"atom-shared-1", "one lane, dependent atomicAdd chain on one shared word", "cycles/atomic",
               "pipeline.atom_shared_latency", Fit::Additive, 1,
               [](const Target& t) { return atomics(t, true, 1, 0); }});
  s.push_back({"atom-shared-same32", "32 lanes, one shared word", "cycles/atomic", "", Fit::None, 1,
               [](const Target& t) { return atomics(t, true, 32, 0); }});
  s.push_back({"atom-shared-distinct32", "32 lanes, distinct shared words", "cycles/atomic", "", Fit::None, 1,
               [](const Target& t) { return atomics(t, true, 32, 1); }});
  // One warp fits the release latency; 32 warps the cost per warp gathered (32 of them per barrier).
  for (const std::uint32_t warps : {1u, 2u, 4u, 8u, 16u, 32u}) {
    const std::string param = warps == 1 ? "pipeline.barrier_latency" : warps == 32 ? "sm.barrier_warp_cycles" : "";
    s.push_back({fmt::format("bar-{}", warps), fmt::format("bar.sync back to back, {} warps in the block", warps),
                 "cycles/barrier", param, param.empty() ? Fit::None : Fit::Additive, warps == 32 ? 32.0 : 1.0,
                 [warps](const Target& t) { return barrier(t, warps); }, warps == 32 ? 0.05 : 1.0});
  }
  // Fences (stop 31): `membar.gl` alone (fits its latency: what a fence costs with nothing
  // outstanding), after a store of the warp's own line, and threadFenceReduction's tail (a store, the
  // fence, a dependent global atomic), one warp; and the store and fence from 132 x 8 blocks of 256
  // threads at once (the slowest warp). reduce-last-block, one fence and ticket a block, measured
  // -44% (docs/validation/timing.md).
  s.push_back({"fence-gl", "one warp, membar.gl back to back", "cycles/fence", "pipeline.fence_gl_latency", Fit::Additive, 1,
               [](const Target& t) { return slowest_per_step(t, "mb_sync.kir", "fence_bare", 32, 16) / 4; }});
  // The fence kernels' parameters: (out, steps), (buf, out, steps) or (buf, tickets, out, steps).
  enum class FenceArgs { Out, Buf, BufTickets };
  struct FenceCase {
    const char* name;
    const char* what;
    const char* kernel;
    FenceArgs args;
    std::uint32_t blocks, threads;
  };
  for (const auto& [name, what, kernel, args, blocks, threads] : std::vector<FenceCase>{
           {"fence-gl-store", "one warp, a store of its line then membar.gl", "fence_store", FenceArgs::Buf, 1, 32},
           {"fence-gl-ticket", "one warp, a store, membar.gl and a dependent global atomic", "fence_ticket",
            FenceArgs::BufTickets, 1, 32},
           {"fence-gl-busy", "132 x 8 blocks of 256 threads, each warp a store of its line then membar.gl (slowest warp)",
            "fence_store", FenceArgs::Buf, 132 * 8, 256},
           {"fence-gl-chip", "132 blocks of 32 threads (a warp an SM), a store of its line then membar.gl (slowest warp)",
            "fence_store", FenceArgs::Buf, 132, 32},
           {"fence-gl-sm8", "132 blocks of 256 threads (8 warps an SM), a store of its line then membar.gl (slowest warp)",
            "fence_store", FenceArgs::Buf, 132, 256},
           {"fence-gl-bare-busy", "132 x 8 blocks of 256 threads, membar.gl back to back (slowest warp)", "fence_bare",
            FenceArgs::Out, 132 * 8, 256}})
    s.push_back({name, what, "cycles/fence", "", Fit::None, 1, [kernel, args, blocks, threads](const Target& t) {
                   Run run(t);
                   const std::uint32_t steps = 16, total = blocks * threads;
                   const auto buf = run.zeros(std::size_t{total} * 4), out = run.zeros(std::size_t{total} * 16);
                   std::vector<std::uint64_t> params{out, steps};
                   if (args == FenceArgs::BufTickets) params.insert(params.begin(), run.zeros(std::size_t{total} / 8 + 4));
                   if (args != FenceArgs::Out) params.insert(params.begin(), buf);
                   run.launch("mb_sync.kir", kernel, blocks, threads, std::move(params));
                   return slowest(run, out, total) / (steps * 4);
                 }});
  // A fence amid a DRAM stream (stop 31, fence_loaded): 132 x 8 blocks of 256 threads, warp 0 of each
  // 64 membar.gl back to back while the other 7 stream 256 MiB (reduce-last-block's fence and ticket
  // come at each block's end while the other blocks stream): cycles per fence of the slowest fencer.
  s.push_back({"fence-gl-stream", "132 x 8 blocks of 256 threads: warp 0 membar.gl back to back, warps 1-7 stream "
               "256 MiB from DRAM (slowest fencing warp)", "cycles/fence", "", Fit::None, 1, [](const Target& t) {
                 Run run(t);
                 const std::uint32_t blocks = 132 * 8, threads = 256, total = blocks * threads, steps = 16, n = 64u << 20;
                 const auto in = run.zeros(std::size_t{n} * 4), out = run.zeros(std::size_t{total} * 16);
                 run.launch("mb_sync.kir", "fence_loaded", blocks, threads, {in, out, n, steps});
                 const auto words = run.read_u64(out, std::size_t{total} * 2);
                 std::uint64_t most = 0;
                 for (std::uint32_t g = 0; g < total; ++g)
                   if (g % threads < 32) most = std::max(most, words[2 * g]);
                 return double(most) / (steps * 4);
               }});
  // Loads across a block barrier (stop 33, barrier_stream, compared only): each step a warp reads a
  // new line from DRAM and the block waits for all its warps' lines. One block an SM of 1, 8 or 32
  // warps (the idle round trip, and the slowest of 8 or 32), and a full SM of 64 warps in blocks of
  // 2, 8 or 32 warps. set25's block-size7 (a stencil through a shared tile, a barrier after each
  // block's loads) ran slower on the H100 with 512 and 1,024-thread blocks than with 256; the model
  // ran faster. Cycles a step.
  for (const auto& [name, blocks_per_sm, block, steps] : std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t, std::uint32_t>>{
           {"barrier-dram-w1", 1u, 32u, 256u}, {"barrier-dram-w8", 1u, 256u, 256u}, {"barrier-dram-w32", 1u, 1024u, 256u},
           {"barrier-dram-b64", 32u, 64u, 64u}, {"barrier-dram-b256", 8u, 256u, 64u}, {"barrier-dram-b1024", 2u, 1024u, 64u}})
    s.push_back({name,
                 fmt::format("132 x {} blocks of {} threads: a new line a warp from DRAM, then bar.sync, {} steps",
                             blocks_per_sm, block, steps),
                 "cycles/step", "", Fit::None, 1, [blocks_per_sm, block, steps](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * blocks_per_sm, threads = blocks * block;
                   const auto in = run.zeros(std::size_t{threads} * steps * 4), out = run.zeros(std::size_t{threads} * 4);
                   return run.launch("mb_sync.kir", "barrier_stream", blocks, block, {in, out, steps}) / steps;
                 }});
  // A reduction's tree step (shared loads, an add, a store, bar.sync) with 16 warps, 8 of them adding.
  s.push_back({"tree-step-16", "512 threads: threads 0-255 add partial[t + 256] into partial[t], bar.sync",
               "cycles/step", "", Fit::None, 1,
               [](const Target& t) { return slowest_per_step(t, "mb_sync.kir", "tree_step", 512, 64); }});
  // ptxas's if-conversion (sm.if_convert_max): 32 warps whose lanes all skip a guarded body of five
  // adds, cycles per loop step (compared only; docs/timing.md).
  s.push_back({"skip-body-32", "1024 threads loop over a guarded 5-add body every lane skips: cycles per step",
               "cycles/step", "", Fit::None, 1, [](const Target& t) { return skip_per_step(t, "skip_body"); }});
  // Global atomics across the chip (stop 22), timed by the launch: 132 x 4 blocks of 256 threads.
  // atom-hot: lane 0 of every warp adds to one word (cycles per atomic, chip-wide: the L2 slice
  // that holds it serialises them; fits memory.atomic_slice_cycles); atom-spread: every lane to its
  // own line each step (lane atomics per cycle, chip-wide: how many slices share the work, read
  // for memory.l2_slices); atom-line / atom-line-m4: every warp's 32 lanes to one line, 32 or 8
  // distinct words (cycles per warp atomic, chip-wide).
  struct AtomCase {
    const char* name;
    const char* what;
    const char* unit;
    const char* fits;
    Fit fit;
    std::uint32_t stride, mask, lane0, steps;
    bool per_lane_rate;
    double step;  // the fitted value's rounding (atom-hot: 3.49, not 3)
  };
  for (const AtomCase& c : std::vector<AtomCase>{
           {"atom-hot", "lane 0 of each of 132 x 32 warps: 16 atomicAdds each to one global word", "cycles/atomic",
            "memory.atomic_slice_cycles", Fit::Proportional, 0, 0, 1, 16, false, 0.01},
           {"atom-spread", "132 x 1024 threads: 16 atomicAdds each, every lane its own line each step",
            "atomics/cycle", "", Fit::None, 32, (1u << 22) - 1, 0, 16, true, 1},
           {"atom-line", "132 x 32 warps: 16 atomicAdds each, the 32 lanes to 32 words of one line", "cycles/atomic",
            "", Fit::None, 1, 31, 0, 16, false, 1},
           {"atom-line-m4", "the same to 8 words of that line, 4 lanes each", "cycles/atomic", "", Fit::None, 1, 7, 0,
            16, false, 1}})
    s.push_back({c.name, c.what, c.unit, c.fits, c.fit, 1, [c](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * 4, block = 256;
                   const auto words = run.zeros(std::size_t{c.mask + 1} * 4);
                   const double cycles =
                       run.launch("mb_sync.kir", "atom_stream", blocks, block, {words, c.steps, c.stride, c.mask, c.lane0});
                   const double warps = double(blocks) * block / 32 * c.steps;
                   if (c.per_lane_rate) return cycles > 0 ? warps * 32 / cycles : 0.0;
                   return cycles / warps;
                 }, c.step});
  // Hot u32 atomics (stop 24): atom-hot's pattern (lane 0 of each warp, 16 adds to one word) with
  // integer adds, the old values unused or summed (an ATOMG with return, as set24's compaction,
  // which ran at 1.5 cycles an atomic against atom-hot's 3.5). atom-hot-u32 fits
  // memory.atomic_int_slice_cycles (1.47 on the H100: the L2's integer adder; atom-hot's f32 adds,
  // ATOM.E.ADD.F32 in its SASS, take 3.49); atom-hot-u32-ret is compared only (1.47 as well).
  for (const auto& [name, ret] : std::vector<std::pair<std::string, std::uint32_t>>{{"atom-hot-u32", 0u},
                                                                                  {"atom-hot-u32-ret", 1u}})
    s.push_back({name,
                 std::string("lane 0 of each of 132 x 32 warps: 16 u32 atomicAdds each to one global word") +
                     (ret ? ", the old values used" : ""),
                 "cycles/atomic", ret ? "" : "memory.atomic_int_slice_cycles", ret ? Fit::None : Fit::Proportional, 1,
                 [ret](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * 4, block = 256, steps = 16;
                   const auto words = run.zeros(std::size_t{1 + blocks * block} * 4);
                   const double cycles =
                       run.launch("mb_sync.kir", "atom_stream_u32", blocks, block, {words, steps, 0u, 0u, ret});
                   return cycles / (double(blocks) * block / 32 * steps);
                 }, 0.01});
  // Hot u64 atomics (stop 26, compared only): atom-hot-u32's pattern with 64-bit adds (set25's
  // reduce-u64 per warp ran 47% slower on the H100 than modelled with atom-hot-u32's rate).
  s.push_back({"atom-hot-u64", "lane 0 of each of 132 x 32 warps: 16 u64 atomicAdds each to one global word",
               "cycles/atomic", "", Fit::None, 1, [](const Target& t) {
                 Run run(t);
                 const std::uint32_t blocks = 132 * 4, block = 256, steps = 16;
                 const auto words = run.zeros(8);
                 const double cycles = run.launch("mb_sync.kir", "atom_stream_u64", blocks, block, {words, steps});
                 return cycles / (double(blocks) * block / 32 * steps);
               }});
  // Integer atomics without aggregation (compared only), 132 x 4 blocks of 256 threads, every lane
  // adding its own value 16 times; cycles per warp request, chip-wide.
  // - Many lanes on one line (stop 26's second call, atom_lanes_u32: word (lane / div) & mask): 32
  //   words (d32), 8 words 4 lanes each (m4), or one word (m32). set26's atomic_agg (8 keys of one
  //   line, u32) ran 2.5 times faster on the H100 than the model's f32 rate per busiest word.
  // - One lane a line (stop 32, atom_lines_u32: word (gid * stride) & mask): all warps the same 32
  //   (c32), 128 (c128) or 1,024 (c1024) consecutive lines, each warp's lanes 32 of them at once, or
  //   32 lines 64 KiB apart (s64k), or 256 bytes to 16 KiB apart (stop 33). set22's histogram
  //   over 1,024 bins (32 lines, a warp's keys spread
  //   over them) measured 2.2x the model's time.
  struct IntAtomCase {
    const char* name;
    const char* what;
    const char* kernel;
    std::uint32_t spread, mask;  // div or stride, and mask
  };
  for (const auto& [name, what, kernel, spread, mask] : std::vector<IntAtomCase>{
           {"atom-lanes-u32-d32", "132 x 32 warps: 16 u32 atomicAdds each, the 32 lanes to 32 words of one line",
            "atom_lanes_u32", 1, 31},
           {"atom-lanes-u32-m4", "the same to 8 words of that line, 4 lanes each", "atom_lanes_u32", 1, 7},
           {"atom-lanes-u32-m32", "the same with every lane on one word", "atom_lanes_u32", 1, 0},
           {"atom-lines-u32-c32", "132 x 32 warps: 16 u32 atomicAdds each, a lane a line, over 32 consecutive lines",
            "atom_lines_u32", 32, 1023},
           {"atom-lines-u32-c128", "the same over 128 consecutive lines", "atom_lines_u32", 32, 4095},
           {"atom-lines-u32-c1024", "the same over 1,024 consecutive lines", "atom_lines_u32", 32, 32767},
           {"atom-lines-u32-s64k", "the same over 32 lines 64 KiB apart", "atom_lines_u32", 16384, (1u << 19) - 1},
           // stop 33: where between 128 bytes (c32) and 64 KiB the lines start to spread over slices
           {"atom-lines-u32-s256", "the same over 32 lines 256 bytes apart", "atom_lines_u32", 64, 2047},
           {"atom-lines-u32-s1k", "the same over 32 lines 1 KiB apart", "atom_lines_u32", 256, 8191},
           {"atom-lines-u32-s4k", "the same over 32 lines 4 KiB apart", "atom_lines_u32", 1024, 32767},
           {"atom-lines-u32-s16k", "the same over 32 lines 16 KiB apart", "atom_lines_u32", 4096, 131071},
           // stop 34: the points between (for a slice hash fitted to the ones above, checked on these)
           {"atom-lines-u32-c64", "the same over 64 consecutive lines", "atom_lines_u32", 32, 2047},
           {"atom-lines-u32-c256", "the same over 256 consecutive lines", "atom_lines_u32", 32, 8191},
           {"atom-lines-u32-s512", "the same over 32 lines 512 bytes apart", "atom_lines_u32", 128, 4095},
           {"atom-lines-u32-s2k", "the same over 32 lines 2 KiB apart", "atom_lines_u32", 512, 16383},
           {"atom-lines-u32-s8k", "the same over 32 lines 8 KiB apart", "atom_lines_u32", 2048, 65535},
           {"atom-lines-u32-s32k", "the same over 32 lines 32 KiB apart", "atom_lines_u32", 8192, 262143}})
    s.push_back({name, what, "cycles/atomic", "", Fit::None, 1, [kernel, spread, mask](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * 4, block = 256, steps = 16;
                   const auto words = run.zeros(std::size_t{mask + 1} * 4);
                   const double cycles = run.launch("mb_sync.kir", kernel, blocks, block, {words, steps, spread, mask});
                   return cycles / (double(blocks) * block / 32 * steps);
                 }});
  // The tree step's shape if-converted (compared only; stop 22): do a skipped body's shared
  // accesses take the shared pipe with their lanes off (sm.predicated_shared_passes)?
  s.push_back({"skip-shared-32", "1024 threads loop over a guarded body of 2 shared loads, an add and a shared store every lane skips",
               "cycles/step", "", Fit::None, 1, [](const Target& t) { return skip_per_step(t, "skip_shared"); }});
  // Loop bookkeeping (compared only; stop 23): 32 warps loop over two independent f32 FMAs whose
  // constants are moved into registers in the body (loop-fma-imm, NVVM's PTX) or kept in registers
  // (loop-fma-reg); cycles per step. Two FMA slots per warp and step bound both at 16 cycles.
  for (const std::string kernel : {"loop_fma_imm", "loop_fma_reg"}) {
    std::string name = "loop-" + kernel.substr(5);
    std::replace(name.begin(), name.end(), '_', '-');
    s.push_back({name + "-32", "1024 threads loop over two f32 FMAs" +
                                   std::string(kernel == "loop_fma_imm" ? ", each constant moved in by a mov" : "") +
                                   ": cycles per step",
                 "cycles/step", "", Fit::None, 1,
                 [kernel](const Target& t) { return slowest_per_step(t, "mb_sync.kir", kernel, 1024, 256); }});
  }
  // Merged misses (compared only; stop 22): 16 warps of one block, or one warp on each of 132 SMs,
  // chase the same cold chain; cycles per load of the slowest thread. Near chase-dram if a request
  // for a line already on its way waits for it (memory.pending_fills), far below if it hits.
  for (const auto& [name, blocks, block] : std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t>>{
           {"chase-merge-w16", 1u, 512u}, {"chase-merge-sm132", 132u, 32u}})
    s.push_back({name, fmt::format("{} block(s) of {} threads chase one cold chain together", blocks, block),
                 "cycles/load", "", Fit::None, 1, [blocks, block](const Target& t) {
                   Run run(t);
                   const std::size_t bytes = 64u << 20, nodes = bytes / 128;
                   const auto base = random_cycle(run, bytes, nodes, 7).base;
                   const std::uint32_t threads = blocks * block, steps = 256;
                   const auto out = run.zeros(std::size_t{threads} * 16);
                   run.launch("mb_memory.kir", "chase_together", blocks, block, {base, out, steps});
                   return slowest(run, out, threads) / steps;
                 }});
  // One load in flight per warp: 132 x 64 x 128 B over a DRAM round trip bounds it (Little's law),
  // so it measures the DRAM latency under load (the H100: a round trip of ~950 cycles against 677
  // idle). Compared only: `--gpu-set dram_loaded_latency=307` reproduces it, but one load level
  // does not fix how that latency grows with load (docs/validation/timing.md). Four loads in
  // flight per thread fit the bandwidth.
  s.push_back({"bw-dram", "1056 x 256 threads stream 128 MiB once (grid-stride f32 loads)", "B/cycle", "", Fit::None,
               1, [](const Target& t) { return stream(t, 32u << 20, 1); }});
  s.push_back({"bw-dram-mlp4", "the same with four independent loads in flight per thread", "B/cycle",
               "memory.dram_bytes_per_cycle", Fit::Proportional, 1,
               [](const Target& t) { return stream(t, 32u << 20, 1, true); }});
  // The same with 16 warps an SM (stop 24; compared only): set24's l2norm_warp, 16 warps an SM
  // streaming rows four loads at a time, took the H100 2.3 times the model's time.
  s.push_back({"bw-dram-mlp4-w16", "bw-dram-mlp4 with 264 x 256 threads (16 warps an SM)", "B/cycle", "", Fit::None, 1,
               [](const Target& t) { return stream(t, 32u << 20, 1, true, 2); }});
  // DRAM's access unit: one 4-byte element per 32-byte sector (stride 8) against one per 128-byte
  // line (stride 32), four loads in flight per thread, 2.16 M elements each, from a cold L2. Equal
  // figures mean sector-sized DRAM reads; stride 32 at half the rate means 64-byte ones
  // (memory.dram_fetch_sectors = 2), set by hand from the ratio (docs/validation/timing.md).
  for (const std::uint32_t stride : {8u, 32u})
    s.push_back({fmt::format("bw-dram-s{}", stride),
                 fmt::format("one f32 every {} bytes, 2.16 M of them, four loads in flight per thread", stride * 4),
                 "useful B/cycle", "", Fit::None, 1, [stride](const Target& t) {
                   Run run(t);
                   // Each thread reads four elements in each of four iterations.
                   const std::uint32_t blocks = 132 * 4, block = 256, threads = blocks * block, m = 16 * threads;
                   const auto in = run.zeros(std::size_t{m} * stride * 4), out = run.zeros(std::size_t{threads} * 4);
                   const double cycles = run.launch("mb_memory.kir", "stream_stride4", blocks, block, {in, out, m, stride});
                   return cycles > 0 ? double(m) * 4 / cycles : 0.0;
                 }});
  // The DRAM round trip as the load on it grows: one load in flight per thread, 2 to 64 warps per
  // SM (compared only; docs/validation/timing.md reads the curve).
  for (const auto& [warps, blocks_per_sm, block, elements] :
       std::vector<std::array<std::uint32_t, 4>>{{2, 1, 64, 1u << 21}, {8, 1, 256, 1u << 22}, {16, 2, 256, 1u << 23},
                                                 {32, 4, 256, 1u << 24}, {64, 8, 256, 1u << 24}})
    s.push_back({fmt::format("dram-loaded-w{}", warps),
                 fmt::format("{} warps per SM, one dependent f32 load in flight per thread, grid-stride over {} MiB",
                             warps, elements >> 18),
                 "cycles/load", "", Fit::None, 1, [blocks_per_sm, block, elements](const Target& t) {
                   return dependent_stream(t, elements, blocks_per_sm, block);
                 }});
  // Where dram-loaded-w2's extra round trip comes from (stop 33, compared only): 792-802 cycles a
  // load on the H100 against chase-dram's 689 plus the loop's instructions (the model: 741). The same
  // two warps on one SM alone (-sm1), and one thread on each of the 132 SMs chasing its own random
  // chain (chase-lanes-sm132-t1: chip-wide concurrency at chase-dram's load and access size).
  s.push_back({"dram-loaded-w2-sm1", "dram-loaded-w2's 2 warps on one SM: 1 block of 64 threads, grid-stride over 128 KiB",
               "cycles/load", "", Fit::None, 1, [](const Target& t) {
                 Run run(t);
                 const std::uint32_t block = 64, elements = 1u << 15;
                 const auto in = run.zeros(std::size_t{elements} * 4), out = run.zeros(std::size_t{block} * 4);
                 const double cycles = run.launch("mb_memory.kir", "stream_dep", 1, block, {in, out, elements});
                 return cycles / (double(elements) / block);
               }});
  s.push_back({"chase-lanes-sm132-t1", "132 blocks of 1 thread, each its own stretch of one random chain over 64 MiB, cold",
               "cycles/load", "", Fit::None, 1,
               [](const Target& t) { return chase_lanes(t, 128u << 20, 524288, 132, 1, 512); }});
  s.push_back({"bw-l2-rotate", "32 warps per SM, four loads in flight per thread, 8 MiB read 8 more times from L2",
               "B/cycle", "memory.l2_bytes_per_cycle", Fit::Proportional, 1, [](const Target& t) { return l2_stream(t); }});
  // Stores: 16 MiB (fits the L2) against 256 MiB (five L2s) from a cold L2, compared only. The
  // H100 (stop 21): about 1,800 and 1,556 B/cycle, stores that stay in its write-back L2 faster
  // than DRAM; the model writes stores through to DRAM (docs/validation/timing.md).
  for (const auto& [name, mib] : std::vector<std::pair<std::string, std::uint32_t>>{{"bw-store-16m", 16u},
                                                                                    {"bw-store-256m", 256u}})
    s.push_back({name, fmt::format("132 x 8 blocks of 256 threads write {} MiB, four stores per thread a step", mib),
                 "B/cycle", "", Fit::None, 1, [mib](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * 8, block = 256, threads = blocks * block,
                                       n = mib << 18;  // f32 elements
                   const auto out = run.zeros(std::size_t{n} * 4);
                   const double cycles = run.launch("mb_write.kir", "stream_write4", blocks, block, {out, n});
                   const double written = double(four_per_step_elements(n, threads));
                   return cycles > 0 ? written * 4 / cycles : 0.0;
                 }});
  // Reads and writes together (stop 33, stream_mix4, compared only): 132 x 8 blocks of 256 threads
  // grid-stride copy 64 MiB (one read a write) or add two 64 MiB arrays into a third (two reads a write), from
  // a cold L2; bytes read and written a cycle. set28's activation and set29's to_upper (a stream in,
  // a stream out) ran at about 1,270 B/cycle on the H100, against bw-dram-mlp4's 1,506 for reads
  // alone and bw-store-256m's 1,556 for writes alone.
  // bw-copy-once: the copy by 16,384 blocks, one step each (a block a kernel's worth of elements,
  // as activation's 65,536 blocks of 256 threads have).
  for (const auto& [name, two, blocks] : std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t>>{
           {"bw-copy", 0u, 132u * 8}, {"bw-add", 1u, 132u * 8}, {"bw-copy-once", 0u, 16384u}})
    s.push_back({name, fmt::format("{} blocks of 256 threads: {} 64 MiB, four loads then four stores per thread a step",
                                   blocks, two ? "out = a + b over" : "out = a over"),
                 "B/cycle", "", Fit::None, 1, [two, blocks](const Target& t) {
                   Run run(t);
                   const std::uint32_t block = 256, threads = blocks * block, n = 16u << 20;
                   const auto a = run.zeros(std::size_t{n} * 4), b = run.zeros(std::size_t{n} * 4),
                              out = run.zeros(std::size_t{n} * 4);
                   const double cycles = run.launch("mb_write.kir", "stream_mix4", blocks, block, {a, b, out, n, two});
                   const double moved = double(four_per_step_elements(n, threads)) * 4 * (two ? 3 : 2);
                   return cycles > 0 ? moved / cycles : 0.0;
                 }});
  // The same 16 MiB written as half lines over 32 MiB (a warp's store covers two half lines, as a
  // 16x16 block of grey's does): does the L2 keep partial lines it would stream whole?
  s.push_back({"bw-store-half-16m", "132 x 8 blocks of 256 threads write 16 MiB as the first half of each line",
               "B/cycle", "", Fit::None, 1, [](const Target& t) {
                 Run run(t);
                 const std::uint32_t blocks = 132 * 8, block = 256, threads = blocks * block, n = 16u << 18;
                 const auto out = run.zeros(std::size_t{n} * 8);
                 const double cycles = run.launch("mb_write.kir", "stream_write_half4", blocks, block, {out, n});
                 const double written = double(four_per_step_elements(n, threads));
                 return cycles > 0 ? written * 4 / cycles : 0.0;
               }});
  // Random gathers (stop 23): 132 x 8 blocks of 256 threads read 2^23 f32 at scattered words
  // (gather_hash4: 32 lines a warp request, four loads in flight per thread), from a footprint that
  // stays in L1 (64 KiB), in L2 (8 MiB) or goes to DRAM (256 MiB); SM cycles per element read.
  // gather-l1 fits the L1's lookups a cycle (memory.l1_lines_per_cycle), gather-l2 the least L2
  // bandwidth one access takes (memory.l2_access_bytes), gather-dram the cost of opening a DRAM page
  // (memory.dram_page_miss_bytes: each random 64-byte fetch opens one of its own, where a stream's
  // share theirs).
  // gather-l1-few (stop 31): the L1-resident gather from 4 warps an SM (132 blocks of 128 threads,
  // 2^21 elements), what an SM's L1 serves for 32-line requests with few warps to overlap them
  // (set29's thomas over contiguous systems, 4 warps an SM, measured -44%).
  struct GatherCase {
    std::string name;
    std::uint32_t mask_bits;
    std::string what, param;
    Fit fit;
    double slope;  // Additive: cycles per element per byte (an SM's share of L2 or DRAM: 1/25 or 1/12 a byte)
    bool few = false;  // 4 warps an SM and 2^21 elements, not 64 warps and 2^23
  };
  for (const auto& [name, mask_bits, what, param, fit, slope, few] : std::vector<GatherCase>{
           {"gather-l1", 14u, "64 KiB (each SM's L1 holds it)", "memory.l1_lines_per_cycle", Fit::Inverse, 1},
           {"gather-l2", 21u, "8 MiB (L2 holds it)", "memory.l2_access_bytes", Fit::Additive, 0.04},
           {"gather-dram", 26u, "256 MiB (DRAM)", "memory.dram_page_miss_bytes", Fit::Additive, 0.085},
           {"gather-l1-few", 14u, "64 KiB", "", Fit::None, 1, true},
           // Stop 38 (compared only): the L2's capacity for lines every SM reads. One SM's chase
           // finds 40 MiB in L2 (chase-l2-40m); a gather from every SM over 16 to 128 MiB says
           // whether the chip's SMs together find as much.
           {"gather-l2-16m", 22u, "16 MiB", "", Fit::None, 1},
           {"gather-l2-32m", 23u, "32 MiB", "", Fit::None, 1},
           {"gather-l2-64m", 24u, "64 MiB", "", Fit::None, 1},
           {"gather-l2-128m", 25u, "128 MiB", "", Fit::None, 1},
           {"gather-l2-32m-few", 23u, "32 MiB", "", Fit::None, 1, true}})
    s.push_back({name,
                 fmt::format("2^{} f32 read at scattered words of {}, 32 lines a warp request{}: SM cycles per element",
                             few ? 21 : 23, what, few ? ", 4 warps an SM" : ""),
                 "cycles/element", param, fit, slope,
                 [mask_bits, few](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = few ? 132 : 132 * 8, block = few ? 128 : 256, threads = blocks * block,
                                       m = few ? 1u << 21 : 1u << 23;
                   const auto in = run.zeros(std::size_t{4} << mask_bits), out = run.zeros(std::size_t{threads} * 4);
                   const double cycles =
                       run.launch("mb_memory.kir", "gather_hash4", blocks, block, {in, out, m, (1u << mask_bits) - 1});
                   return cycles * 132 / double(four_per_step_elements(m, threads));
                 }});
  // Random scatters (stop 24): gather's addresses written, one word of a partial sector in each of a
  // warp's 32 lines (scatter_hash4), or a whole sector for each 8 lanes, 4 lines a warp request
  // (scatter_sector4), over 8 MiB (L2 holds it) or 256 MiB (DRAM); SM cycles per element written.
  // set23's scatters and the naive transpose wrote such sectors 2-3 times slower than the model.
  // scatter-l2 fits the least L2 share a store's access takes (memory.l2_store_access_bytes),
  // scatter-dram the merge read of a sector left partly written (memory.dram_merge_bytes: Nsight
  // Compute reads as many DRAM bytes as it writes there, and none for whole sectors).
  struct ScatterCase {
    std::string name, kernel;
    std::uint32_t mask_bits;
    std::string what, param;
    Fit fit;
    double slope;  // Additive: cycles per element per byte (an SM's share of L2 or DRAM: 1/26 or 1/11 a byte)
    bool few = false;  // 4 warps an SM and 2^21 elements, not 64 warps and 2^23
  };
  for (const auto& [name, kernel, mask_bits, what, param, fit, slope, few] : std::vector<ScatterCase>{
           {"scatter-l2", "scatter_hash4", 21u, "one word of 32 scattered lines a warp request, 8 MiB",
            "memory.l2_store_access_bytes", Fit::Additive, 0.038},
           {"scatter-dram", "scatter_hash4", 26u, "one word of 32 scattered lines a warp request, 256 MiB",
            "memory.dram_merge_bytes", Fit::Additive, 0.088},
           {"scatter-sector-l2", "scatter_sector4", 21u, "a whole scattered sector for each 8 lanes, 8 MiB", "", Fit::None, 1},
           {"scatter-sector-dram", "scatter_sector4", 26u, "a whole scattered sector for each 8 lanes, 256 MiB", "",
            Fit::None, 1},
           // Stop 30: 32 lines 256 bytes apart in one 8 KiB span (stride_store4), against scatter-l2's.
           {"stride-store-l2", "stride_store4", 21u, "one word of 32 lines 256 bytes apart a warp request, 8 MiB", "",
            Fit::None, 1},
           // Stop 31: the same from 4 warps an SM, as set29's thomas over contiguous systems stores its rows.
           {"stride-store-l2-few", "stride_store4", 21u,
            "one word of 32 lines 256 bytes apart a warp request, 8 MiB, 4 warps an SM", "", Fit::None, 1, true}})
    s.push_back({name, fmt::format("2^{} f32 written, {}: SM cycles per element", few ? 21 : 23, what), "cycles/element",
                 param, fit, slope, [kernel, mask_bits, few](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = few ? 132 : 132 * 8, block = few ? 128 : 256, threads = blocks * block,
                                       m = few ? 1u << 21 : 1u << 23;
                   const auto out = run.zeros(std::size_t{4} << mask_bits);
                   const double cycles = run.launch("mb_write.kir", kernel, blocks, block, {out, m, (1u << mask_bits) - 1});
                   return cycles * 132 / double(four_per_step_elements(m, threads));
                 }});
  // Back-to-back stores from few warps (stop 31, store_lines): cycles per warp store, the slowest
  // warp's, each warp 1,024 stores of one word of 32 lines 256 bytes apart (store-lines-*), or of one
  // line (store-line-*), all in L2; one warp, 4 warps and 16 warps of one SM, and 4 warps on every SM.
  // store-lines-w4 fits memory.store_line_cycles (4 warps x 32 lines a store of each);
  // store-lines-s33-w4 (lanes 132 bytes apart, 32 banks) says it is the lines, not the bank's passes.
  // stride-store-l2-few (4 warps an SM) measured 5.3 cycles an element where 64 warps take 4.7.
  struct StoreCase {
    const char* name;
    std::uint32_t blocks, threads, stride;
    const char* param = "";  // "" when compared only
  };
  for (const auto& [name, blocks, threads, stride, param] :
       std::vector<StoreCase>{{"store-lines-w1", 1, 32, 64}, {"store-lines-w4", 1, 128, 64, "memory.store_line_cycles"},
                              {"store-lines-w16", 1, 512, 64}, {"store-lines-sm132-w4", 132, 128, 64},
                              {"store-line-w1", 1, 32, 1}, {"store-line-w4", 1, 128, 1},
                              {"store-lines-s33-w4", 1, 128, 33}})
    s.push_back({name,
                 fmt::format("{} block(s) of {} threads, back-to-back stores of one word of {} a warp store",
                             blocks, threads,
                             stride == 1 ? "one line" : stride == 33 ? "32 lines 132 bytes apart (32 banks)" : "32 lines 256 bytes apart"),
                 "cycles/store", param, *param != 0 ? Fit::Additive : Fit::None, 128,
                 [blocks, threads, stride](const Target& t) {
                   Run run(t);
                   const std::uint32_t steps = 1024, total = blocks * threads;
                   const auto out = run.zeros((std::size_t{total} * stride + steps) * 4);
                   const auto times = run.zeros(std::size_t{total} * 16);
                   run.launch("mb_write.kir", "store_lines", blocks, threads, {out, times, stride, steps});
                   return slowest(run, times, total) / steps;
                 },
                 0.01});
  // A DRAM stream with two 32-way conflicted shared loads a trip beside its four global loads
  // (stop 24; set23's transpose through an unpadded tile was slower than its shared passes and its
  // DRAM traffic overlapped would make it): B/cycle read, against bw-dram's stream alone.
  s.push_back({"stream-conflict-dram", "256 MiB read, 4 loads and 2 conflicted shared loads (32 passes) a trip", "B/cycle", "",
               Fit::None, 1, [](const Target& t) {
                 Run run(t);
                 const std::uint32_t blocks = 132 * 8, block = 256, threads = blocks * block, n = 64u << 20;
                 const auto in = run.zeros(std::size_t{n} * 4), out = run.zeros(std::size_t{threads} * 4);
                 const double cycles = run.launch("mb_memory.kir", "stream_conflict4", blocks, block, {in, out, n});
                 return cycles > 0 ? double(four_per_step_elements(n, threads)) * 4 / cycles : 0.0;
               }});
  // Passes 2 to 8 read what each SM read in pass 1 (63 KiB per SM, under the L1's size), so the
  // figure mixes L1 and L2 and fits no parameter; memory.l2_bytes_per_cycle keeps its source.
  s.push_back({"bw-l2", "the same over 8 MiB, 8 passes", "B/cycle", "", Fit::None, 1,
               [](const Target& t) { return stream(t, 2u << 20, 8); }});
  add_stop34(s);
  add_stop35(s);
  add_stop36(s);
  add_stop37(s);
  return s;
}

}  // namespace

const std::vector<BenchInfo>& suite() {
  static const std::vector<BenchInfo> s = make_suite();
  return s;
}

const BenchInfo* find_bench(const std::string& name) {
  for (const auto& b : suite())
    if (b.name == name) return &b;
  return nullptr;
}

}  // namespace warpsim::calib
