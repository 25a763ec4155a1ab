#include "device/trace_compare.hpp"

#include <bit>
#include <map>

namespace warpsim {

namespace {

// Per basic block, the masks in entry order (index basic_blocks holds the exit record).
std::vector<std::vector<std::uint64_t>> masks_by_block(const WarpTrace& warp, std::uint32_t basic_blocks) {
  std::vector<std::vector<std::uint64_t>> out(basic_blocks + 1);
  for (const auto& e : warp.events) {
    const std::uint32_t slot = e.basic_block == kTraceExit || e.basic_block >= basic_blocks ? basic_blocks : e.basic_block;
    out[slot].push_back(e.active_mask);
  }
  return out;
}

}  // namespace

TraceComparison compare_traces(const Trace& predicted, const Trace& measured, std::uint32_t basic_blocks) {
  TraceComparison c;
  c.warps_predicted = predicted.warps.size();
  c.warps_measured = measured.warps.size();
  c.blocks.resize(basic_blocks + 1);
  for (std::uint32_t b = 0; b <= basic_blocks; ++b) c.blocks[b].basic_block = b == basic_blocks ? kTraceExit : b;

  std::map<std::pair<std::uint64_t, std::uint32_t>, const WarpTrace*> hw;
  for (const auto& w : measured.warps) hw[{w.block_linear, w.warp_in_block}] = &w;

  auto tally = [&](const std::vector<std::vector<std::uint64_t>>& masks, bool is_predicted) {
    for (std::uint32_t b = 0; b <= basic_blocks; ++b)
      for (auto m : masks[b]) {
        auto& entry = c.blocks[b];
        (is_predicted ? entry.predicted : entry.measured) += 1;
        (is_predicted ? entry.predicted_lanes : entry.measured_lanes) += static_cast<std::uint64_t>(std::popcount(m));
      }
  };

  for (const auto& w : predicted.warps) {
    const auto p = masks_by_block(w, basic_blocks);
    tally(p, true);
    const auto found = hw.find({w.block_linear, w.warp_in_block});
    if (found == hw.end()) {
      ++c.warps_missing;
      continue;
    }
    ++c.warps_compared;
    if (found->second->lanes_mask != w.lanes_mask) ++c.lanes_differ;
    const auto m = masks_by_block(*found->second, basic_blocks);
    bool same = true;
    for (std::uint32_t b = 0; b <= basic_blocks; ++b) {
      const auto n = std::max(p[b].size(), m[b].size());
      for (std::size_t k = 0; k < n; ++k) {
        ++c.entries_compared;
        const bool have_p = k < p[b].size(), have_m = k < m[b].size();
        if (have_p && have_m && p[b][k] == m[b][k]) {
          ++c.entries_equal;
          continue;
        }
        same = false;
        MaskMismatch mm;
        mm.block_linear = w.block_linear;
        mm.warp = w.warp_in_block;
        mm.basic_block = b == basic_blocks ? kTraceExit : b;
        mm.entry = k;
        if (have_p) mm.predicted = p[b][k];
        if (have_m) mm.measured = m[b][k];
        c.mismatches.push_back(mm);
      }
    }
    if (same) ++c.warps_identical;
  }
  for (const auto& w : measured.warps) tally(masks_by_block(w, basic_blocks), false);
  return c;
}

}  // namespace warpsim
