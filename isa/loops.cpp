// Natural loops: a back edge latch -> header where the header dominates the latch; the loop is the
// header plus every block that reaches the latch without passing the header. Back edges to one
// header make one loop. Irreducible cycles (no dominating header) are not loops here.
#include <algorithm>
#include <map>

#include "isa/analysis.hpp"

namespace warpsim::isa {

std::vector<Loop> find_loops(const Cfg& cfg, const DominatorTree& dom) {
  const auto n = static_cast<std::uint32_t>(cfg.blocks.size());
  auto reached = [&](std::uint32_t b) { return b == 0 || dom.idom[b] != kNoBlock; };

  std::map<std::uint32_t, Loop> by_header;  // ordered by header block: deterministic output
  for (std::uint32_t latch = 0; latch < n; ++latch) {
    if (!reached(latch)) continue;
    for (std::uint32_t header : cfg.blocks[latch].successors) {
      if (!dominates(dom, header, latch)) continue;
      Loop& loop = by_header[header];
      loop.header = header;
      loop.latches.push_back(latch);
      std::vector<bool> in_loop(n, false);
      for (std::uint32_t b : loop.blocks) in_loop[b] = true;
      in_loop[header] = true;
      std::vector<std::uint32_t> work;
      if (!in_loop[latch]) {
        in_loop[latch] = true;
        work.push_back(latch);
      }
      while (!work.empty()) {
        const std::uint32_t b = work.back();
        work.pop_back();
        for (std::uint32_t p : cfg.blocks[b].predecessors)
          if (!in_loop[p] && reached(p)) {
            in_loop[p] = true;
            work.push_back(p);
          }
      }
      loop.blocks.clear();
      for (std::uint32_t b = 0; b < n; ++b)
        if (in_loop[b]) loop.blocks.push_back(b);
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
