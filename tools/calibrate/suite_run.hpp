// How `warpsim calibrate`'s microbenchmarks run (suite.cpp lists them): a fresh device a run, its
// allocations and launches (Run), and the measurements several of them share (a chain's latency, a
// chase, a stream's bytes a cycle, the slowest thread's figure). Included by suite.cpp only.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/library.hpp"
#include "tools/calibrate/suite.hpp"

namespace warpsim::calib::suite_detail {

// One microbenchmark run: a fresh device, its allocations and launches.
class Run {
 public:
  explicit Run(const Target& target) : target_(target), device_(target.make_device()) {}
  std::uint64_t zeros(std::size_t bytes) { return device_->allocate(bytes, fmt::format("mb{}", count_++)); }
  template <typename T>
  std::uint64_t upload(const std::vector<T>& data) {
    const auto address = zeros(data.size() * sizeof(T));
    device_->write(address, std::as_bytes(std::span(data)));
    return address;
  }
  void write(std::uint64_t address, const std::vector<std::uint64_t>& data) {
    device_->write(address, std::as_bytes(std::span(data)));
  }
  std::vector<std::uint64_t> read_u64(std::uint64_t address, std::size_t count) {
    std::vector<std::uint64_t> out(count);
    device_->read(address, std::as_writable_bytes(std::span(out)));
    return out;
  }
  // Launches and returns the kernel's time in cycles (hardware: kernel_ms less launch overhead).
  double launch(const std::string& file, const std::string& kernel, std::uint32_t grid, std::uint32_t block,
                std::vector<std::uint64_t> args) {
    auto& k = kernels_.emplace_back(kernels::load_embedded("microbench/" + file, kernel));
    LaunchSpec spec;
    spec.kernel = k->kernel;
    spec.analysis = &k->analysis;
    spec.file = k->file;
    spec.source_text = k->text;
    spec.grid = Dim3{grid, 1, 1};
    spec.block = Dim3{block, 1, 1};
    spec.args = std::move(args);
    const auto result = device_->launch(spec);
    if (target_.hardware) return std::max(0.0, result.stats.kernel_ms * 1e3 - target_.launch_us) * target_.clock_mhz;
    return static_cast<double>(result.stats.timing.cycles);
  }

