// The coalescer: a warp's global access becomes the 128-byte lines and 32-byte sectors it touches
// (one request per warp instruction, as Nsight Compute counts them).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/bits.hpp"

namespace warpsim::sim {

struct LineAccess {
  std::uint64_t line = 0;     // line address / line_bytes
  std::uint32_t sectors = 0;  // bit s: sector s of the line
};

// Appends to `out` (cleared first) the lines of the executing lanes' accesses of `bytes` each, in
// ascending line order. `dense` (if given) receives [first, end) when lanes 0..n-1 execute and
// access consecutive elements (every byte of the range), else {0, 0}.
struct ByteRange {
  std::uint64_t first = 0, end = 0;
};
void coalesce(const std::uint64_t* addresses, std::uint64_t exec, unsigned bytes, unsigned sector_bytes,
              unsigned line_bytes, std::vector<LineAccess>& out, ByteRange* dense = nullptr);

// Shared-memory passes: the most distinct bank words any one bank must serve (lanes reading the
// same word are served together). 1 without conflicts; 32 when every lane hits another word of one bank.
unsigned shared_passes(const std::uint64_t* addresses, std::uint64_t exec, unsigned bytes, unsigned banks,
                       unsigned bank_bytes);

// Lanes that share the address most shared by the executing lanes (atomics to one address serialise).
unsigned most_common_address(const std::uint64_t* addresses, std::uint64_t exec);
// Per line the request touches (ascending, as coalesce orders them): the sum over its sectors of the
// most executing lanes on one word of that sector (an L2 slice works through a sector's lanes on one
// word one after another; atom-lanes-u32-*, set22's histo_global and set26's atomic_agg, stop 26).
void serial_lanes_per_line(const std::uint64_t* addresses, std::uint64_t exec, unsigned sector_bytes,
                           unsigned line_bytes, std::vector<unsigned>& out);

}  // namespace warpsim::sim
