// Stop 37's microbenchmarks (compared only), kept beside suite.cpp's list: integer atomics by
// operation (kernels/microbench/mb_atom.kir). The model gives every integer atomic the L2's add turn
// (memory.atomic_int_slice_cycles, fitted to atom-hot-u32); these say whether a min, max, CAS, or,
// exchange or increment takes the same turn on the GPU, and what reduce_u64's three words per warp
// cost together.
#include "tools/calibrate/suite_run.hpp"

namespace warpsim::calib::suite_detail {

namespace {

constexpr std::uint32_t kBlocks = 132 * 4, kBlock = 256, kSteps = 16;
constexpr double kWarpSteps = double(kBlocks) * kBlock / 32 * kSteps;

}  // namespace

void add_stop37(std::vector<BenchInfo>& s) {
  for (const char* op : {"min", "max", "cas", "or", "exch", "inc"})
    s.push_back({fmt::format("atom-hot-{}-u32", op),
                 fmt::format("lane 0 of each of 132 x 32 warps: 16 u32 atom.{} each to one global word", op),
                 "cycles/atomic", "", Fit::None, 1,
                 [kernel = fmt::format("atom_hot_{}", op)](const Target& t) {
                   Run run(t);
                   const auto words = run.zeros(4);
                   return run.launch("mb_atom.kir", kernel, kBlocks, kBlock, {words, kSteps}) / kWarpSteps;
                 },
                 0.01});
  // atom-lines-u32-c1024's pattern (1.20 cycles a warp request on the H100, which suite.cpp's unit
  // calls cycles/atomic) with a CAS or a max.
  for (const char* op : {"cas", "max"})
    s.push_back({fmt::format("atom-lines-{}-c1024", op),
                 fmt::format("132 x 32 warps: 16 u32 atom.{} each, a lane a line, over 1,024 consecutive lines", op),
                 "cycles/request", "", Fit::None, 1,
                 [kernel = fmt::format("atom_lines_{}", op)](const Target& t) {
                   Run run(t);
                   constexpr std::uint32_t mask = 32767;
                   const auto words = run.zeros(std::size_t{mask + 1} * 4);
                   return run.launch("mb_atom.kir", kernel, kBlocks, kBlock, {words, kSteps, 32u, mask}) / kWarpSteps;
                 },
                 0.01});
  // reduce_u64's per-warp atomics alone: three words in three allocations, a u64 add, a u32 min and
  // a u32 max (mixed), or three u32 adds; cycles per warp step (three atomics).
  for (const auto& [name, mixed] : std::vector<std::pair<std::string, std::uint32_t>>{{"atom-hot3-addminmax", 1u},
                                                                                    {"atom-hot3-add", 0u}})
    s.push_back({name,
                 std::string("lane 0 of each of 132 x 32 warps, 16 times: ") +
                     (mixed ? "a u64 add, a u32 min and a u32 max" : "three u32 adds") + " to three one-word buffers",
                 "cycles/step", "", Fit::None, 1,
                 [mixed](const Target& t) {
                   Run run(t);
                   const auto sum = run.zeros(8), lo = run.zeros(4), hi = run.zeros(4);
                   return run.launch("mb_atom.kir", "atom_hot3", kBlocks, kBlock, {sum, lo, hi, kSteps, mixed}) /
                          kWarpSteps;
                 },
                 0.01});
}

}  // namespace warpsim::calib::suite_detail
