// Stop 35's microbenchmarks (compared only), kept beside suite.cpp's list: what the L1 takes for a
// warp load over few lines or at a stride, when its lanes read only some of the sectors' bytes.
#include "tools/calibrate/suite_run.hpp"

namespace warpsim::calib::suite_detail {

namespace {

// One block of `lanes` threads, each chasing its own stretch of one random cycle of u64 slots (every
// 8-byte word of a `bytes` buffer a node), so each warp load reads 32 distinct words scattered over
// the buffer's lines; the L1 holds it after the first steps. Cycles per load of the slowest lane.
double chase_slots(const Target& t, std::size_t bytes, std::uint32_t lanes, std::uint32_t steps) {
  Run run(t);
  const std::size_t nodes = bytes / 8;
  Cycle cycle;
  cycle.base = run.zeros(bytes);
  cycle.order = chain_order(nodes, 42, true);
  std::vector<std::uint64_t> words(nodes, 0);
  for (std::size_t i = 0; i < nodes; ++i)
    words[cycle.order[i]] = cycle.base + std::uint64_t{cycle.order[(i + 1) % nodes]} * 8;
  run.write(cycle.base, words);
  return chase_stretches(run, cycle, 8, 1, lanes, steps);
}

}  // namespace

void add_stop35(std::vector<BenchInfo>& s) {
  // set28's sbox from global memory (a 256-word table, 32 random words a warp load) ran 1.5-1.6x
  // faster on the H100 than the model. 132 x 8 blocks of 256 threads read 2^23 f32 (gather_mul4,
  // four loads in flight a thread) from an L1-resident footprint; SM cycles per element.
  // gather-l1-b5..b10: 32 distinct words of a 2^b-word table a warp load (1, 2, 4, 8, 16, 32 lines).
  // stride-l1-s2..s33: lanes s words apart within 64 KiB (s = 2: 2 lines, every sector; 8: 8 lines,
  // a word of each sector; 32: 32 lines, a line's first word each; 33: 32 lines, 32 banks).
  struct GatherCase {
    std::string name;
    std::uint32_t bits, mult;
    std::string what;
  };
  std::vector<GatherCase> cases;
  for (std::uint32_t bits = 5; bits <= 10; ++bits)
    cases.push_back({fmt::format("gather-l1-b{}", bits), bits, 0x9e3779b1u,
                     fmt::format("32 distinct words of a {}-word table ({} line(s)) a warp load", 1u << bits, 1u << (bits - 5))});
  for (const std::uint32_t stride : {2u, 4u, 8u, 16u, 32u, 33u})
    cases.push_back({fmt::format("stride-l1-s{}", stride), 14u, stride,
                     fmt::format("lanes {} words apart within 64 KiB", stride)});
  for (const auto& c : cases)
    s.push_back({c.name, fmt::format("2^23 f32 read, {}, L1-resident: SM cycles per element", c.what), "cycles/element", "",
                 Fit::None, 1, [c](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * 8, block = 256, threads = blocks * block, m = 1u << 23;
                   const auto in = run.zeros(std::size_t{4} << c.bits), out = run.zeros(std::size_t{threads} * 4);
                   const double cycles =
                       run.launch("mb_l1.kir", "gather_mul4", blocks, block, {in, out, m, (1u << c.bits) - 1, c.mult});
                   return cycles * 132 / double(four_per_step_elements(m, threads));
                 }});
  // Rows of a 2D tile (rows_read4): a warp load reads `rows` rows 33 lines apart, 128 / rows bytes of
  // each, from 64 KiB (L1) or 8 MiB (L2), as 8x8 and 32x8 blocks read a row-major image. set27's
  // tiled matmul at TILE=8 (a warp's loads over 4 lines, a sector each) ran 1.38x slower than at
  // TILE=16 (2 lines, 2 sectors each) on the H100 and 1.30x in the model. SM cycles per element.
  for (const auto& [l2, rows] : std::vector<std::pair<bool, std::uint32_t>>{
           {false, 1}, {false, 4}, {false, 8}, {true, 1}, {true, 2}, {true, 4}, {true, 8}, {true, 32}})
    s.push_back({fmt::format("rows-{}-r{}", l2 ? "l2" : "l1", rows),
                 fmt::format("2^23 f32 read, {} row(s) of {} bytes a warp load, 33 lines apart, within {}: SM cycles per element",
                             rows, 128 / rows, l2 ? "8 MiB (L2)" : "64 KiB (L1)"),
                 "cycles/element", "", Fit::None, 1, [l2, rows](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * 8, block = 256, threads = blocks * block, m = 1u << 23;
                   const std::uint32_t bits = l2 ? 21 : 14, shift = std::countr_zero(32u / rows);
                   const auto in = run.zeros(std::size_t{4} << bits), out = run.zeros(std::size_t{threads} * 4);
                   const double cycles = run.launch("mb_l1.kir", "rows_read4", blocks, block,
                                                    {in, out, m, (1u << bits) - 1, rows, shift, 33 * 32});
                   return cycles * 132 / double(four_per_step_elements(m, threads));
                 }});
  // One data pipe or two (pipe_mix): 64 warps an SM, each trip four L1-hit global loads over 4 rows
  // (4 passes of 8 banks each) or 1 line (one pass), eight conflict-free shared loads, or both. In
  // Nsight Compute set27's tiled matmul at TILE=8 keeps the L1's data pipe 85% busy with its shared
  // loads' wavefronts and its global loads' passes together. SM cycles per warp trip.
  for (const auto& [name, shift, global, shared] : std::vector<std::tuple<std::string, std::uint32_t, bool, bool>>{
           {"pipe-rows4", 3, true, false}, {"pipe-rows1", 5, true, false}, {"pipe-shared", 3, false, true},
           {"pipe-rows4-shared", 3, true, true}, {"pipe-rows1-shared", 5, true, true}})
    s.push_back({name,
                 fmt::format("64 warps an SM, each trip {}{}{}: SM cycles per warp trip",
                             global ? (shift == 3 ? "4 global loads over 4 rows (4 bank passes each)" : "4 coalesced global loads") : "",
                             global && shared ? " and " : "", shared ? "8 conflict-free shared loads" : ""),
                 "cycles/trip", "", Fit::None, 1, [shift, global, shared](const Target& t) {
                   Run run(t);
                   const std::uint32_t blocks = 132 * 8, block = 256, trips = 256;
                   const auto in = run.zeros(std::size_t{64} << 10), out = run.zeros(std::size_t{blocks} * block * 4);
                   const double cycles = run.launch("mb_l1.kir", "pipe_mix", blocks, block,
                                                    {in, out, trips, shift, global ? 1u : 0u, shared ? 1u : 0u});
                   return cycles / (64.0 * trips);
                 }});
  // One warp's dependent loads of 32 distinct u64 words of a table the L1 holds: 256 bytes (every word
  // of 2 lines once), 1 KiB (8 lines, as sbox's table) or 4 KiB (32 lines); cycles per load.
  for (const std::uint32_t bytes : {256u, 1024u, 4096u})
    s.push_back({fmt::format("chase-slots-{}", bytes), fmt::format("one warp, each lane its own stretch of one random cycle of the u64 words of {} bytes (L1)", bytes),
                 "cycles/load", "", Fit::None, 1, [bytes](const Target& t) { return chase_slots(t, bytes, 32, 4096); }});
}

}  // namespace warpsim::calib::suite_detail
