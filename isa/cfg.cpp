// Basic blocks and their edges over a kernel's flat instruction list.
#include <algorithm>

#include "isa/analysis.hpp"

namespace warpsim::isa {

namespace {

// The instruction index a branch's label stands before; kNoBlock when the label does not exist
// or marks the end of the code (the verifier reports both).
std::uint32_t branch_target(const Kernel& kernel, const Instruction& branch) {
  if (branch.operand_count < 1) return kNoBlock;
  const Operand& target = branch.operands[0];
  if (target.kind != OperandKind::Label || target.index >= kernel.labels.size()) return kNoBlock;
  const std::uint32_t position = kernel.labels[target.index].position;
  return position < kernel.code.size() ? position : kNoBlock;
}

void add_successor(BasicBlock& block, std::uint32_t successor) {
  // A guarded bra to its own fall-through has one successor, not the same one twice.
  if (std::find(block.successors.begin(), block.successors.end(), successor) == block.successors.end())
    block.successors.push_back(successor);
}

}  // namespace

Cfg build_cfg(const Kernel& kernel) {
  Cfg cfg;
  const auto size = static_cast<std::uint32_t>(kernel.code.size());
  if (size == 0) return cfg;

  std::vector<bool> leader(size, false);
  leader[0] = true;
  for (const Label& label : kernel.labels)
    if (label.position < size) leader[label.position] = true;
  for (std::uint32_t pc = 0; pc + 1 < size; ++pc)
    if (kernel.code[pc].info().terminator) leader[pc + 1] = true;

  cfg.block_of.assign(size, 0);
  for (std::uint32_t pc = 0; pc < size; ++pc) {
    if (leader[pc]) {
      BasicBlock block;
      block.begin = pc;
      cfg.blocks.push_back(block);
    }
    cfg.blocks.back().end = pc + 1;
    cfg.block_of[pc] = static_cast<std::uint32_t>(cfg.blocks.size() - 1);
  }
  // The first label at a position names the block (labels are kept in declaration order).
  for (std::size_t l = 0; l < kernel.labels.size(); ++l) {
    const std::uint32_t position = kernel.labels[l].position;
    if (position >= size) continue;
    BasicBlock& block = cfg.blocks[cfg.block_of[position]];
    if (block.begin == position && block.label < 0) block.label = static_cast<int>(l);
  }

  for (BasicBlock& block : cfg.blocks) {
    const Instruction& last = kernel.code[block.end - 1];
    const bool has_next = block.end < size;
    const std::uint32_t next = has_next ? cfg.block_of[block.end] : kNoBlock;
    switch (last.op) {
      case Opcode::Bra: {
        const std::uint32_t target = branch_target(kernel, last);
        if (target != kNoBlock) add_successor(block, cfg.block_of[target]);
        if (last.guarded && has_next) add_successor(block, next);
        break;
      }
      case Opcode::Exit:
      case Opcode::Ret:
        block.exits = true;
        // Lanes whose guard is false carry on with the next instruction.
        if (last.guarded && has_next) add_successor(block, next);
        break;
      default:
        if (has_next) add_successor(block, next);
        break;
    }
  }
  for (std::uint32_t b = 0; b < cfg.blocks.size(); ++b)
    for (std::uint32_t s : cfg.blocks[b].successors) cfg.blocks[s].predecessors.push_back(b);
  return cfg;
}

std::vector<bool> reachable_blocks(const Cfg& cfg) {
  std::vector<bool> seen(cfg.blocks.size(), false);
  if (cfg.blocks.empty()) return seen;
  std::vector<std::uint32_t> work{0};
  seen[0] = true;
  while (!work.empty()) {
    const std::uint32_t b = work.back();
    work.pop_back();
    for (std::uint32_t s : cfg.blocks[b].successors)
      if (!seen[s]) {
        seen[s] = true;
        work.push_back(s);
      }
  }
  return seen;
}

}  // namespace warpsim::isa
