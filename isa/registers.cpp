// Which registers instructions read and write, and the register pressure of a kernel.
#include <algorithm>
#include <iterator>
#include <limits>

#include "isa/analysis.hpp"

namespace warpsim::isa {

namespace {


// 32-bit registers a register occupies while live. Predicates live in separate predicate registers
// and parameters in the constant bank (as in CUDA), so neither costs a general register.
std::uint32_t register_weight(const Register& reg) {
  if (reg.is_param || reg.type == Type::Pred) return 0;
  return is_wide(reg.type) ? 2 : 1;
}

// The live set at one program point and its weight in 32-bit registers: a flag per register plus
// the list of registers flagged since the last assign, so that moving to the next block costs what
// was live there, not the kernel's register count.
class LiveSet {
 public:
  explicit LiveSet(const Kernel& kernel) : kernel_(kernel), live_(kernel.registers.size(), false) {}
  void assign(const std::vector<std::uint32_t>& live) {
    for (std::uint32_t r : touched_) live_[r] = false;
    touched_.clear();
    weight_ = 0;
    for (std::uint32_t r : live) add(r);
  }
  void add(std::uint32_t r) {
    if (live_[r]) return;
    live_[r] = true;
    touched_.push_back(r);
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
  std::vector<std::uint32_t> touched_;
  std::uint32_t weight_ = 0;
};

// Sorted register lists: a | b, and a without b.
std::vector<std::uint32_t> unite(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
std::vector<std::uint32_t> without(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::vector<std::uint32_t> out;
  out.reserve(a.size());
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

RegisterAccess register_access(const Kernel& kernel, const Instruction& instruction) {
  RegisterAccess access;
  const auto count = static_cast<std::uint32_t>(kernel.registers.size());
  auto read = [&](std::uint32_t r) {
    if (r < count && access.read_count < access.reads.size()) access.reads[access.read_count++] = r;
  };
  if (instruction.guarded) read(instruction.guard);
  for (unsigned i = 0; i < instruction.operand_count && i < instruction.operands.size(); ++i) {
    const Operand& operand = instruction.operands[i];
    if (operand.kind != OperandKind::Register && operand.kind != OperandKind::MemRegister) continue;
    if (is_destination(operand_role(instruction, i)) && operand.kind == OperandKind::Register) {
      if (operand.index < count && access.write_count < access.writes.size()) access.writes[access.write_count++] = operand.index;
    } else {
      read(operand.index);
    }
  }
  if (access.write_count > 0) access.write = access.writes[0];
  return access;
}

// Backward liveness over the CFG, then a backward walk through each block tracking the weight of
// the live set. The peak counts an instruction's destination together with what stays live past
// it, since both need a register at that moment. A guarded write does not end the old value's
// life: lanes whose guard is false keep it. Only blocks reached from the entry count.
std::uint32_t count_registers(const Kernel& kernel, const Cfg& cfg) {
  // Live sets are sorted register lists, not a bit per register per block: a kernel of 10^5 blocks
  // and 10^5 registers would otherwise need 10^10 bits and as many steps.
  const std::size_t n = cfg.blocks.size();
  const std::size_t registers = kernel.registers.size();
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::vector<std::uint32_t>> uses(n), kills(n);
  std::vector<std::uint32_t> used_in(registers, kNone), killed_in(registers, kNone);
  for (std::size_t b = 0; b < n; ++b) {
    const auto block = static_cast<std::uint32_t>(b);
    for (std::uint32_t pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; ++pc) {
      const Instruction& instruction = kernel.code[pc];
      const RegisterAccess access = register_access(kernel, instruction);
      for (unsigned i = 0; i < access.read_count; ++i) {
        const std::uint32_t r = access.reads[i];
        if (killed_in[r] != block && used_in[r] != block) {
          used_in[r] = block;
          uses[b].push_back(r);
        }
      }
      for (unsigned k = 0; k < access.write_count; ++k) {
        const std::uint32_t w = access.writes[k];
        if (!instruction.guarded && killed_in[w] != block) {
          killed_in[w] = block;
          kills[b].push_back(w);
        }
      }
    }
    std::sort(uses[b].begin(), uses[b].end());
    std::sort(kills[b].begin(), kills[b].end());
  }

  // Backward dataflow with a worklist: a block is looked at again only when a successor's live-in
  // set grew.
  std::vector<std::vector<std::uint32_t>> live_in(n), live_out(n);
  std::vector<std::uint32_t> work;
  std::vector<bool> queued(n, true);
  for (std::size_t b = 0; b < n; ++b) work.push_back(static_cast<std::uint32_t>(b));  // popped last first
  while (!work.empty()) {
    const std::uint32_t b = work.back();
    work.pop_back();
    queued[b] = false;
    std::vector<std::uint32_t> out;
    for (std::uint32_t s : cfg.blocks[b].successors) out = out.empty() ? live_in[s] : unite(out, live_in[s]);
    std::vector<std::uint32_t> in = unite(uses[b], without(out, kills[b]));
    live_out[b] = std::move(out);
    if (in != live_in[b]) {
      live_in[b] = std::move(in);
      for (std::uint32_t p : cfg.blocks[b].predecessors)
        if (!queued[p]) {
          queued[p] = true;
          work.push_back(p);
        }
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
      if (access.write_count > 0) {
        bool was_live[4] = {};
        for (unsigned k = 0; k < access.write_count; ++k) {
          was_live[k] = live.contains(access.writes[k]);
          live.add(access.writes[k]);
        }
        peak = std::max(peak, live.weight());
        for (unsigned k = 0; k < access.write_count; ++k)
          if (!instruction.guarded || !was_live[k]) live.remove(access.writes[k]);
      }
      for (unsigned i = 0; i < access.read_count; ++i) live.add(access.reads[i]);
      peak = std::max(peak, live.weight());
    }
  }
  return peak;
}

}  // namespace warpsim::isa
