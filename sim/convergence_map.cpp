#include "sim/convergence_map.hpp"

namespace warpsim::sim {

ConvergenceMap::ConvergenceMap(const isa::KernelAnalysis& a) {
  const auto& blocks = a.cfg.blocks;
  blocks_ = static_cast<std::uint32_t>(blocks.size());
  block_of_ = a.cfg.block_of;
  header_loop_.assign(blocks_, kNone);
  for (std::uint32_t l = 0; l < a.loops.size(); ++l) {
    header_loop_[a.loops[l].header] = l;
    std::vector<bool> member(blocks_, false);
    for (std::uint32_t b : a.loops[l].blocks) member[b] = true;
    loop_blocks_.push_back(std::move(member));
  }

  // Forward edges: every edge but a back edge. Joins have two or more.
  join_.assign(blocks_, false);
  std::vector<std::vector<std::uint32_t>> forward(blocks_);
  for (std::uint32_t b = 0; b < blocks_; ++b)
    for (std::uint32_t s : blocks[b].successors)
      if (!back_edge(b, s)) forward[b].push_back(s);
  std::vector<std::uint32_t> incoming(blocks_, 0);
  for (std::uint32_t b = 0; b < blocks_; ++b)
    for (std::uint32_t s : forward[b]) ++incoming[s];
  for (std::uint32_t b = 0; b < blocks_; ++b) join_[b] = incoming[b] >= 2;
  // Lanes leaving a loop wait for the loop where all its exits meet: the compiler sets a barrier
  // before the loop that syncs at the header's immediate post-dominator.
  // When the exits only meet at the kernel's exit, lanes wait at each block they leave to.
  for (std::uint32_t l = 0; l < a.loops.size(); ++l) {
    const std::uint32_t after = a.postdominators.idom[a.loops[l].header];
    if (after < blocks_) {
      join_[after] = true;
      continue;
    }
    for (std::uint32_t b : a.loops[l].blocks)
      for (std::uint32_t s : blocks[b].successors)
        if (!loop_blocks_[l][s]) join_[s] = true;
  }

  // Forward reachability (a search per block: kernels have tens of blocks, not thousands).
  std::vector<bool> forward_reach(std::size_t{blocks_} * blocks_, false);
  std::vector<std::uint32_t> work;
  for (std::uint32_t b = 0; b < blocks_; ++b) {
    auto row = [&](std::uint32_t to) { return forward_reach[std::size_t{b} * blocks_ + to]; };
    work.assign(forward[b].begin(), forward[b].end());
    while (!work.empty()) {
      const std::uint32_t x = work.back();
      work.pop_back();
      if (row(x)) continue;
      forward_reach[std::size_t{b} * blocks_ + x] = true;
      for (std::uint32_t s : forward[x]) work.push_back(s);
    }
  }
  // A lane inside a loop that does not hold `to` can go round to the header and leave from there.
  reach_ = forward_reach;
  for (std::uint32_t l = 0; l < loop_blocks_.size(); ++l) {
    const std::uint32_t h = a.loops[l].header;
    for (std::uint32_t b = 0; b < blocks_; ++b) {
      if (!loop_blocks_[l][b]) continue;
      for (std::uint32_t to = 0; to < blocks_; ++to)
        if (!loop_blocks_[l][to] && (forward_reach[std::size_t{h} * blocks_ + to] || h == to))
          reach_[std::size_t{b} * blocks_ + to] = true;
    }
  }

  // Stops: the first instruction of every join and loop header.
  const auto code_size = static_cast<std::uint32_t>(block_of_.size());
  next_stop_.assign(code_size + 1, kNone);
  for (std::uint32_t pc = code_size; pc-- > 0;) {
    const std::uint32_t b = block_of_[pc];
    const bool stop = blocks[b].begin == pc && (join_[b] || header_loop_[b] != kNone);
    next_stop_[pc] = stop ? pc : next_stop_[pc + 1];
  }
}

}  // namespace warpsim::sim
