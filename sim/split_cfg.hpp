// Node splitting of irreducible control flow, as the CUDA compiler does before it places convergence
// barriers: a cycle that can be entered at several blocks gets one copy of its blocks per entry, so
// lanes that came in through different entries run different code and never meet inside it, and
// each copy is a natural loop headed by its entry (docs/design.md "How the H100 reconverges").
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "isa/analysis.hpp"

namespace warpsim::sim {

struct SplitCfg {
  isa::Cfg cfg;                         // nodes; block_of maps a pc to its block's first node
  std::vector<std::uint32_t> original;  // node -> the kernel's block it copies
  std::vector<std::uint32_t> copy;      // node -> 0 for the kernel's own blocks, else the copy it is in
  std::uint32_t copies = 0;
};

// Nothing when every cycle of `cfg` is a natural loop (`loops`, as isa::find_loops gives them).
std::optional<SplitCfg> split_irreducible(const isa::Cfg& cfg, const std::vector<isa::Loop>& loops);

}  // namespace warpsim::sim
