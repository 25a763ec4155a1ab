// Stop 34's microbenchmarks (compared only), kept beside suite.cpp's list: the pieces of
// dram-loaded-w2's round trip, and a block's lifetime against its size.
#include "tools/calibrate/suite_run.hpp"

namespace warpsim::calib::suite_detail {

namespace {

// One thread's chase over 524,288 lines of a 128 MiB buffer, cold, through f32 word indices
// (chase_f32: buf[i] holds the next i); random order or consecutive lines; cycles per load.
double chase_f32(const Target& t, bool shuffled) {
  constexpr std::size_t bytes = 128u << 20, nodes = 524288;
  constexpr std::uint32_t steps = 2048;
  Run run(t);
  const auto order = chain_order(nodes, 42, shuffled);
  std::vector<float> words(bytes / 4, 0.0f);
  for (std::size_t i = 0; i < nodes; ++i) words[std::size_t{order[i]} * 32] = float(order[(i + 1) % nodes] * 32u);
  const auto buf = run.upload(words);
  const auto out = run.zeros(16);
  run.launch("mb_memory.kir", "chase_f32", 1, 1, {buf, out, 0, steps});
  return double(run.read_u64(out, 1)[0]) / steps;
}

}  // namespace

void add_stop34(std::vector<BenchInfo>& s) {
  // dram-loaded-w2 (two warps an SM, each loading the next line of a grid-stride stream, its value
  // converted into the next index) takes 792-804 cycles a load on the H100 and 741 in the model;
  // chase-dram (one thread, u64 pointers, random lines) 684 on both. Which of the stream's
  // differences costs the 110: its addresses from a cvt (chase-dram-f32), lines in order
  // (chase-dram-seq, -seq-f32), or the conversion itself (dram-loaded-w2-sm1-u32: the same stream
  // with u32 words added into the index, beside dram-loaded-w2-sm1).
  for (const auto& [name, shuffled, f32] : std::vector<std::tuple<std::string, bool, bool>>{
           {"chase-dram-f32", true, true}, {"chase-dram-seq", false, false}, {"chase-dram-seq-f32", false, true}})
    s.push_back({name,
                 fmt::format("one thread, {} chase over 64 MiB of a 128 MiB buffer through {}, cold",
                             shuffled ? "random" : "consecutive-line", f32 ? "f32 word indices (cvt)" : "u64 pointers"),
                 "cycles/load", "", Fit::None, 1, [shuffled, f32](const Target& t) {
                   return f32 ? chase_f32(t, shuffled) : chase_global(t, 128u << 20, 524288, 0, 2048, 1, shuffled);
                 }});
  for (const std::uint32_t lanes : {1u, 8u, 32u})
    s.push_back({fmt::format("chase-l2-lanes{}", lanes),
                 fmt::format("one warp, random chase over 4 MiB, warmed by a pass, {} lanes reading {} bytes of each line",
                             lanes, lanes * 4),
                 "cycles/load", "", Fit::None, 1,
                 [lanes](const Target& t) { return line_chase(t, 4u << 20, 32768, lanes, 32768, 4096); }});
  // dram-loaded-w2-sm1-u32: dram-loaded-w2-sm1 with u32 words added into the index (no cvt); -w1-
  // and -w4- (after stop 34's model was final): one warp, or four, on the SM, 512 loads each.
  for (const std::uint32_t warps : {2u, 1u, 4u})
    s.push_back({fmt::format("dram-loaded-w{}-sm1-u32", warps),
                 fmt::format("{} warp(s) on one SM: 1 block of {} threads, grid-stride over {} KiB of u32 words added "
                             "into the index (no cvt)",
                             warps, warps * 32, warps * 64),
                 "cycles/load", "", Fit::None, 1, [warps](const Target& t) {
                   Run run(t);
                   const std::uint32_t block = 32 * warps, elements = block * 512;
                   const auto in = run.zeros(std::size_t{elements} * 4), out = run.zeros(std::size_t{block} * 4);
                   const double cycles = run.launch("mb_memory.kir", "stream_dep_u32", 1, block, {in, out, elements});
                   return cycles / (double(elements) / block);
                 }});
  // A block's lifetime: set25's stencil7_smem (a load a thread, a barrier, a store) took 2,095 cycles
  // a block slot with 256-thread blocks, 2,208 with 512 and 2,435 with 1,024 on the H100 (at 64 warps
  // an SM each); the model ran the larger blocks faster. 2^24 threads each load a word from DRAM
  // (or from 4 MiB in L2: -l2) and pass a barrier (or not: -nobar), storing nothing; cycles a wave
  // (the kernel's cycles over its 62 waves of 2,048 threads on each of the 132 SMs).
  for (const auto& [name, kernel, mask, block] : std::vector<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t>>{
           {"lifetime-bar-b128", "load_bar", ~0u, 128u}, {"lifetime-bar-b256", "load_bar", ~0u, 256u},
           {"lifetime-bar-b512", "load_bar", ~0u, 512u}, {"lifetime-bar-b1024", "load_bar", ~0u, 1024u},
           {"lifetime-nobar-b256", "load_word", ~0u, 256u}, {"lifetime-nobar-b1024", "load_word", ~0u, 1024u},
           {"lifetime-l2-bar-b256", "load_bar", (1u << 20) - 1, 256u},
           {"lifetime-l2-bar-b1024", "load_bar", (1u << 20) - 1, 1024u}})
    s.push_back({name,
                 fmt::format("2^24 threads in blocks of {}: each loads a word from {}{}, stores nothing", block,
                             mask == ~0u ? "DRAM" : "4 MiB (L2)", kernel == "load_bar" ? ", passes bar.sync" : ""),
                 "cycles/wave", "", Fit::None, 1, [kernel, mask, block](const Target& t) {
                   Run run(t);
                   const std::uint32_t n = 1u << 24;
                   const auto in = run.zeros(std::size_t{n} * 4), out = run.zeros(std::size_t{n} * 4);
                   const double cycles = run.launch("mb_sync.kir", kernel, n / block, block, {in, out, mask});
                   return cycles / (double(n) / (132.0 * 2048));
                 }});
  for (const auto& [name, kernel, blocks, block] : std::vector<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t>>{
           {"dispatch-256", "empty", 16384u, 256u}, {"dispatch-bar-256", "bar_exit", 16384u, 256u},
           {"dispatch-bar-1024", "bar_exit", 4096u, 1024u}, {"dispatch-sreg-256", "sreg_exit", 16384u, 256u},
           {"dispatch-sreg-1024", "sreg_exit", 4096u, 1024u}, {"dispatch-tid-1024", "tid_exit", 4096u, 1024u},
           {"dispatch-ctaid-1024", "ctaid_exit", 4096u, 1024u}, {"dispatch-param-1024", "param_exit", 4096u, 1024u}})
    s.push_back({name,
                 fmt::format("{} {} blocks of {} threads: cycles per block, chip-wide", blocks,
                             kernel == "empty" ? "empty" : kernel == "bar_exit" ? "barrier-and-exit" : kernel + ", then barrier-and-exit", block),
                 "cycles/block", "", Fit::None, 1, [kernel, blocks, block](const Target& t) {
                   Run run(t);
                   const std::string file = kernel == "empty" ? "mb_memory.kir" : "mb_sync.kir";
                   std::vector<std::uint64_t> args{run.zeros(4)};
                   if (kernel == "param_exit") args.push_back(0);
                   return run.launch(file, kernel, blocks, block, args) / blocks;
                 }});
  // Inside a block: block_clock's warps read %clock64 as they start and after the barrier. -start:
  // the last warp's start less the first's, averaged over the blocks of the grid's second half
  // (slots freed and refilled); -life: the last warp past the barrier less the first warp's start.
  // -first: the grid is one block an SM (started together on idle SMs).
  for (const auto& [name, mask, block, life, first] : std::vector<std::tuple<std::string, std::uint32_t, std::uint32_t, bool, bool>>{
           {"block-start-l2-b256", (1u << 20) - 1, 256u, false, false}, {"block-start-l2-b1024", (1u << 20) - 1, 1024u, false, false},
           {"block-life-l2-b256", (1u << 20) - 1, 256u, true, false}, {"block-life-l2-b1024", (1u << 20) - 1, 1024u, true, false},
           {"block-start-dram-b1024", ~0u, 1024u, false, false}, {"block-life-dram-b1024", ~0u, 1024u, true, false},
           {"block-life-dram-b256", ~0u, 256u, true, false},
           {"block-start-first-b1024", ~0u, 1024u, false, true}, {"block-life-first-b1024", ~0u, 1024u, true, true}})
    s.push_back({name,
                 fmt::format("{} blocks of {} threads load a word from {}, pass bar.sync: {}", first ? "132" : "2^24 threads in", block,
                             mask == ~0u ? "DRAM" : "4 MiB (L2)",
                             life ? "cycles from a block's first warp starting to its last passing the barrier"
                                  : "cycles from a block's first warp starting to its last"),
                 "cycles", "", Fit::None, 1, [mask, block, life, first](const Target& t) {
                   Run run(t);
                   const std::uint32_t n = first ? 132 * block : 1u << 24, blocks = n / block, warps = block / 32;
                   const auto in = run.zeros(std::size_t{n} * 4), out = run.zeros(std::size_t{n} / 32 * 16),
                              sink = run.zeros(std::size_t{n} * 4);
                   run.launch("mb_sync.kir", "block_clock", blocks, block, {in, out, sink, mask});
                   const auto clocks = run.read_u64(out, std::size_t{n} / 32 * 2);
                   double sum = 0;
                   const std::uint32_t from = first ? 0 : blocks / 2;
                   for (std::uint32_t b = from; b < blocks; ++b) {
                     std::uint64_t start_lo = ~0ull, start_hi = 0, end_hi = 0;
                     for (std::uint32_t w = 0; w < warps; ++w) {
                       const std::size_t k = (std::size_t{b} * warps + w) * 2;
                       start_lo = std::min(start_lo, clocks[k]);
                       start_hi = std::max(start_hi, clocks[k]);
                       end_hi = std::max(end_hi, clocks[k + 1]);
                     }
                     sum += double((life ? end_hi : start_hi) - start_lo);
                   }
                   return sum / (blocks - from);
                 }});
}

}  // namespace warpsim::calib::suite_detail
