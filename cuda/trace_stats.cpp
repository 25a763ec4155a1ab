#include "cuda/trace_stats.hpp"

#include "device/warp_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>

#include "device/errors.hpp"

namespace warpsim::cuda {

namespace {

struct BranchSite {
  std::uint32_t taken = isa::kNoBlock;        // successor block when the branch is taken
  std::uint32_t fall_through = isa::kNoBlock;
  std::size_t index = 0;                       // in LaunchStats::branches
};

// Conditional branches (guarded bra) by the block they end.
std::map<std::uint32_t, BranchSite> branch_sites(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis,
                                                 std::vector<BranchStats>& branches) {
  std::map<std::uint32_t, BranchSite> sites;
  for (std::uint32_t b = 0; b < analysis.cfg.blocks.size(); ++b) {
    const auto& block = analysis.cfg.blocks[b];
    if (block.end == 0 || block.end > kernel.code.size()) continue;
    const std::uint32_t pc = block.end - 1;
    const auto& in = kernel.code[pc];
    if (in.op != isa::Opcode::Bra || !in.guarded) continue;
    BranchStats s;
    s.pc = pc;
    s.line = in.loc.line;
    s.source = kernel.origin_text(in);
    s.label = block.label >= 0 ? kernel.labels.at(block.label).name : fmt::format("B{}", b);  // as `warpsim cfg`
    s.target = kernel.labels.at(in.operands[0].index).name;
    s.reconvergence_pc = pc < analysis.reconvergence_pc.size() ? analysis.reconvergence_pc[pc] : isa::kNoBlock;
    BranchSite site;
    site.taken = block.successors.size() > 0 ? block.successors[0] : isa::kNoBlock;
    site.fall_through = block.successors.size() > 1 ? block.successors[1] : site.taken;
    branches.push_back(std::move(s));
    sites[b] = site;
  }
  std::sort(branches.begin(), branches.end(), [](const BranchStats& a, const BranchStats& b) { return a.pc < b.pc; });
  for (auto& [block, site] : sites)
    for (std::size_t i = 0; i < branches.size(); ++i)
      if (branches[i].pc == analysis.cfg.blocks[block].end - 1) site.index = i;
  return sites;
}

}  // namespace

LaunchStats geometry_stats(const isa::Kernel& kernel, const Dim3& grid, const Dim3& block, std::uint32_t warp_size) {
  LaunchStats s;
  s.kernel = kernel.name;
  s.backend = "cuda";
  s.grid = grid;
  s.block = block;
  s.warp_size = warp_size;
  s.blocks = grid.count();
  const std::uint64_t threads = block.count();
  s.warps_per_block = (threads + warp_size - 1) / warp_size;
  s.warps_launched = s.blocks * s.warps_per_block;
  const std::uint64_t tail = threads % warp_size;
  s.partial_warps = tail ? s.blocks : 0;
  s.padding_lanes = tail ? s.blocks * (warp_size - tail) : 0;
  s.active_lanes_histogram.assign(warp_size + 1, 0);
  return s;
}

LaunchStats stats_from_trace(const Trace& trace, const isa::Kernel& kernel, const isa::KernelAnalysis& analysis,
                             const WarpSelection& selection) {
  const std::uint32_t warp_size = trace.warp_size;
  LaunchStats s = geometry_stats(kernel, trace.grid, trace.block, warp_size);
  const auto sites = branch_sites(kernel, analysis, s.branches);
  const auto& blocks = analysis.cfg.blocks;

  // The simulator's selection, so --warps picks the same warps on both devices.
  WarpSelector selector(selection, s.warps_per_block);
  for (const WarpTrace& wt : trace.warps) {
    WarpStats w;
    w.block_linear = wt.block_linear;
    const std::uint64_t bx = trace.grid.x, by = trace.grid.y;
    w.block_index = Dim3{static_cast<std::uint32_t>(wt.block_linear % bx),
                         static_cast<std::uint32_t>(wt.block_linear / bx % by),
                         static_cast<std::uint32_t>(wt.block_linear / (bx * by))};
    w.warp_in_block = wt.warp_in_block;
    w.first_thread = std::uint64_t{wt.warp_in_block} * warp_size;
    w.lanes = static_cast<std::uint32_t>(std::popcount(wt.lanes_mask));
    w.passes = 1;
    if (!wt.events.empty()) {
      w.first_cycle = wt.events.front().cycle;
      w.last_cycle = wt.events.back().cycle;
    }

    // next[i][lane]: the index of the first event after i that contains lane (events.size() if none).
    const std::size_t n = wt.events.size();
    std::vector<std::array<std::uint32_t, 64>> next(n);
    std::array<std::uint32_t, 64> seen;
    seen.fill(static_cast<std::uint32_t>(n));
    for (std::size_t i = n; i-- > 0;) {
      next[i] = seen;
      for (std::uint64_t m = wt.events[i].active_mask; m; m &= m - 1) seen[std::countr_zero(m)] = static_cast<std::uint32_t>(i);
    }

    std::uint64_t exited = 0;
    std::map<std::size_t, std::uint64_t> executions_of_branch;
    for (std::size_t i = 0; i < n; ++i) {
      const TraceEvent& e = wt.events[i];
      if (e.basic_block == kTraceExit) {
        exited |= e.active_mask;
        continue;
      }
      if (e.basic_block >= blocks.size())
        throw Error(fmt::format("trace of '{}': block {} does not exist (the kernel has {})", kernel.name, e.basic_block,
                                blocks.size()),
                    ExitCode::Internal);
      const std::uint64_t count = blocks[e.basic_block].end - blocks[e.basic_block].begin;
      const std::uint64_t active = e.active_mask & wt.lanes_mask;
      const auto lanes_active = static_cast<std::uint64_t>(std::popcount(active));
      w.warp_instructions += count;
      w.thread_instructions += count * lanes_active;
      w.idle.padding += count * (warp_size > w.lanes ? warp_size - w.lanes : 0);
      w.idle.exited += count * static_cast<std::uint64_t>(std::popcount(exited & wt.lanes_mask & ~active));
      w.idle.divergence += count * static_cast<std::uint64_t>(std::popcount(wt.lanes_mask & ~exited & ~active));
      if (lanes_active < s.active_lanes_histogram.size()) s.active_lanes_histogram[lanes_active] += count;

      auto site = sites.find(e.basic_block);
      if (site == sites.end()) continue;
      std::uint64_t taken = 0, not_taken = 0;
      for (std::uint64_t m = active; m; m &= m - 1) {
        const int lane = std::countr_zero(m);
        const std::uint32_t j = next[i][lane];
        if (j >= n) continue;  // the trace ends (overflow); the lane's path is unknown
        const std::uint32_t to = wt.events[j].basic_block;
        if (to == site->second.taken) taken |= 1ull << lane;
        else if (to == site->second.fall_through) not_taken |= 1ull << lane;
      }
      BranchStats& b = s.branches[site->second.index];
      const bool divergent = taken && not_taken;
      b.executions += 1;
      b.divergent_executions += divergent;
      b.passes += divergent ? 2 : 1;
      b.taken_lanes += static_cast<std::uint64_t>(std::popcount(taken));
      b.not_taken_lanes += static_cast<std::uint64_t>(std::popcount(not_taken));
      const std::uint64_t k = executions_of_branch[site->second.index]++;
      if (k < BranchStats::kMaxOccurrences) {
        if (b.occurrences.size() <= k) b.occurrences.resize(k + 1);
        b.occurrences[k].executions += 1;
        b.occurrences[k].divergent += divergent;
      }
      if (divergent) {
        w.divergent_branches += 1;
        w.passes += 1;
      }
    }
    s.warp_instructions += w.warp_instructions;
    s.thread_instructions += w.thread_instructions;
    s.idle_lane_slots += w.idle;
    if (w.divergent_branches) s.divergent_warps += 1;
    selector.add(w);
  }
  s.warps = std::move(selector).finish();
  return s;
}

}  // namespace warpsim::cuda
