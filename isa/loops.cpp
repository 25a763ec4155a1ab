// Natural loops: a back edge latch -> header where the header dominates the latch; the loop is the
// header plus every block that reaches the latch without passing the header. Back edges to one
// header make one loop. Irreducible cycles (no dominating header) are not loops here.
#include <algorithm>
#include <map>

#include "isa/analysis.hpp"

namespace warpsim::isa {

namespace {
// Entry and leave times of a depth-first walk of the dominator tree: a dominates b exactly when b's
// interval lies inside a's, an O(1) test instead of a walk up b's idom chain (which made finding
// the loops of a long kernel quadratic).
struct DominatorIntervals {
  std::vector<std::uint32_t> enter, leave;
  bool dominates(std::uint32_t a, std::uint32_t b) const { return enter[a] <= enter[b] && leave[b] <= leave[a]; }
};

DominatorIntervals dominator_intervals(const DominatorTree& dom) {
  const auto n = static_cast<std::uint32_t>(dom.idom.size());
  std::vector<std::vector<std::uint32_t>> children(n);
  for (std::uint32_t b = 1; b < n; ++b)
    if (dom.idom[b] < n && dom.idom[b] != b) children[dom.idom[b]].push_back(b);
  DominatorIntervals d;
  d.enter.assign(n, 1);  // unreached blocks: an empty interval no block lies in
  d.leave.assign(n, 0);
  std::uint32_t clock = 0;
  if (n == 0) return d;
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0u, 0}};
  d.enter[0] = ++clock;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < children[b].size()) {
      const std::uint32_t c = children[b][next++];
      d.enter[c] = ++clock;
      stack.push_back({c, 0});
    } else {
      d.leave[b] = ++clock;
      stack.pop_back();
    }
  }
  return d;
}
}  // namespace

std::vector<Loop> find_loops(const Cfg& cfg, const DominatorTree& dom) {
  const auto n = static_cast<std::uint32_t>(cfg.blocks.size());
  auto reached = [&](std::uint32_t b) { return b == 0 || dom.idom[b] != kNoBlock; };
  const DominatorIntervals intervals = dominator_intervals(dom);

  std::map<std::uint32_t, Loop> by_header;  // ordered by header block: deterministic output
  // in_loop[b] == stamp: b belongs to the loop being grown (a fresh stamp per back edge, so no
  // per-loop clearing of an n-sized array).
  std::vector<std::uint32_t> in_loop(n, 0);
  std::uint32_t stamp = 0;
  for (std::uint32_t latch = 0; latch < n; ++latch) {
    if (!reached(latch)) continue;
    for (std::uint32_t header : cfg.blocks[latch].successors) {
      if (!reached(header) || !intervals.dominates(header, latch)) continue;
      Loop& loop = by_header[header];
      loop.header = header;
      loop.latches.push_back(latch);
      ++stamp;
      std::vector<std::uint32_t> blocks = loop.blocks;
      for (std::uint32_t b : blocks) in_loop[b] = stamp;
      if (in_loop[header] != stamp) {
        in_loop[header] = stamp;
        blocks.push_back(header);
      }
      std::vector<std::uint32_t> work;
      if (in_loop[latch] != stamp) {
        in_loop[latch] = stamp;
        blocks.push_back(latch);
        work.push_back(latch);
      }
      while (!work.empty()) {
        const std::uint32_t b = work.back();
        work.pop_back();
        for (std::uint32_t p : cfg.blocks[b].predecessors)
          if (in_loop[p] != stamp && reached(p)) {
            in_loop[p] = stamp;
            blocks.push_back(p);
            work.push_back(p);
          }
      }
      std::sort(blocks.begin(), blocks.end());
      loop.blocks = std::move(blocks);
    }
  }
  std::vector<Loop> loops;
  for (auto& [header, loop] : by_header) {
    std::sort(loop.latches.begin(), loop.latches.end());
    loops.push_back(std::move(loop));
  }
  return loops;
}

}  // namespace warpsim::isa
