// Which registers instructions read and write, and the register pressure of a kernel.
#include <algorithm>

#include "isa/analysis.hpp"

namespace warpsim::isa {

namespace {


// 32-bit registers a register occupies while live. Predicates live in separate predicate registers
// and parameters in the constant bank (as in CUDA), so neither costs a general register.
std::uint32_t register_weight(const Register& reg) {
  if (reg.is_param || reg.type == Type::Pred) return 0;
  return is_wide(reg.type) ? 2 : 1;
}

// The live set at one program point and its weight in 32-bit registers.
class LiveSet {
 public:
  explicit LiveSet(const Kernel& kernel) : kernel_(kernel), live_(kernel.registers.size(), false) {}
  void assign(const std::vector<bool>& live) {
    live_ = live;
    weight_ = 0;
    for (std::size_t r = 0; r < live_.size(); ++r)
      if (live_[r]) weight_ += register_weight(kernel_.registers[r]);
  }
  void add(std::uint32_t r) {
    if (live_[r]) return;
    live_[r] = true;
    weight_ += register_weight(kernel_.registers[r]);
  }
  void remove(std::uint32_t r) {
    if (!live_[r]) return;
    live_[r] = false;
    weight_ -= register_weight(kernel_.registers[r]);
  }
  bool contains(std::uint32_t r) const { return live_[r]; }
  std::uint32_t weight() const { return weight_; }

 private:
  const Kernel& kernel_;
  std::vector<bool> live_;
  std::uint32_t weight_ = 0;
};

}  // namespace

RegisterAccess register_access(const Kernel& kernel, const Instruction& instruction) {
  RegisterAccess access;
  const auto count = static_cast<std::uint32_t>(kernel.registers.size());
  auto read = [&](std::uint32_t r) {
    if (r < count && access.read_count < access.reads.size()) access.reads[access.read_count++] = r;
  };
  if (instruction.guarded) read(instruction.guard);
  const OpcodeInfo& info = instruction.info();
  for (unsigned i = 0; i < instruction.operand_count && i < info.arity; ++i) {
    const Operand& operand = instruction.operands[i];
    if (operand.kind != OperandKind::Register && operand.kind != OperandKind::MemRegister) continue;
    if (is_destination(info.roles[i]) && operand.kind == OperandKind::Register) {
      if (operand.index < count) access.write = operand.index;
    } else {
      read(operand.index);
    }
  }
  return access;
}

// Backward liveness over the CFG, then a backward walk through each block tracking the weight of
// the live set. The peak counts an instruction's destination together with what stays live past
// it, since both need a register at that moment. A guarded write does not end the old value's
// life: lanes whose guard is false keep it. Only blocks reached from the entry count.
std::uint32_t count_registers(const Kernel& kernel, const Cfg& cfg) {
  const std::size_t n = cfg.blocks.size();
  const std::size_t registers = kernel.registers.size();
  std::vector<std::vector<bool>> uses(n, std::vector<bool>(registers, false));
  std::vector<std::vector<bool>> kills(n, std::vector<bool>(registers, false));
  for (std::size_t b = 0; b < n; ++b) {
    for (std::uint32_t pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; ++pc) {
      const Instruction& instruction = kernel.code[pc];
      const RegisterAccess access = register_access(kernel, instruction);
      for (unsigned i = 0; i < access.read_count; ++i)
        if (!kills[b][access.reads[i]]) uses[b][access.reads[i]] = true;
      if (access.write != kNoRegister && !instruction.guarded) kills[b][access.write] = true;
    }
  }

  std::vector<std::vector<bool>> live_in(n, std::vector<bool>(registers, false));
  std::vector<std::vector<bool>> live_out = live_in;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t b = n; b-- > 0;) {
      std::vector<bool> out(registers, false);
      for (std::uint32_t s : cfg.blocks[b].successors)
        for (std::size_t r = 0; r < registers; ++r)
          if (live_in[s][r]) out[r] = true;
      std::vector<bool> in = uses[b];
      for (std::size_t r = 0; r < registers; ++r)
        if (out[r] && !kills[b][r]) in[r] = true;
      if (in != live_in[b]) {
        live_in[b] = std::move(in);
        changed = true;
      }
      live_out[b] = std::move(out);
    }
  }

  const std::vector<bool> reached = reachable_blocks(cfg);
  std::uint32_t peak = 0;
  LiveSet live(kernel);
  for (std::size_t b = 0; b < n; ++b) {
    if (!reached[b]) continue;
    live.assign(live_out[b]);
    peak = std::max(peak, live.weight());
    for (std::uint32_t pc = cfg.blocks[b].end; pc-- > cfg.blocks[b].begin;) {
      const Instruction& instruction = kernel.code[pc];
      const RegisterAccess access = register_access(kernel, instruction);
      if (access.write != kNoRegister) {
        const bool was_live = live.contains(access.write);
        live.add(access.write);
        peak = std::max(peak, live.weight());
        if (!instruction.guarded || !was_live) live.remove(access.write);
      }
      for (unsigned i = 0; i < access.read_count; ++i) live.add(access.reads[i]);
      peak = std::max(peak, live.weight());
    }
  }
  return peak;
}

}  // namespace warpsim::isa
