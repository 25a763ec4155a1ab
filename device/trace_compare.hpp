// Validation is a diff of two Traces of one schema: per warp and per basic block, the active
// masks each device entered the block with, in order.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "device/trace.hpp"

namespace warpsim {

struct MaskMismatch {
  std::uint64_t block_linear = 0;
  std::uint32_t warp = 0;
  std::uint32_t basic_block = 0;    // kTraceExit for the exit record
  std::size_t entry = 0;            // the k-th time this warp entered this basic block (0-based)
  std::optional<std::uint64_t> predicted, measured;  // absent: that device did not enter it k times
};

struct BlockEntries {
  std::uint32_t basic_block = 0;
  std::uint64_t predicted = 0, measured = 0;        // entries (passes through the block), all warps
  std::uint64_t predicted_lanes = 0, measured_lanes = 0;  // active lanes summed over entries
};

struct TraceComparison {
  std::uint64_t warps_predicted = 0, warps_measured = 0;
  std::uint64_t warps_compared = 0, warps_identical = 0;
  std::uint64_t warps_missing = 0;         // predicted warps the measured trace lacks
  std::uint64_t lanes_differ = 0;          // warps whose existing lanes differ between the traces
  std::uint64_t entries_compared = 0, entries_equal = 0;
  std::vector<BlockEntries> blocks;        // by basic block index, the exit record last
  std::vector<MaskMismatch> mismatches;    // every one, in warp order
  bool identical() const {
    return warps_predicted == warps_measured && warps_missing == 0 && lanes_differ == 0 &&
           warps_identical == warps_compared && mismatches.empty();
  }
};

// Warps are matched by (block_linear, warp_in_block); basic_blocks is the kernel's block count.
TraceComparison compare_traces(const Trace& predicted, const Trace& measured, std::uint32_t basic_blocks);

}  // namespace warpsim
