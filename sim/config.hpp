// Simulator settings: plain struct with defaults, validated in one place (validate_config).
#pragma once
#include <cstdint>

#include "device/launch.hpp"
#include "sim/timing/preset.hpp"

namespace warpsim::sim {

// How diverged lanes find each other again: the immediate-post-dominator stack of the textbooks,
// or thread frontiers (lowest pc first, merge at equal pcs), the H100's rule (docs/design.md).
enum class ReconvergenceModel { Ipdom, Frontier };

// Timing: the cycle-approximate model (the default); functional: results, warps and divergence
// only, as fast as possible. Both run the same interpreter and agree on every functional figure.
enum class Mode { Timing, Functional };

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
  ReconvergenceModel reconvergence = ReconvergenceModel::Ipdom;
  Mode mode = Mode::Timing;
  GpuPreset gpu = default_preset();        // timing mode: the GPU modelled (h100 by default)
  std::uint32_t registers = 0;             // registers per thread for occupancy; 0: the IR's count
  DeviceLimits limits;                     // limits.warp_size is kept equal to warp_size
};

// Throws warpsim::Error for settings no run could use (warp size 0 or over 64, threads 0, ...).
void validate_config(const Config& config);

}  // namespace warpsim::sim
