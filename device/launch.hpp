// What a Device needs to run one kernel launch: the kernel, its analysis, shape and arguments.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "isa/analysis.hpp"
#include "isa/module.hpp"

namespace warpsim {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  bool operator==(const Dim3&) const = default;
};

std::string to_string(const Dim3& d);  // "64" or "16x16" or "4x8x2" (trailing 1s dropped)

// Which per-warp records a launch keeps (the aggregate figures always cover every warp).
struct WarpSelection {
  enum class Mode { Default, All, Divergent, BlockRange };
  Mode mode = Mode::Default;
  std::uint64_t first_block = 0, last_block = 0;  // BlockRange: linear block ids, inclusive
  std::uint32_t keep = 8;  // Default: keeps the first `keep` warps and the `keep` least efficient
};

struct LaunchSpec {
  const isa::Kernel* kernel = nullptr;
  const isa::KernelAnalysis* analysis = nullptr;
  std::string file;                 // where the kernel came from, for messages
  std::string source_text;          // the module text, for source lines in messages (may be empty)
  // An imported kernel's own build (LoadedKernel::native_ptx, native_entry), which a GPU backend
  // times; null for a .kir kernel. The simulator runs the IR either way.
  const std::string* native_ptx = nullptr;
  std::string native_entry;
  Dim3 grid, block;
  std::vector<std::uint64_t> args;  // one per kernel parameter, in order: raw bits (f32 as IEEE
                                    // bits, pointers as device addresses)
  WarpSelection warps;
  bool record_trace = false;        // keep a per-warp Trace (device/trace.hpp)
  // For a progress line: the device counts blocks finished (functional) or dispatched to an SM
  // (timing) here as it goes; another thread reads it. Null when nobody watches.
  std::atomic<std::uint64_t>* progress = nullptr;
};

struct DeviceLimits {
  std::uint32_t warp_size = 32;
  std::uint32_t max_threads_per_block = 1024;
  std::uint32_t max_block_dim[3] = {1024, 1024, 64};
  std::uint32_t max_grid_dim[3] = {2147483647u, 65535, 65535};
  std::uint32_t max_shared_bytes_per_block = 48 * 1024;
};

// Throws Error (exit 1) with one clear line for a launch no device could run: zero sizes, too
// many threads, wrong argument count, shared memory over the limit.
void validate_launch(const LaunchSpec& spec, const DeviceLimits& limits);

}  // namespace warpsim
