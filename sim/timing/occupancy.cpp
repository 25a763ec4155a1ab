#include "sim/timing/occupancy.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "device/errors.hpp"

namespace warpsim::sim {

namespace {
std::uint64_t round_up(std::uint64_t v, std::uint64_t unit) { return (v + unit - 1) / unit * unit; }

std::uint64_t block_shared(const GpuPreset& gpu, std::uint32_t shared) {
  return round_up(std::uint64_t{shared} + gpu.shared_reserved_per_block, gpu.shared_allocation_unit);
}
}  // namespace

Occupancy compute_occupancy(const GpuPreset& gpu, const OccupancyInput& in) {
  Occupancy o;
  o.registers_per_thread = std::max<std::uint32_t>(in.registers_per_thread, 1);
  o.shared_bytes_per_block = in.shared_bytes_per_block;
  o.warps_per_block = static_cast<std::uint32_t>((in.threads_per_block + in.warp_size - 1) / in.warp_size);
  o.max_warps_per_sm = gpu.max_warps_per_sm;
  if (o.registers_per_thread > gpu.max_registers_per_thread)
    throw Error(fmt::format("the kernel needs {} registers per thread; the {} allows at most {} "
                            "(sm.max_registers_per_thread)",
                            o.registers_per_thread, gpu.name, gpu.max_registers_per_thread));
  // Warps
  const std::uint32_t by_threads = gpu.max_threads_per_sm / std::max<std::uint64_t>(in.threads_per_block, 1);
  o.limit_warps = std::min<std::uint32_t>(gpu.max_warps_per_sm / std::max(o.warps_per_block, 1u), by_threads);
  // Registers: per warp, rounded to the allocation unit; warps are placed per sub-partition.
  const std::uint64_t per_warp = round_up(std::uint64_t{o.registers_per_thread} * in.warp_size,
                                          gpu.register_allocation_unit);
  const std::uint64_t slice = gpu.registers_per_sm / gpu.sub_partitions;
  const std::uint64_t warps_per_slice = slice / per_warp;
  const std::uint64_t warps_by_registers = warps_per_slice * gpu.sub_partitions;
  o.limit_registers = static_cast<std::uint32_t>(warps_by_registers / std::max(o.warps_per_block, 1u));
  // Shared memory: against the largest carve-out.
  const std::uint64_t shared = block_shared(gpu, in.shared_bytes_per_block);
  const std::uint64_t shared_max = std::uint64_t{gpu.shared_carveouts_kib.back()} * 1024;
  o.limit_shared = in.shared_bytes_per_block == 0 ? gpu.max_blocks_per_sm
                                                   : static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                                         shared_max / shared, gpu.max_blocks_per_sm));
  o.limit_blocks = gpu.max_blocks_per_sm;
  o.limit_barriers = in.uses_barriers ? gpu.barriers_per_sm : gpu.max_blocks_per_sm;

  if (o.limit_warps == 0)
    throw Error(fmt::format("a block of {} threads ({} warps) cannot fit on one SM of the {} ({} warps, {} threads "
                            "per SM: sm.max_warps, sm.max_threads)",
                            in.threads_per_block, o.warps_per_block, gpu.name, gpu.max_warps_per_sm,
                            gpu.max_threads_per_sm));
  if (o.limit_registers == 0)
    throw Error(fmt::format("a block of {} warps at {} registers per thread needs {} registers; one SM of the {} "
                            "holds {} (sm.registers): use fewer threads or registers (--registers)",
                            o.warps_per_block, o.registers_per_thread, per_warp * o.warps_per_block, gpu.name,
                            gpu.registers_per_sm));
  if (o.limit_shared == 0)
    throw Error(fmt::format("a block needs {} bytes of shared memory ({} with the driver's reserve); one SM of the {} "
                            "has at most {} (sm.shared_carveouts_kib)",
                            in.shared_bytes_per_block, shared, gpu.name, shared_max));

  struct Limit {
    std::uint32_t value;
    const char* name;
  };
  // Ties go to the first in Nsight Compute's order.
  const Limit limits[] = {{o.limit_warps, "warps"},
                          {o.limit_registers, "registers"},
                          {o.limit_shared, "shared memory"},
                          {o.limit_blocks, "blocks"},
                          {o.limit_barriers, "barriers"}};
  const Limit* least = &limits[0];
  for (const auto& l : limits)
    if (l.value < least->value) least = &l;
  o.blocks_per_sm = least->value;
  o.limiter = least->name;
  o.warps_per_sm = o.blocks_per_sm * o.warps_per_block;
  return o;
}

std::uint32_t shared_carveout_bytes(const GpuPreset& gpu, std::uint32_t blocks, std::uint32_t shared_bytes_per_block) {
  const auto& c = gpu.shared_carveouts_kib;
  const bool none = shared_bytes_per_block == 0;
  const std::uint64_t need =
      none ? std::uint64_t{gpu.carveout_unused_kib} * 1024 : block_shared(gpu, shared_bytes_per_block) * blocks;
  std::size_t i = 0;
  while (i + 1 < c.size() && std::uint64_t{c[i]} * 1024 < need) ++i;
  return c[std::min(i + (none ? 0 : gpu.carveout_headroom), c.size() - 1)] * 1024;
}

}  // namespace warpsim::sim