 private:
  const Target& target_;
  std::unique_ptr<Device> device_;
  std::vector<std::unique_ptr<kernels::LoadedKernel>> kernels_;
  int count_ = 0;
};

inline std::uint64_t f32(float f) {
  return std::bit_cast<std::uint32_t>(f);
}

// The slowest thread's figure: each thread wrote two words (its figure first) at out + 16 x thread.
inline double slowest(Run& run, std::uint64_t out, std::uint32_t threads) {
  const auto words = run.read_u64(out, std::size_t{threads} * 2);
  std::uint64_t longest = 0;
  for (std::size_t i = 0; i < threads; ++i) longest = std::max(longest, words[2 * i]);
  return double(longest);
}

// One block of `threads` running `kernel(out, steps)`, each thread writing its cycles at out + 16 x
// thread: the slowest thread's cycles over `steps`.
inline double slowest_per_step(const Target& t, const std::string& file, const std::string& kernel, std::uint32_t threads,
                        std::uint32_t steps) {
  Run run(t);
  const auto out = run.zeros(std::size_t{threads} * 16);
  run.launch(file, kernel, 1, threads, {out, steps});
  return slowest(run, out, threads) / steps;
}

// The if-conversion loops of mb_sync.kir (skip_body, skip_shared): 1024 threads, 256 steps of a
// guarded body under a key no step reaches, so every lane skips it; cycles per step.
inline double skip_per_step(const Target& t, const std::string& kernel) {
  Run run(t);
  const std::uint32_t threads = 1024, steps = 256;
  const auto out = run.zeros(std::size_t{threads} * 16);
  run.launch("mb_sync.kir", kernel, 1, threads, {out, steps, 0xffffffffu});
  return slowest(run, out, threads) / steps;
}

constexpr std::uint32_t kChainOps = 16;  // instructions per round of the generated chains

// Chain arguments (a, b) per class: values that stay finite, non-zero and unfoldable.
inline std::array<std::uint64_t, 2> chain_args(const std::string& cls) {
  if (cls == "idiv") return {0xffffffffu, 3};
  if (cls == "imul") return {3, 0};
  if (cls == "imul64") return {3, 5};  // x * ((5 << 32) + 3): odd, so the chain never reaches 0
  if (cls == "fp32" || cls == "fp64") return {f32(1.0f), f32(0.5f)};
  if (cls == "fdiv" || cls == "ddiv" || cls == "drcp") return {f32(1.5f), f32(1.0f)};
  if (cls == "sfu" || cls == "dsqrt") return {f32(2.0f), f32(0.0f)};
  if (cls == "cvt") return {1000, 0};
  if (cls == "vote") return {1, 0};
  return {0x9e3779b9u, 7};
}

// Cycles per dependent instruction of one warp's chain.
inline double chain_latency(const Target& t, const std::string& cls) {
  Run run(t);
  const std::uint32_t rounds = 64;
  const auto out = run.zeros(32 * 16), sink = run.zeros(32 * 4);
  const auto [a, b] = chain_args(cls);
  run.launch("mb_chain_" + cls + ".kir", "lat_" + cls, 1, 32, {out, sink, rounds, a, b});
  const auto clocks = run.read_u64(out, 2);
  return double(clocks[1] - clocks[0]) / (rounds * kChainOps);
}

// Cycles per warp instruction per sub-partition: 32 warps of four independent chains each.
inline double chain_throughput(const Target& t, const std::string& cls) {
  Run run(t);
  const std::uint32_t rounds = 16, threads = 1024;
  const auto out = run.zeros(threads * 16), sink = run.zeros(threads * 4);
  const auto [a, b] = chain_args(cls);
  run.launch("mb_chain_" + cls + ".kir", "tput_" + cls, 1, threads, {out, sink, rounds, a, b});
  const auto clocks = run.read_u64(out, threads * 2);
  std::uint64_t first = clocks[0], last = clocks[1];
  for (std::size_t i = 0; i < threads; ++i)
    first = std::min(first, clocks[2 * i]), last = std::max(last, clocks[2 * i + 1]);
  const double longest = double(last - first);  // first start to last end: the SM's time
  return longest / (double(rounds) * kChainOps * (threads / 32) / 4);
}

// One random cycle through `nodes` lines of a zeroed buffer of `bytes`, `spacing` lines apart from
// its start: each node's first word holds the next node's address; node 0 (the buffer's start)
// begins it. `order` is the cycle.
// The order a chain visits `nodes` nodes in: node 0 first, the rest shuffled by `seed` or in turn.
inline std::vector<std::uint32_t> chain_order(std::size_t nodes, std::uint64_t seed = 42, bool shuffled = true) {
  std::vector<std::uint32_t> order(nodes);
  std::iota(order.begin(), order.end(), 0u);
  if (shuffled) {
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin() + 1, order.end(), rng);
  }
  return order;
}

struct Cycle {
  std::uint64_t base = 0;
  std::vector<std::uint32_t> order;
};
// A cyclic chain of u64 pointers over `nodes` lines `spacing` lines apart in a buffer of `bytes`.
inline Cycle random_cycle(Run& run, std::size_t bytes, std::size_t nodes, std::uint64_t seed, std::size_t spacing = 1,
                          bool shuffled = true) {
  Cycle c;
  c.base = run.zeros(bytes);
  std::vector<std::uint64_t> buffer(bytes / 8, 0);
  c.order = chain_order(nodes, seed, shuffled);
  for (std::size_t i = 0; i < nodes; ++i)
    buffer[std::size_t{c.order[i]} * spacing * 16] = c.base + std::uint64_t{c.order[(i + 1) % nodes]} * spacing * 128;
  run.write(c.base, buffer);
  return c;
}

// A cyclic pointer chase over `nodes` lines (random order, or consecutive lines) `spacing` lines
// apart from the start of a buffer of `bytes`; cycles per dependent load after `warm` untimed steps
// by one thread.
inline double chase_global(const Target& t, std::size_t bytes, std::size_t nodes, std::uint32_t warm, std::uint32_t steps,
                           std::size_t spacing = 1, bool shuffled = true) {
  Run run(t);
  const auto base = random_cycle(run, bytes, nodes, 42, spacing, shuffled).base;
  const auto out = run.zeros(16);
  run.launch("mb_memory.kir", "chase_global", 1, 1, {base, out, warm, steps});
  return double(run.read_u64(out, 1)[0]) / steps;
}

