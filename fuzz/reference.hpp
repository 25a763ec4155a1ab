// The oracle for generated kernels: runs a fuzz::Program one thread at a time, with no warps, no
// masks and no reconvergence (and nothing from sim/). Each top-level statement runs to its end for
// every live thread in turn; the warp-level statements (shuffles, votes) and barrier exchanges
// only occur at the top level, where every live thread of a block arrives together, so there they
// act on the block's threads at once. A thread's warp is only consulted to know which threads a
// shuffle or vote sees.
#pragma once
#include <cstdint>
#include <vector>

#include "fuzz/structured.hpp"

namespace warpsim::fuzz {

struct Buffers {
  std::vector<std::uint32_t> input;     // total_threads * kInputWords
  std::vector<std::uint32_t> out;       // total_threads * kOutSlots
  std::vector<std::uint32_t> regs;      // total_threads * kRegisters
  std::vector<std::uint32_t> counters;  // counter_words()
};

// Fresh buffers: input from `seed`, the rest zero (counters at counter_initial).
Buffers initial_buffers(const Program& program, std::uint64_t seed);

// Runs `program` on `buffers` with warps of `warp_size` lanes.
void run_reference(const Program& program, std::uint32_t warp_size, Buffers& buffers);

}  // namespace warpsim::fuzz
