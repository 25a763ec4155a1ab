#include "sim/convergence_map.hpp"

#include <utility>

#include "sim/split_cfg.hpp"

namespace warpsim::sim {

ConvergenceMap::ConvergenceMap(const isa::KernelAnalysis& a, std::vector<bool> spin_heads)
    : spin_heads_(std::move(spin_heads)) {
  for (bool head : spin_heads_) has_spin_loops_ = has_spin_loops_ || head;
  blocks_ = static_cast<std::uint32_t>(a.cfg.blocks.size());
  const auto split = split_irreducible(a.cfg, a.loops);
  if (!split) {
    build(a.cfg, a.postdominators, a.loops);
    return;
  }
  split_ = true;
  const isa::Cfg& g = split->cfg;
  build(g, isa::compute_postdominators(g), isa::find_loops(g, isa::compute_dominators(g)));
  for (const auto& node : g.blocks) {
    begin_.push_back(node.begin);
    successors_.push_back(node.successors);
  }
  copy_ = split->copy;
  copy_node_.assign(std::size_t{split->copies + 1} * blocks_, kNone);
  for (std::uint32_t n = 0; n < nodes_; ++n) copy_node_[std::size_t{copy_[n]} * blocks_ + split->original[n]] = n;
}

std::uint32_t ConvergenceMap::locate_split(std::uint32_t near, std::uint32_t pc) const {
  const std::uint32_t b = block_of(pc);
  if (b == kNone || near == kNone || copy_[near] == 0) return b;
  const std::uint32_t n = copy_node_[std::size_t{copy_[near]} * blocks_ + b];
  return n != kNone ? n : b;
}

std::uint32_t ConvergenceMap::step_split(std::uint32_t from, std::uint32_t from_pc, std::uint32_t pc) const {
  if (from_pc == kNone) return locate_split(from, pc);
  from = locate_split(from, from_pc);  // a path that ran on without the model is still in its copy
  if (from == kNone) return block_of(pc);
  if (pc != begin_[from] && block_of(pc) == block_of(from_pc)) return from;  // straight on in the block
  for (std::uint32_t s : successors_[from])
    if (begin_[s] == pc) return s;  // along an edge: into the copy that edge enters
  return locate_split(from, pc);
}

void ConvergenceMap::build(const isa::Cfg& cfg, const isa::DominatorTree& postdominators,
                           const std::vector<isa::Loop>& loops) {
  const auto& blocks = cfg.blocks;
  nodes_ = static_cast<std::uint32_t>(blocks.size());
  block_of_ = cfg.block_of;
  header_loop_.assign(nodes_, kNone);
  for (std::uint32_t l = 0; l < loops.size(); ++l) {
    header_loop_[loops[l].header] = l;
    std::vector<bool> member(nodes_, false);
    for (std::uint32_t b : loops[l].blocks) member[b] = true;
    loop_nodes_.push_back(std::move(member));
  }

  // Forward edges: every edge but a back edge. Joins have two or more.
  join_.assign(nodes_, false);
  std::vector<std::vector<std::uint32_t>> forward(nodes_);
  for (std::uint32_t b = 0; b < nodes_; ++b)
    for (std::uint32_t s : blocks[b].successors)
      if (!back_edge(b, s)) forward[b].push_back(s);
  std::vector<std::uint32_t> incoming(nodes_, 0);
  for (std::uint32_t b = 0; b < nodes_; ++b)
    for (std::uint32_t s : forward[b]) ++incoming[s];
  for (std::uint32_t b = 0; b < nodes_; ++b) join_[b] = incoming[b] >= 2;
  // Lanes leaving a loop wait for the loop where all its exits meet: the compiler sets a barrier
  // before the loop that syncs at the header's immediate post-dominator.
  // When the exits only meet at the kernel's exit, lanes wait at each block they leave to.
  for (std::uint32_t l = 0; l < loops.size(); ++l) {
    const std::uint32_t after = postdominators.idom[loops[l].header];
    if (after < nodes_) {
      join_[after] = true;
      continue;
    }
    for (std::uint32_t b : loops[l].blocks)
      for (std::uint32_t s : blocks[b].successors)
        if (!loop_nodes_[l][s]) join_[s] = true;
  }

  // Forward reachability (a search per block: kernels have tens of blocks, not thousands).
  std::vector<bool> forward_reach(std::size_t{nodes_} * nodes_, false);
  std::vector<std::uint32_t> work;
  for (std::uint32_t b = 0; b < nodes_; ++b) {
    auto row = [&](std::uint32_t to) { return forward_reach[std::size_t{b} * nodes_ + to]; };
    work.assign(forward[b].begin(), forward[b].end());
    while (!work.empty()) {
      const std::uint32_t x = work.back();
      work.pop_back();
      if (row(x)) continue;
      forward_reach[std::size_t{b} * nodes_ + x] = true;
      for (std::uint32_t s : forward[x]) work.push_back(s);
    }
  }
  // A lane inside a loop that does not hold `to` can go round to the header and leave from there.
  reach_ = forward_reach;
  for (std::uint32_t l = 0; l < loop_nodes_.size(); ++l) {
    const std::uint32_t h = loops[l].header;
    for (std::uint32_t b = 0; b < nodes_; ++b) {
      if (!loop_nodes_[l][b]) continue;
      for (std::uint32_t to = 0; to < nodes_; ++to)
        if (!loop_nodes_[l][to] && (forward_reach[std::size_t{h} * nodes_ + to] || h == to))
          reach_[std::size_t{b} * nodes_ + to] = true;
    }
  }

  // Stops: the first instruction of every join and loop header.
  const auto code_size = static_cast<std::uint32_t>(block_of_.size());
  next_stop_.assign(code_size + 1, kNone);
  std::vector<bool> stop_at(code_size, false);
  for (std::uint32_t b = 0; b < nodes_; ++b)
    if (join_[b] || header_loop_[b] != kNone) stop_at[blocks[b].begin] = true;  // any copy of the block
  for (std::uint32_t pc = code_size; pc-- > 0;) next_stop_[pc] = stop_at[pc] ? pc : next_stop_[pc + 1];
}

}  // namespace warpsim::sim
