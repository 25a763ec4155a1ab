// The occupancy calculator: how many blocks of a kernel fit on one SM, and which resource limits
// them, as NVIDIA's cuda_occupancy.h computes it (warps, registers, shared memory, blocks,
// barriers). Also the shared-memory carve-out the driver would pick, which sets the L1's size.
#pragma once
#include <cstdint>

#include "device/stats.hpp"
#include "sim/timing/preset.hpp"

namespace warpsim::sim {

struct OccupancyInput {
  std::uint64_t threads_per_block = 0;
  std::uint32_t warp_size = 32;
  std::uint32_t registers_per_thread = 0;
  std::uint32_t shared_bytes_per_block = 0;
  bool uses_barriers = false;
};

// Throws Error (exit 1) naming the resource when one block cannot fit on an SM at all.
Occupancy compute_occupancy(const GpuPreset& gpu, const OccupancyInput& in);

// The carve-out (bytes) the driver picks, the L1 getting the rest: for a kernel without shared memory
// the smallest of at least sm.carveout_unused_kib, else sm.carveout_headroom carve-outs past the
// smallest holding `blocks` blocks' shared memory (the largest at most).
std::uint32_t shared_carveout_bytes(const GpuPreset& gpu, std::uint32_t blocks, std::uint32_t shared_bytes_per_block);

}  // namespace warpsim::sim
