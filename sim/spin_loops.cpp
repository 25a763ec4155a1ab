#include "sim/spin_loops.hpp"

#include "isa/opcodes.hpp"

namespace warpsim::sim {

namespace {

// Marks the registers that hold a value an atomic inside the loop returned, instruction by
// instruction (registers are reused, so whether a branch's guard came from an atomic depends on
// where the branch is). Returns whether the branch ending `block` reads such a guard.
class AtomicValues {
 public:
  AtomicValues(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, const isa::Loop& loop)
      : kernel_(kernel), blocks_(analysis.cfg.blocks), in_(blocks_.size()), member_(blocks_.size(), false) {
    for (std::uint32_t b : loop.blocks) member_[b] = true;
    const std::vector<bool> none(kernel.registers.size(), false);
    for (std::uint32_t b : loop.blocks) in_[b] = none;
    // Forward to a fixed point round the loop: a block's entry set is the union of its in-loop
    // predecessors' exit sets (values from before the loop do not count).
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t b : loop.blocks) {
        std::vector<bool> out = in_[b];
        run(b, out, nullptr);
        for (std::uint32_t s : blocks_[b].successors) {
          if (!member_[s]) continue;
          for (std::size_t r = 0; r < out.size(); ++r)
            if (out[r] && !in_[s][r]) in_[s][r] = changed = true;
        }
      }
    }
  }

  bool guard_from_atomic(std::uint32_t block) const {
    std::vector<bool> at = in_[block];
    bool guard = false;
    run(block, at, &guard);
    return guard;
  }

 private:
  void run(std::uint32_t b, std::vector<bool>& values, bool* guard) const {
    for (std::uint32_t pc = blocks_[b].begin; pc < blocks_[b].end; ++pc) {
      const isa::Instruction& in = kernel_.code[pc];
      if (guard != nullptr && pc + 1 == blocks_[b].end) *guard = in.guarded && values[in.guard];
      const isa::RegisterAccess access = isa::register_access(kernel_, in);
      if (access.write == isa::kNoRegister) continue;
      const auto latency = in.info().latency;
      bool from_atomic = latency == isa::Latency::Atomic;
      for (unsigned i = 0; i < access.read_count; ++i) from_atomic = from_atomic || values[access.reads[i]];
      // A guarded write keeps the old value in the lanes whose guard is false.
      for (unsigned k = 0; k < access.write_count; ++k)
        values[access.writes[k]] = from_atomic || (in.guarded && values[access.writes[k]]);
    }
  }

  const isa::Kernel& kernel_;
  const std::vector<isa::BasicBlock>& blocks_;
  std::vector<std::vector<bool>> in_;
  std::vector<bool> member_;
};

}  // namespace

std::vector<bool> find_spin_loop_heads(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis) {
  const auto& blocks = analysis.cfg.blocks;
  std::vector<bool> heads(kernel.code.size(), false);
  for (const isa::Loop& loop : analysis.loops) {
    const AtomicValues values(kernel, analysis, loop);
    std::vector<bool> in_loop(blocks.size(), false);
    for (std::uint32_t b : loop.blocks) in_loop[b] = true;
    // A guarded branch that decides whether lanes stay in the loop (it goes to the header or leaves)
    // on a value an atomic in the loop returned.
    bool spins = false;
    for (std::uint32_t b : loop.blocks) {
      const isa::Instruction& last = kernel.code[blocks[b].end - 1];
      if (last.op != isa::Opcode::Bra || !last.guarded) continue;
      bool decides = false;
      for (std::uint32_t s : blocks[b].successors) decides = decides || s == loop.header || !in_loop[s];
      spins = spins || (decides && values.guard_from_atomic(b));
    }
    if (spins) heads[blocks[loop.header].begin] = true;
  }
  return heads;
}

}  // namespace warpsim::sim
