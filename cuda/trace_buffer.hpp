// The instrumented kernel's trace buffer in device memory, shared by the emitter (which writes
// the device side of it) and cuda::Gpu (which sizes, reads and decodes it). One region per warp,
// warps numbered block_linear * warps_per_block + warp_in_block:
//   header  16 bytes: u32 appended (records the warp tried to append; > capacity on overflow),
//                     12 bytes unused
//   records capacity x 24 bytes: u64 clock64, u32 cfg block (kTraceExit for an exit), u32 active
//                     mask, u32 %smid, u32 unused
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "device/launch.hpp"
#include "device/trace.hpp"

namespace warpsim::cuda {

constexpr std::uint32_t kTraceHeaderBytes = 16;
constexpr std::uint32_t kTraceRecordBytes = 24;

inline std::uint64_t trace_warp_stride(std::uint32_t capacity) {
  return kTraceHeaderBytes + std::uint64_t{kTraceRecordBytes} * capacity;
}

std::uint32_t warps_per_block(const Dim3& block, std::uint32_t warp_size = 32);

// How many records each warp tried to append (the header counters), in warp order.
std::vector<std::uint32_t> trace_appended(std::span<const std::byte> buffer, std::uint64_t warps,
                                          std::uint32_t capacity);

// Decodes a whole buffer into a Trace (all warps, ordered by block then warp). Records past the
// capacity were never written; the caller checks trace_appended() and reruns with more room.
Trace decode_trace(std::span<const std::byte> buffer, const std::string& kernel, const Dim3& grid,
                   const Dim3& block, std::uint32_t capacity);

}  // namespace warpsim::cuda
