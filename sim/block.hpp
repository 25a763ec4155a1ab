// A resident block: its warps, their register storage, shared memory and issue counter. One Block
// object is reused for every block a worker runs, so a launch allocates per worker, not per block.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "device/launch.hpp"
#include "sim/config.hpp"
#include "sim/decode.hpp"
#include "sim/warp.hpp"

namespace warpsim::sim {

class Block {
 public:
  Block(const Program& program, const Config& config, const Dim3& block_dim, std::uint32_t shared_bytes);

  // Makes this the block with linear id `linear` (blockIdx `index`): fresh warps at pc 0, zeroed
  // registers and shared memory.
  void start(std::uint64_t linear, const Dim3& index);

  std::uint64_t linear = 0;
  Dim3 index;
  std::uint64_t issue_counter = 0;  // warp instructions this block has issued (functional %clock)
  std::vector<Warp> warps;
  std::vector<std::byte> shared;
  std::vector<std::byte> local;  // every thread's local memory: warp w's lane l at (w * warp size + l) * local bytes

 private:
  const Program& program_;
  // Not zeroed here: start() zeroes the declared registers, the special ones are written before
  // they are read (thread and lane indices here, blockIdx in start(), %clock before each read).
  std::unique_ptr<std::uint32_t[]> r32_;
  std::unique_ptr<std::uint64_t[]> r64_;
  std::vector<std::uint64_t> predicates_;
};

// blockIdx of the block with linear id `linear` in `grid`.
inline Dim3 block_index(std::uint64_t linear, const Dim3& grid) {
  return {static_cast<std::uint32_t>(linear % grid.x), static_cast<std::uint32_t>(linear / grid.x % grid.y),
          static_cast<std::uint32_t>(linear / (std::uint64_t{grid.x} * grid.y))};
}

}  // namespace warpsim::sim