// One warp's chase of `nodes` random lines of a buffer of `bytes` (word 0 of each node holds the
// next node's offset in u32 words), `lanes` lanes reading each line: chase_line cold, or
// chase_line_warm after `warm` untimed steps; cycles per dependent load over `steps`.
inline double line_chase(const Target& t, std::size_t bytes, std::size_t nodes, std::uint32_t lanes, std::uint32_t warm,
                         std::uint32_t steps) {
  Run run(t);
  const auto base = run.zeros(bytes);
  const auto order = chain_order(nodes);
  std::vector<std::uint64_t> words(bytes / 8, 0);  // pairs of u32 words, little-endian
  for (std::size_t i = 0; i < nodes; ++i) words[std::size_t{order[i]} * 16] = std::uint64_t{order[(i + 1) % nodes]} * 32;
  run.write(base, words);
  const auto out = run.zeros(16);
  if (warm == 0)
    run.launch("mb_memory.kir", "chase_line", 1, 32, {base, out, lanes, steps});
  else
    run.launch("mb_memory.kir", "chase_line_warm", 1, 32, {base, out, lanes, warm, steps});
  return double(run.read_u64(out, 1)[0]) / steps;
}

// `blocks` x `threads` threads each chasing its own stretch of `cycle` (its nodes `node_bytes`
// apart from its base), thread g from node g x (nodes / threads) of its order (chase_lanes): cycles
// per dependent load of the slowest thread.
inline double chase_stretches(Run& run, const Cycle& cycle, std::size_t node_bytes, std::uint32_t blocks,
                              std::uint32_t threads, std::uint32_t steps) {
  const auto& order = cycle.order;
  const std::size_t nodes = order.size();
  const std::uint32_t total = blocks * threads;
  std::vector<std::uint64_t> starts(total);
  for (std::uint32_t g = 0; g < total; ++g)
    starts[g] = cycle.base + std::uint64_t{order[std::size_t{g} * (nodes / total)]} * node_bytes;
  const auto first = run.zeros(std::size_t{total} * 8);
  run.write(first, starts);
  const auto out = run.zeros(std::size_t{total} * 16);
  run.launch("mb_memory.kir", "chase_lanes", blocks, threads, {first, out, steps});
  const auto clocks = run.read_u64(out, std::size_t{total} * 2);
  std::uint64_t most = 0;
  for (std::uint32_t g = 0; g < total; ++g) most = std::max(most, clocks[2 * g]);
  return double(most) / steps;
}

// `blocks` x `threads` threads each chasing its own stretch of one random cycle over `nodes` lines of
// a buffer of `bytes` (cold): cycles per dependent load of the slowest thread.
inline double chase_lanes(const Target& t, std::size_t bytes, std::size_t nodes, std::uint32_t blocks, std::uint32_t threads,
                          std::uint32_t steps) {
  Run run(t);
  return chase_stretches(run, random_cycle(run, bytes, nodes, 42), 128, blocks, threads, steps);
}

// One warp chasing through shared memory at `stride` words between lanes: cycles per load.
inline double chase_shared(const Target& t, std::uint32_t stride) {
  Run run(t);
  const std::uint32_t steps = 64;  // four loads each
  const auto out = run.zeros(32 * 16);
  run.launch("mb_memory.kir", "chase_shared", 1, 32, {out, stride, steps});
  return double(run.read_u64(out, 1)[0]) / (steps * 4);
}

// Cycles per dependent atomic of the slowest warp; `threads` lanes at `spread` words apart.
inline double atomics(const Target& t, bool shared, std::uint32_t threads, std::uint32_t spread) {
  Run run(t);
  const std::uint32_t steps = 32;  // four atomics each
  const auto out = run.zeros(std::size_t{threads} * 16);
  if (shared)
    run.launch("mb_sync.kir", "atom_shared", 1, threads, {out, spread, steps});
  else
    run.launch("mb_sync.kir", "atom_global", 1, threads, {run.zeros(std::size_t{threads} * 4 + 4), out, spread, steps});
  return slowest(run, out, threads) / (steps * 4);
}

