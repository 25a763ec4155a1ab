// Simulator settings: plain struct with defaults, validated in one place (validate_config).
#pragma once
#include <cstdint>

#include "device/launch.hpp"
#include "sim/timing/preset.hpp"

namespace warpsim::sim {

// How diverged lanes find each other again: convergence barriers as on Volta and later, the
// H100's rule and the default; the immediate-post-dominator stack of the textbooks; or thread
// frontiers (lowest pc first, merge at equal pcs). docs/design.md says how the rule was measured.
enum class ReconvergenceModel { Ipdom, Frontier, Volta };

// Timing: the cycle-approximate model (the default); functional: results, warps and divergence
// only, as fast as possible. Both run the same interpreter and agree on every functional figure.
enum class Mode { Timing, Functional };

// Timing mode: what the L2 holds when a launch starts. Kept: what the previous launches left (empty
// at first). Flushed: empty, as the CUDA backend times a launch (cuda/gpu.cpp queues it behind a
// kernel that evicts the L2) and as Nsight Compute's --cache-control all. Restored: what copying
// every allocation back from its snapshot leaves (each snapshot read, then its buffer written, in
// address order): the backend's timing before stop 20, which stop 16's saved data was measured with.
enum class L2Start { Kept, Restored, Flushed };

struct Config {
  std::uint32_t warp_size = 32;            // 1..64
  std::uint32_t threads = 1;               // host threads that run independent blocks
  // Warp instructions per launch before the run stops (a spinning kernel ends in minutes, not hours).
  std::uint64_t max_instructions = 1ull << 32;
  // Functional mode: a block that has issued this many warp instructions is watched, and stopped as
  // spinning once its warps issue this many more in a row without one finishing, passing a barrier
  // or changing a byte of memory (docs/testing.md, "Spinning kernels"). 0: never watched.
  std::uint64_t spin_limit = 1ull << 22;
  std::uint32_t time_slice = 64;           // warp instructions a warp runs before the next warp's turn
  ReconvergenceModel reconvergence = ReconvergenceModel::Volta;
  Mode mode = Mode::Timing;
  GpuPreset gpu = default_preset();        // timing mode: the GPU modelled (h100 by default)
  std::uint32_t registers = 0;             // registers per thread for occupancy; 0: the IR's count
  L2Start l2_start = L2Start::Kept;        // timing mode: the L2's contents when a launch starts
  DeviceLimits limits;                     // limits.warp_size is kept equal to warp_size
};

// Throws warpsim::Error for settings no run could use (warp size 0 or over 64, threads 0, ...).
void validate_config(const Config& config);

}  // namespace warpsim::sim
