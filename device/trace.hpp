// Per-warp record of basic blocks entered, with the active mask and clock at each entry. The
// simulator and the CUDA backend produce the same schema; validation is a diff of two Traces.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch.hpp"

namespace warpsim {

struct TraceEvent {
  std::uint32_t basic_block = 0;   // isa::Cfg block index; kTraceExit for an exit executed (mask: the lanes leaving)
  std::uint64_t active_mask = 0;   // bit n: lane n active
  std::uint64_t cycle = 0;         // clock64 on hardware; the warp's issue count in the simulator
  std::uint32_t sm = 0;
  bool operator==(const TraceEvent&) const = default;
};
constexpr std::uint32_t kTraceExit = 0xffffffffu;

// A divergent branch as a reconvergence model ran it: the lanes that ran first and those that waited.
struct PathSplit {
  std::uint32_t pc = 0;
  std::uint64_t first = 0, second = 0;
  bool operator==(const PathSplit&) const = default;
};

struct WarpTrace {
  std::uint64_t block_linear = 0;
  std::uint32_t warp_in_block = 0;
  std::uint64_t lanes_mask = 0;    // lanes that exist
  std::vector<TraceEvent> events;
};

struct Trace {
  std::string kernel;
  Dim3 grid, block;
  std::uint32_t warp_size = 32;
  std::vector<WarpTrace> warps;    // ordered by (block_linear, warp_in_block)
};

}  // namespace warpsim
