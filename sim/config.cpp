#include "sim/config.hpp"

#include <fmt/format.h>

#include "device/errors.hpp"

namespace warpsim::sim {

void validate_config(const Config& config) {
  if (config.warp_size == 0 || config.warp_size > 64)
    throw Error(fmt::format("simulator config: warp size {} is not in 1..64", config.warp_size));
  if (config.threads == 0 || config.threads > 1024)
    throw Error(fmt::format("simulator config: {} host threads is not in 1..1024", config.threads));
  if (config.time_slice == 0) throw Error("simulator config: the time slice must be at least 1 warp instruction");
  if (config.max_instructions == 0) throw Error("simulator config: max_instructions must be at least 1");
  if (config.registers > 255)
    throw Error(fmt::format("simulator config: {} registers per thread is over 255", config.registers), ExitCode::Usage);
  if (config.mode == Mode::Timing) validate_preset(config.gpu);
  const auto& l = config.limits;
  if (l.max_threads_per_block == 0 || l.max_block_dim[0] == 0 || l.max_block_dim[1] == 0 || l.max_block_dim[2] == 0 ||
      l.max_grid_dim[0] == 0 || l.max_grid_dim[1] == 0 || l.max_grid_dim[2] == 0)
    throw Error("simulator config: block and grid limits must be at least 1");
}

}  // namespace warpsim::sim
