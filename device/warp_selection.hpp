// Streams finished warps through a WarpSelection and keeps only the selected records, so Default
// mode holds 2 * keep records whatever the grid size. Selections from several workers merge
// deterministically (every choice is by a total order on (key, launch order)).
#pragma once
#include <cstdint>
#include <vector>

#include "device/launch.hpp"
#include "device/stats.hpp"

namespace warpsim {

class WarpSelector {
 public:
  WarpSelector(const WarpSelection& selection, std::uint64_t warps_per_block);
  void add(const WarpStats& warp);
  void merge(WarpSelector&& other);
  // The kept warps in launch order, each once.
  std::vector<WarpStats> finish() &&;

 private:
  std::uint64_t launch_order(const WarpStats& w) const { return w.block_linear * warps_per_block_ + w.warp_in_block; }
  bool less_efficient(const WarpStats& a, const WarpStats& b) const;  // lower efficiency first, then earlier
  void offer(std::vector<WarpStats>& heap, const WarpStats& w, bool by_efficiency);

  WarpSelection selection_;
  std::uint64_t warps_per_block_;
  std::vector<WarpStats> first_;      // Default: max-heap on launch order, at most keep
  std::vector<WarpStats> worst_;      // Default: max-heap on (efficiency, launch order), at most keep
  std::vector<WarpStats> kept_;       // All, Divergent, BlockRange
};

}  // namespace warpsim
