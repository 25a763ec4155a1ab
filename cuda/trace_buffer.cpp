#include "cuda/trace_buffer.hpp"

#include <fmt/format.h>

#include <cstring>

#include "device/errors.hpp"

namespace warpsim::cuda {

namespace {

template <typename T>
T load(std::span<const std::byte> buffer, std::uint64_t at) {
  T value;
  std::memcpy(&value, buffer.data() + at, sizeof value);
  return value;
}

void check_size(std::span<const std::byte> buffer, std::uint64_t warps, std::uint32_t capacity) {
  if (buffer.size() < warps * trace_warp_stride(capacity))
    throw Error(fmt::format("trace buffer of {} bytes is too small for {} warps of {} records", buffer.size(), warps,
                            capacity),
                ExitCode::Internal);
}

}  // namespace

std::uint32_t warps_per_block(const Dim3& block, std::uint32_t warp_size) {
  return static_cast<std::uint32_t>((block.count() + warp_size - 1) / warp_size);
}

std::vector<std::uint32_t> trace_appended(std::span<const std::byte> buffer, std::uint64_t warps,
                                          std::uint32_t capacity) {
  check_size(buffer, warps, capacity);
  std::vector<std::uint32_t> appended(warps);
  for (std::uint64_t w = 0; w < warps; ++w) appended[w] = load<std::uint32_t>(buffer, w * trace_warp_stride(capacity));
  return appended;
}

Trace decode_trace(std::span<const std::byte> buffer, const std::string& kernel, const Dim3& grid, const Dim3& block,
                   std::uint32_t capacity) {
  const std::uint32_t per_block = warps_per_block(block);
  const std::uint64_t warps = grid.count() * per_block;
  check_size(buffer, warps, capacity);
  const std::uint64_t threads = block.count();

  Trace trace;
  trace.kernel = kernel;
  trace.grid = grid;
  trace.block = block;
  trace.warp_size = 32;
  trace.warps.resize(warps);
  for (std::uint64_t w = 0; w < warps; ++w) {
    WarpTrace& wt = trace.warps[w];
    wt.block_linear = w / per_block;
    wt.warp_in_block = static_cast<std::uint32_t>(w % per_block);
    const std::uint64_t first_thread = std::uint64_t{wt.warp_in_block} * 32;
    const std::uint64_t lanes = std::min<std::uint64_t>(32, threads - first_thread);
    wt.lanes_mask = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
    const std::uint64_t base = w * trace_warp_stride(capacity);
    const std::uint32_t count = std::min(load<std::uint32_t>(buffer, base), capacity);
    wt.events.reserve(count);
    for (std::uint32_t r = 0; r < count; ++r) {
      const std::uint64_t at = base + kTraceHeaderBytes + std::uint64_t{kTraceRecordBytes} * r;
      TraceEvent e;
      e.cycle = load<std::uint64_t>(buffer, at);
      e.basic_block = load<std::uint32_t>(buffer, at + 8);
      e.active_mask = load<std::uint32_t>(buffer, at + 12);
      e.sm = load<std::uint32_t>(buffer, at + 16);
      wt.events.push_back(e);
    }
  }
  return trace;
}

}  // namespace warpsim::cuda
