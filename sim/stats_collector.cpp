#include "sim/stats_collector.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/block.hpp"
#include "sim/warp.hpp"

namespace warpsim::sim {

StatsCollector::StatsCollector(const LaunchSpec& spec, const Program& program, std::uint64_t warps_per_block)
    : histogram(program.warp_size + 1, 0),
      block_entries(spec.analysis->cfg.blocks.size(), 0),
      block_entry_lanes(spec.analysis->cfg.blocks.size(), 0),
      spec_(spec),
      program_(program),
      warp_size_(program.warp_size),
      warps_per_block_(warps_per_block),
      tracing_(spec.record_trace),
      selector_(spec.warps, warps_per_block) {
  const auto& kernel = *spec.kernel;
  const auto& cfg = spec.analysis->cfg;
  branches.reserve(program.branch_pcs.size());
  for (const std::uint32_t pc : program.branch_pcs) {
    BranchStats b;
    b.pc = pc;
    const auto& inst = kernel.code[pc];
    b.line = inst.loc.line;
    b.source = kernel.origin_text(inst);
    const std::uint32_t block = cfg.block_of[pc];
    if (block < cfg.blocks.size() && cfg.blocks[block].label >= 0)
      b.label = kernel.labels[static_cast<std::size_t>(cfg.blocks[block].label)].name;
    else
      b.label = fmt::format("B{}", block);  // as `warpsim cfg` numbers unlabelled blocks
    b.target = kernel.labels.at(inst.operands[0].index).name;
    b.reconvergence_pc = spec.analysis->reconvergence_pc[pc];
    branches.push_back(std::move(b));
  }
}

void StatsCollector::finish_warp(const Block& block, Warp& w, const WarpTiming* timing) {
  WarpStats s;
  s.block_linear = block.linear;
  s.block_index = block.index;
  s.warp_in_block = w.index;
  s.first_thread = std::uint64_t{w.index} * warp_size_;
  s.lanes = w.lanes;
  s.warp_instructions = w.issued;
  s.thread_instructions = w.exec_sum;
  s.divergent_branches = w.divergent_branches;
  s.passes = 1 + w.divergent_branches;
  s.max_stack_depth = w.max_stack_depth;
  s.path_order = std::move(w.path_order);
  w.path_order.clear();
  s.idle.padding = w.issued * (warp_size_ - w.lanes);
  s.idle.exited = w.exited_sum;
  s.idle.predicated = w.active_sum - w.exec_sum;
  s.idle.divergence = w.issued * w.lanes - w.exited_sum - w.active_sum;
  s.first_issue = w.first_issue;
  s.last_issue = w.last_issue;
  if (timing != nullptr) {
    s.timed = true;
    s.first_cycle = w.first_cycle;
    s.last_cycle = w.last_cycle;
    s.sm = timing->sm;
    s.sub_partition = timing->sub_partition;
    s.stalls = timing->stalls;
  }

  warp_instructions_ += s.warp_instructions;
  thread_instructions_ += s.thread_instructions;
  idle_ += s.idle;
  if (s.divergent_branches > 0) ++divergent_warps_;
  selector_.add(s);

  if (tracing_) {
    WarpTrace t;
    t.block_linear = block.linear;
    t.warp_in_block = w.index;
    t.lanes_mask = w.exist;
    t.events = std::move(w.trace);
    traces_.push_back(std::move(t));
    w.trace = {};
  }
}

void StatsCollector::merge(StatsCollector&& o) {
  for (std::size_t i = 0; i < histogram.size(); ++i) histogram[i] += o.histogram[i];
  for (std::size_t i = 0; i < block_entries.size(); ++i) {
    block_entries[i] += o.block_entries[i];
    block_entry_lanes[i] += o.block_entry_lanes[i];
  }
  for (std::size_t i = 0; i < branches.size(); ++i) {
    BranchStats& a = branches[i];
    const BranchStats& b = o.branches[i];
    a.executions += b.executions;
    a.divergent_executions += b.divergent_executions;
    a.passes += b.passes;
    a.taken_lanes += b.taken_lanes;
    a.not_taken_lanes += b.not_taken_lanes;
    if (a.occurrences.size() < b.occurrences.size()) a.occurrences.resize(b.occurrences.size());
    for (std::size_t k = 0; k < b.occurrences.size(); ++k) {
      a.occurrences[k].executions += b.occurrences[k].executions;
      a.occurrences[k].divergent += b.occurrences[k].divergent;
    }
  }
  warp_instructions_ += o.warp_instructions_;
  thread_instructions_ += o.thread_instructions_;
  divergent_warps_ += o.divergent_warps_;
  idle_ += o.idle_;
  selector_.merge(std::move(o.selector_));
  traces_.insert(traces_.end(), std::make_move_iterator(o.traces_.begin()), std::make_move_iterator(o.traces_.end()));
}

void StatsCollector::finish(LaunchStats& out, std::optional<Trace>& trace) && {
  const std::uint64_t threads = spec_.block.count();
  out.kernel = spec_.kernel->name;
  out.backend = "sim";
  out.grid = spec_.grid;
  out.block = spec_.block;
  out.warp_size = warp_size_;
  out.blocks = spec_.grid.count();
  out.warps_per_block = warps_per_block_;
  out.warps_launched = out.blocks * warps_per_block_;
  out.partial_warps = threads % warp_size_ != 0 ? out.blocks : 0;
  out.padding_lanes = out.blocks * (warps_per_block_ * warp_size_ - threads);
  out.divergent_warps = divergent_warps_;
  out.warp_instructions = warp_instructions_;
  out.thread_instructions = thread_instructions_;
  out.idle_lane_slots = idle_;
  out.active_lanes_histogram = std::move(histogram);
  out.branches = std::move(branches);
  out.warps = std::move(selector_).finish();
  // Every instruction of a CFG block issues once per entry (a block is left only at its end).
  const auto& cfg = spec_.analysis->cfg;
  out.mix = {};
  for (std::size_t b = 0; b < cfg.blocks.size(); ++b)
    for (std::uint32_t pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; ++pc) {
      const auto k = static_cast<unsigned>(program_.code[pc].timing);
      out.mix.warp[k] += block_entries[b];
      out.mix.lanes[k] += block_entry_lanes[b];
    }
  out.kernel_ms = 0.0;
  if (tracing_) {
    Trace t;
    t.kernel = spec_.kernel->name;
    t.grid = spec_.grid;
    t.block = spec_.block;
    t.warp_size = warp_size_;
    t.warps = std::move(traces_);
    std::sort(t.warps.begin(), t.warps.end(), [](const WarpTrace& a, const WarpTrace& b) {
      return a.block_linear != b.block_linear ? a.block_linear < b.block_linear : a.warp_in_block < b.warp_in_block;
    });
    trace = std::move(t);
  }
}

}  // namespace warpsim::sim
