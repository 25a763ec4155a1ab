// Dominator and post-dominator trees, by the iterative algorithm of Cooper, Harvey and Kennedy
// ("A Simple, Fast Dominance Algorithm"). Traversal follows successor order, so it is
// deterministic.
#include <algorithm>

#include "isa/analysis.hpp"

namespace warpsim::isa {

namespace {

using Edges = std::vector<std::vector<std::uint32_t>>;
constexpr std::uint32_t kUnvisited = std::numeric_limits<std::uint32_t>::max();

// Immediate dominators of a graph of nodes 0..n-1 from root: idom[root] = root, kNoBlock for
// nodes the root does not reach.
std::vector<std::uint32_t> immediate_dominators(const Edges& successors, const Edges& predecessors,
                                                std::uint32_t root) {
  const std::size_t n = successors.size();
  // Post-order numbers by an explicit-stack depth-first search (no recursion on big kernels).
  std::vector<std::uint32_t> post_number(n, kUnvisited);
  std::vector<std::uint32_t> post_order;
  std::vector<bool> visited(n, false);
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{root, 0}};
  visited[root] = true;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < successors[node].size()) {
      const std::uint32_t s = successors[node][next++];
      if (!visited[s]) {
        visited[s] = true;
        stack.push_back({s, 0});
      }
      continue;
    }
    post_number[node] = static_cast<std::uint32_t>(post_order.size());
    post_order.push_back(node);
    stack.pop_back();
  }

  std::vector<std::uint32_t> idom(n, kNoBlock);
  idom[root] = root;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (post_number[a] < post_number[b]) a = idom[a];
      while (post_number[b] < post_number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
      const std::uint32_t node = *it;
      if (node == root) continue;
      std::uint32_t candidate = kNoBlock;
      for (std::uint32_t p : predecessors[node]) {
        if (idom[p] == kNoBlock) continue;  // not reached yet, or never
        candidate = candidate == kNoBlock ? p : intersect(p, candidate);
      }
      if (idom[node] != candidate) {
        idom[node] = candidate;
        changed = true;
      }
    }
  }
  return idom;
}

}  // namespace

DominatorTree compute_dominators(const Cfg& cfg) {
  DominatorTree tree;
  const std::size_t n = cfg.blocks.size();
  if (n == 0) return tree;
  Edges successors(n), predecessors(n);
  for (std::size_t b = 0; b < n; ++b) {
    successors[b] = cfg.blocks[b].successors;
    predecessors[b] = cfg.blocks[b].predecessors;
  }
  tree.idom = immediate_dominators(successors, predecessors, 0);
  tree.idom[0] = kNoBlock;
  return tree;
}

DominatorTree compute_postdominators(const Cfg& cfg) {
  DominatorTree tree;
  const auto n = static_cast<std::uint32_t>(cfg.blocks.size());
  if (n == 0) return tree;
  // The reversed CFG plus node n, the virtual exit, with an edge from every exiting block. Always
  // rooting at the virtual exit (even with one exiting block) gives one rule for every kernel.
  const std::uint32_t exit_node = n;
  Edges successors(n + 1), predecessors(n + 1);
  for (std::uint32_t b = 0; b < n; ++b) {
    const BasicBlock& block = cfg.blocks[b];
    successors[b] = block.predecessors;
    predecessors[b] = block.successors;
    if (block.exits) {
      successors[exit_node].push_back(b);
      predecessors[b].push_back(exit_node);
    }
  }
  std::vector<std::uint32_t> idom = immediate_dominators(successors, predecessors, exit_node);
  idom.pop_back();
  for (std::uint32_t& d : idom)
    if (d == exit_node) d = kVirtualExit;
  tree.idom = std::move(idom);
  return tree;
}

bool dominates(const DominatorTree& tree, std::uint32_t a, std::uint32_t b) {
  for (std::uint32_t node = b;; node = tree.idom[node]) {
    if (node == a) return true;
    if (node >= tree.idom.size()) return false;  // passed the root (kNoBlock or kVirtualExit)
  }
}

}  // namespace warpsim::isa