// Cycles per bar.sync with `warps` warps in the block (the slowest warp's figure).
inline double barrier(const Target& t, std::uint32_t warps) {
  Run run(t);
  const std::uint32_t steps = 64;
  const auto out = run.zeros(std::size_t{warps} * 32 * 16);
  run.launch("mb_sync.kir", "barrier_loop", 1, warps * 32, {out, steps});
  return slowest(run, out, warps * 32) / (steps * 4);
}

// Elements a grid-stride loop of four accesses per thread a step touches: thread g does groups
// g, g + 4T, ... while the group's last element (i + 3T) is below n (stream_read4, stream_rotate4,
// stream_write4, stream_write_half4).
inline std::uint64_t four_per_step_elements(std::uint64_t n, std::uint64_t threads) {
  std::uint64_t count = 0;
  for (std::uint64_t gid = 0; gid < threads; ++gid)
    for (std::uint64_t i = gid; i + 3 * threads < n; i += 4 * threads) count += 4;
  return count;
}

// Bytes per cycle of a grid-stride streaming read of `elements` f32 values, `passes` times, with
// one load (stream_read) or four (stream_read4) in flight per thread.
inline double stream(const Target& t, std::uint32_t elements, std::uint32_t passes, bool four = false,
              std::uint32_t blocks_per_sm = 8) {
  Run run(t);
  const std::uint32_t blocks = 132 * blocks_per_sm, block = 256, threads = blocks * block;
  const auto in = run.zeros(std::size_t{elements} * 4), out = run.zeros(std::size_t{threads} * 4);
  const double cycles = run.launch("mb_memory.kir", four ? "stream_read4" : "stream_read", blocks, block,
                                   {in, out, elements, passes});
  const double read = four ? double(four_per_step_elements(elements, threads)) : double(elements);
  return cycles > 0 ? read * 4 * passes / cycles : 0.0;
}

// Cycles per dependent load of a grid-stride read with one load in flight per thread (stream_dep):
// `blocks_per_sm` x 132 blocks of `block` threads over `elements` f32 zeros, so each thread's loads
// follow one another and the figure is the DRAM round trip at that many warps per SM.
inline double dependent_stream(const Target& t, std::uint32_t elements, std::uint32_t blocks_per_sm, std::uint32_t block) {
  Run run(t);
  const std::uint32_t blocks = 132 * blocks_per_sm, threads = blocks * block;
  const auto in = run.zeros(std::size_t{elements} * 4), out = run.zeros(std::size_t{threads} * 4);
  const double cycles = run.launch("mb_memory.kir", "stream_dep", blocks, block, {in, out, elements});
  return cycles / (double(elements) / threads);
}

// L2 to SM bytes per cycle: stream_rotate4 over 8 MiB (in L2), 9 passes against 1, so the first
// pass's DRAM reads and the launch's ramp cancel; the bytes the 8 later passes read over the
// cycles they add.
inline double l2_stream(const Target& t) {
  const std::uint32_t blocks = 132 * 4, block = 256, threads = blocks * block, n = 2u << 20;
  const std::uint64_t per_pass = four_per_step_elements(n, threads);
  double cycles[2];
  for (const std::uint32_t passes : {1u, 9u}) {
    Run run(t);
    const auto in = run.zeros(std::size_t{n} * 4), out = run.zeros(std::size_t{threads} * 4);
    cycles[passes == 9] = run.launch("mb_memory.kir", "stream_rotate4", blocks, block, {in, out, n, passes});
  }
  return cycles[1] > cycles[0] ? double(per_pass) * 4 * 8 / (cycles[1] - cycles[0]) : 0.0;
}

// Stop 34's microbenchmarks (suite_lifetime.cpp), appended to the suite's list.
void add_stop34(std::vector<BenchInfo>& s);
// Stop 35's (suite_l1.cpp).
void add_stop35(std::vector<BenchInfo>& s);
// Stop 36's (suite_addr.cpp) and stop 37's (suite_atom.cpp).
void add_stop36(std::vector<BenchInfo>& s);
void add_stop37(std::vector<BenchInfo>& s);

}  // namespace warpsim::calib::suite_detail
