#include "sim/split_cfg.hpp"

#include <algorithm>

namespace warpsim::sim {

namespace {

constexpr std::uint32_t kNone = 0xffffffffu;

// Strongly connected components of the graph `successors` (iterative Tarjan); each component
// sorted, components in order of their smallest node.
std::vector<std::vector<std::uint32_t>> components(const std::vector<std::vector<std::uint32_t>>& successors) {
  const auto n = static_cast<std::uint32_t>(successors.size());
  std::vector<std::uint32_t> index(n, kNone), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<std::uint32_t> stack;
  std::vector<std::vector<std::uint32_t>> out;
  std::uint32_t next_index = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kNone) continue;
    std::vector<std::pair<std::uint32_t, std::size_t>> calls{{root, 0}};
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!calls.empty()) {
      auto& [v, next] = calls.back();
      if (next < successors[v].size()) {
        const std::uint32_t w = successors[v][next++];
        if (index[w] == kNone) {
          index[w] = low[w] = next_index++;
          stack.push_back(w);
          on_stack[w] = true;
          calls.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const std::uint32_t done = v;
      calls.pop_back();
      if (!calls.empty()) low[calls.back().first] = std::min(low[calls.back().first], low[done]);
      if (low[done] != index[done]) continue;
      std::vector<std::uint32_t> component;
      std::uint32_t w = kNone;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        component.push_back(w);
      } while (w != done);
      std::sort(component.begin(), component.end());
      out.push_back(std::move(component));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void link_predecessors(isa::Cfg& cfg) {
  for (auto& b : cfg.blocks) b.predecessors.clear();
  for (std::uint32_t b = 0; b < cfg.blocks.size(); ++b)
    for (std::uint32_t s : cfg.blocks[b].successors) cfg.blocks[s].predecessors.push_back(b);
}

}  // namespace

std::optional<SplitCfg> split_irreducible(const isa::Cfg& kernel_cfg, const std::vector<isa::Loop>& kernel_loops) {
  SplitCfg split;
  split.cfg = kernel_cfg;
  const auto blocks = static_cast<std::uint32_t>(kernel_cfg.blocks.size());
  for (std::uint32_t b = 0; b < blocks; ++b) split.original.push_back(b);
  split.copy.assign(blocks, 0);
  // Each round splits the irreducible cycles left; a cycle inside a copy may need another round.
  // The bound keeps a pathological kernel's graph small (what is left unsplit still runs).
  const std::size_t max_nodes = 4 * std::size_t{blocks} + 64;
  for (int round = 0; round < 4; ++round) {
    isa::Cfg& g = split.cfg;
    const auto n = static_cast<std::uint32_t>(g.blocks.size());
    const std::vector<isa::Loop> loops =
        round == 0 ? kernel_loops : isa::find_loops(g, isa::compute_dominators(g));
    // The forward graph: every edge but a natural loop's back edge. Its cycles are irreducible.
    std::vector<std::vector<bool>> back(n);
    for (std::uint32_t b = 0; b < n; ++b) back[b].assign(g.blocks[b].successors.size(), false);
    for (const auto& loop : loops)
      for (std::uint32_t latch : loop.latches)
        for (std::size_t i = 0; i < g.blocks[latch].successors.size(); ++i)
          if (g.blocks[latch].successors[i] == loop.header) back[latch][i] = true;
    std::vector<std::vector<std::uint32_t>> forward(n);
    for (std::uint32_t b = 0; b < n; ++b)
      for (std::size_t i = 0; i < g.blocks[b].successors.size(); ++i)
        if (!back[b][i]) forward[b].push_back(g.blocks[b].successors[i]);
    bool changed = false;
    for (const auto& region : components(forward)) {
      if (region.size() < 2) continue;
      std::vector<bool> member(n, false);
      for (std::uint32_t b : region) member[b] = true;
      // Copies made for an earlier region in this round are outside this one.
      auto inside = [&](std::uint32_t b) { return b < n && member[b]; };
      std::vector<std::uint32_t> entries;
      for (std::uint32_t b : region) {
        bool entered = b == 0;
        for (std::uint32_t p : g.blocks[b].predecessors) entered = entered || !inside(p);
        if (entered) entries.push_back(b);
      }
      // The first entry keeps the kernel's blocks; every other entry gets its own copy.
      for (std::size_t e = 1; e < entries.size(); ++e) {
        if (g.blocks.size() + region.size() > max_nodes) break;
        ++split.copies;
        std::vector<std::uint32_t> clone(n, kNone);
        for (std::uint32_t b : region) {
          clone[b] = static_cast<std::uint32_t>(g.blocks.size());
          g.blocks.push_back(g.blocks[b]);
          split.original.push_back(split.original[b]);
          split.copy.push_back(split.copies);
        }
        for (std::uint32_t b : region)
          for (std::uint32_t& s : g.blocks[clone[b]].successors)
            if (inside(s)) s = clone[s];
        const std::uint32_t entry = entries[e];
        for (std::uint32_t p : g.blocks[entry].predecessors)
          if (!inside(p))
            for (std::uint32_t& s : g.blocks[p].successors)
              if (s == entry) s = clone[entry];
        changed = true;
      }
      link_predecessors(g);
    }
    if (!changed) break;
  }
  if (split.copies == 0) return std::nullopt;
  return split;
}

}  // namespace warpsim::sim
