// Analyses over a kernel's flat instruction list, run in this order (see analyze()):
// build_cfg -> compute_dominators / compute_postdominators -> find_reconvergence -> find_loops
// -> count_registers.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "isa/module.hpp"

namespace warpsim::isa {

constexpr std::uint32_t kNoBlock = std::numeric_limits<std::uint32_t>::max();
// The virtual exit node that post-dominates every exit/ret, and the "pc" of reconverging there.
constexpr std::uint32_t kVirtualExit = std::numeric_limits<std::uint32_t>::max() - 1;
constexpr std::uint32_t kExitPc = kVirtualExit;

struct BasicBlock {
  std::uint32_t begin = 0;  // first instruction index
  std::uint32_t end = 0;    // one past the last instruction
  int label = -1;           // label index when the block starts at a label
  std::vector<std::uint32_t> successors;    // block indices; taken target first, then fall-through
  std::vector<std::uint32_t> predecessors;
  bool exits = false;       // ends in exit/ret (an edge to the virtual exit)
};

struct Cfg {
  std::vector<BasicBlock> blocks;            // block 0 is the entry
  std::vector<std::uint32_t> block_of;       // instruction index -> block index
};

// Immediate (post-)dominator of each block; kNoBlock for the entry (dominators) and kVirtualExit
// when only the virtual exit post-dominates a block (every exiting block's immediate
// post-dominator is kVirtualExit, even when only one block exits). Blocks the root cannot reach
// get kNoBlock: for dominators those no path from the entry reaches, for post-dominators those
// with no path to an exit (an infinite loop, or code that falls off the end).
struct DominatorTree {
  std::vector<std::uint32_t> idom;
};

struct Loop {
  std::uint32_t header = 0;
  std::vector<std::uint32_t> blocks;      // sorted, header included
  std::vector<std::uint32_t> latches;     // blocks with a back edge to the header
};

struct KernelAnalysis {
  Cfg cfg;
  DominatorTree dominators;
  DominatorTree postdominators;
  // Per instruction: for a conditional branch (guarded bra), the instruction index where its two
  // paths reconverge (the first instruction of the branch block's immediate post-dominator), or
  // kExitPc when they only meet at the virtual exit; kNoBlock for every other instruction.
  std::vector<std::uint32_t> reconvergence_pc;
  std::vector<Loop> loops;
  std::uint32_t registers_per_thread = 0;  // 32-bit registers live at once at the peak (u64: 2)
};

// Registers one instruction reads (its guard, source operands and memory bases, in that order)
// and writes (its destination). Indices that name no register are left out.
constexpr std::uint32_t kNoRegister = std::numeric_limits<std::uint32_t>::max();
struct RegisterAccess {
  std::array<std::uint32_t, 6> reads{};
  std::uint8_t read_count = 0;
  std::uint32_t write = kNoRegister;  // the first register written (writes[0]), or kNoRegister
  std::array<std::uint32_t, 4> writes{};  // every register written: more than one for ld.v2/.v4 and an unpacking mov
  std::uint8_t write_count = 0;
};
RegisterAccess register_access(const Kernel& kernel, const Instruction& instruction);

// Blocks begin at instruction 0, at every label and after every terminator. A guarded exit/ret
// ends its block with exits = true AND a fall-through successor (lanes whose guard is false go on).
Cfg build_cfg(const Kernel& kernel);
// Blocks a path from the entry (block 0) reaches.
std::vector<bool> reachable_blocks(const Cfg& cfg);
// True when block a dominates block b in the tree (every block dominates itself).
bool dominates(const DominatorTree& tree, std::uint32_t a, std::uint32_t b);
DominatorTree compute_dominators(const Cfg& cfg);
DominatorTree compute_postdominators(const Cfg& cfg);
std::vector<std::uint32_t> find_reconvergence(const Kernel& kernel, const Cfg& cfg, const DominatorTree& postdom);
std::vector<Loop> find_loops(const Cfg& cfg, const DominatorTree& dom);
std::uint32_t count_registers(const Kernel& kernel, const Cfg& cfg);

// The pass list, top to bottom. Requires a kernel that verify() accepts.
KernelAnalysis analyze(const Kernel& kernel);

}  // namespace warpsim::isa
