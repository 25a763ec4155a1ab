// Reconvergence points of conditional branches, and the pass list that runs every analysis.
#include "isa/analysis.hpp"

namespace warpsim::isa {

// IPDOM: the immediate post-dominator is the earliest point every path from the branch must pass,
// so it is where the two sides of a divergent branch meet again.
std::vector<std::uint32_t> find_reconvergence(const Kernel& kernel, const Cfg& cfg, const DominatorTree& postdom) {
  std::vector<std::uint32_t> reconvergence(kernel.code.size(), kNoBlock);
  for (std::uint32_t pc = 0; pc < kernel.code.size(); ++pc) {
    const Instruction& instruction = kernel.code[pc];
    if (instruction.op != Opcode::Bra || !instruction.guarded) continue;
    const std::uint32_t ipdom = postdom.idom[cfg.block_of[pc]];
    // kNoBlock: no path from here reaches an exit (an infinite loop); the paths never meet, and
    // reconverging "at exit" is the only answer a reconvergence stack can act on.
    reconvergence[pc] = ipdom == kVirtualExit || ipdom == kNoBlock ? kExitPc : cfg.blocks[ipdom].begin;
  }
  return reconvergence;
}

KernelAnalysis analyze(const Kernel& kernel) {
  KernelAnalysis analysis;
  analysis.cfg = build_cfg(kernel);
  analysis.dominators = compute_dominators(analysis.cfg);
  analysis.postdominators = compute_postdominators(analysis.cfg);
  analysis.reconvergence_pc = find_reconvergence(kernel, analysis.cfg, analysis.postdominators);
  analysis.loops = find_loops(analysis.cfg, analysis.dominators);
  analysis.registers_per_thread = count_registers(kernel, analysis.cfg);
  return analysis;
}

}  // namespace warpsim::isa
