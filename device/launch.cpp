#include "device/launch.hpp"

#include <fmt/format.h>

#include "device/errors.hpp"

namespace warpsim {

std::string to_string(const Dim3& d) {
  if (d.z != 1) return fmt::format("{}x{}x{}", d.x, d.y, d.z);
  if (d.y != 1) return fmt::format("{}x{}", d.x, d.y);
  return fmt::format("{}", d.x);
}

void validate_launch(const LaunchSpec& spec, const DeviceLimits& limits) {
  if (spec.kernel == nullptr) throw Error("launch: no kernel");
  const auto& k = *spec.kernel;
  const char* axes = "xyz";
  const std::uint32_t grid[3] = {spec.grid.x, spec.grid.y, spec.grid.z};
  const std::uint32_t block[3] = {spec.block.x, spec.block.y, spec.block.z};
  for (int i = 0; i < 3; ++i) {
    if (grid[i] == 0) throw Error(fmt::format("launch of '{}': grid size {} is zero in {}", k.name, to_string(spec.grid), axes[i]));
    if (block[i] == 0) throw Error(fmt::format("launch of '{}': block size {} is zero in {}", k.name, to_string(spec.block), axes[i]));
    if (block[i] > limits.max_block_dim[i])
      throw Error(fmt::format("launch of '{}': block {} is {} threads in {}, the limit is {}", k.name,
                              to_string(spec.block), block[i], axes[i], limits.max_block_dim[i]));
    if (grid[i] > limits.max_grid_dim[i])
      throw Error(fmt::format("launch of '{}': grid {} is {} blocks in {}, the limit is {}", k.name,
                              to_string(spec.grid), grid[i], axes[i], limits.max_grid_dim[i]));
  }
  if (spec.block.count() > limits.max_threads_per_block)
    throw Error(fmt::format("launch of '{}': block {} has {} threads, more than the {} a block may have", k.name,
                            to_string(spec.block), spec.block.count(), limits.max_threads_per_block));
  if (spec.args.size() != k.params.size())
    throw Error(fmt::format("launch of '{}': the kernel takes {} argument(s), {} given", k.name, k.params.size(),
                            spec.args.size()));
  if (k.shared_bytes() > limits.max_shared_bytes_per_block)
    throw Error(fmt::format("launch of '{}': {} bytes of shared memory per block, the limit is {}", k.name,
                            k.shared_bytes(), limits.max_shared_bytes_per_block));
}

}  // namespace warpsim
