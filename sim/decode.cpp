#include "sim/decode.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <unordered_map>

#include "device/errors.hpp"
#include "isa/opcodes.hpp"
#include "isa/printer.hpp"
#include "sim/spin_loops.hpp"

namespace warpsim::sim {
namespace {

// Where the IPDOM stack reconverges each branch. A branch whose paths only meet at the kernel's
// exit because one of them may leave early (an `exit` inside an if) would keep its two sides apart
// to the end, so code after the if would run once per side. It reconverges instead at the nearest
// block that every path not leaving early passes through: exits other than the kernel's last
// instruction count as leaving early, and lanes that take one leave every stack entry, so waiting
// for the others there loses no one. Every other branch keeps its immediate post-dominator.
std::vector<std::uint32_t> stack_reconvergence(const isa::Kernel& kernel, const isa::KernelAnalysis& a) {
  std::vector<std::uint32_t> out = a.reconvergence_pc;
  const auto last = static_cast<std::uint32_t>(kernel.code.size() - 1);
  if (!a.cfg.blocks[a.cfg.block_of[last]].exits) return out;
  isa::Cfg cfg = a.cfg;
  bool early = false;
  for (auto& b : cfg.blocks)
    if (b.exits && b.end - 1 != last) {
      b.exits = false;  // a dead end: post-dominance ignores the paths that leave here
      early = true;
    }
  if (!early) return out;
  const isa::DominatorTree pd = isa::compute_postdominators(cfg);
  for (std::uint32_t pc = 0; pc <= last; ++pc) {
    if (out[pc] != isa::kExitPc) continue;
    const std::uint32_t d = pd.idom[a.cfg.block_of[pc]];
    // A block that is nothing but the last exit is no place to meet: there the sides keep the
    // textbook order and end apart, as before.
    if (d < cfg.blocks.size() && cfg.blocks[d].begin != last) out[pc] = cfg.blocks[d].begin;
  }
  return out;
}

using isa::OperandKind;
using isa::Role;
using isa::Type;

// The largest power of two, up to 2^16, that values are always a multiple of, as ptxas can prove
// it from how they are computed: per instruction, the value it writes (an operand register written
// earlier in the same basic block counts as that write's value, any other as its register's), where
// a register's is the least over the instructions that write it last in their block
// (flow-insensitive across blocks); iterated to a fixed point. Parameters and anything not worked out
// here count as 1. ptxas proves shared addresses aligned this way before it merges neighbouring loads
// into one LDS.64 or LDS.128 (sm.vector_shared_loads): set27's tiled_matmul reads As[ty][kk..kk+3]
// with one LDS.128, As[ty] being As + ty * 4 * TILE, while the imported IR passes every shared
// address through one temporary.
struct Alignment {
  std::vector<std::uint32_t> of_pc;
  std::vector<std::uint32_t> of_base;  // per pc: a [register + offset] operand's register as it reaches it
};
Alignment known_alignment(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis) {
  static constexpr std::uint64_t kTop = std::uint64_t{1} << 16;
  static constexpr std::uint32_t kNone = 0xffffffffu;
  const auto of_bits = [](std::uint64_t bits) {
    return bits == 0 ? kTop : std::min(kTop, std::uint64_t{1} << std::min(std::countr_zero(bits), 16));
  };
  const auto& code = kernel.code;
  std::vector<std::uint64_t> align(kernel.registers.size(), kTop), at(code.size(), kTop), base(code.size(), kTop);
  for (const std::uint32_t p : kernel.params) align.at(p) = 1;
  // Per pc and operand position: the instruction earlier in its block that wrote the operand's register.
  std::vector<std::array<std::uint32_t, 5>> local(code.size());
  std::vector<std::uint32_t> writer(kernel.registers.size(), kNone);
  std::vector<isa::RegisterAccess> accesses(code.size());
  // Per pc, which of its writes are the last of their register in the block: only those can reach
  // another block, so only they count for the register's least alignment.
  std::vector<std::uint8_t> exported(code.size(), 0);
  std::vector<std::uint32_t> written;  // registers written in the current block
  for (std::uint32_t pc = 0; pc <= code.size(); ++pc) {
    if (pc == code.size() || pc == 0 || analysis.cfg.block_of[pc] != analysis.cfg.block_of[pc - 1]) {
      for (const std::uint32_t r : written) {
        const std::uint32_t w = writer[r];
        if (w == kNone) continue;
        for (unsigned k = 0; k < accesses[w].write_count; ++k)
          if (accesses[w].writes[k] == r) exported[w] |= static_cast<std::uint8_t>(1u << k);
        writer[r] = kNone;
      }
      written.clear();
      if (pc == code.size()) break;
    }
    const isa::Instruction& in = code[pc];
    for (unsigned k = 0; k < 5; ++k)
      local[pc][k] = k < in.operand_count && (in.operands[k].kind == OperandKind::Register ||
                                              in.operands[k].kind == OperandKind::MemRegister)
                         ? writer.at(in.operands[k].index)
                         : kNone;
    accesses[pc] = isa::register_access(kernel, in);
    for (unsigned k = 0; k < accesses[pc].write_count; ++k) {
      const std::uint32_t r = accesses[pc].writes[k];
      if (writer.at(r) == kNone) written.push_back(r);
      writer[r] = pc;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
      const isa::Instruction& in = code[pc];
      const isa::RegisterAccess& access = accesses[pc];
      const auto operand = [&](unsigned k) -> std::uint64_t {
        const isa::Operand& o = in.operands[k];
        switch (o.kind) {
          case OperandKind::Register: return local[pc][k] != kNone ? at[local[pc][k]] : align.at(o.index);
          case OperandKind::Immediate: return of_bits(o.bits);
          case OperandKind::SharedAddress: return of_bits(kernel.shared.at(o.index).offset);
          default: return 1;
        }
      };
      for (unsigned k = 0; k < in.operand_count && k < in.operands.size(); ++k)
        if (in.operands[k].kind == OperandKind::MemRegister) {
          const std::uint64_t b = local[pc][k] != kNone ? at[local[pc][k]] : align.at(in.operands[k].index);
          if (b < base[pc]) base[pc] = b, changed = true;
        }
      if (access.write_count == 0) continue;
      std::uint64_t v = 1;
      if (access.write_count == 1 && !in.guarded && !in.saturate && !isa::is_float(in.type) && in.type != Type::Pred) {
        switch (in.op) {
          case isa::Opcode::Mov: v = operand(1); break;
          case isa::Opcode::Cvt: v = isa::is_float(in.source_type) ? 1 : operand(1); break;
          case isa::Opcode::Add:
          case isa::Opcode::Sub: v = std::min(operand(1), operand(2)); break;
          case isa::Opcode::Mul:
          case isa::Opcode::MulWide: v = std::min(kTop, operand(1) * operand(2)); break;
          case isa::Opcode::Mad: v = std::min({kTop, operand(1) * operand(2), operand(3)}); break;
          case isa::Opcode::Shl:
            if (in.operands[2].kind == OperandKind::Immediate && in.operands[2].bits < 16)
              v = std::min(kTop, operand(1) << in.operands[2].bits);
            break;
          case isa::Opcode::And: v = std::max(operand(1), operand(2)); break;
          default: break;
        }
      }
      if (v < at[pc]) at[pc] = v, changed = true;
      for (unsigned k = 0; k < access.write_count; ++k) {
        if ((exported[pc] >> k & 1u) == 0) continue;
        std::uint64_t& a = align.at(access.writes[k]);
        const std::uint64_t now = std::min(a, k == 0 ? v : 1);
        if (now != a) a = now, changed = true;
      }
    }
  }
  return {{at.begin(), at.end()}, {base.begin(), base.end()}};
}

bool wide(Type t) { return isa::is_wide(t); }

// Builds the constant pools (each constant broadcast over the warp) with de-duplication.
class Constants {
 public:
  Constants(Program& p) : p_(p) {}
  Src word32(std::uint32_t v) {
    auto [it, fresh] = index32_.try_emplace(v, static_cast<std::uint32_t>(p_.constants32.size()));
    if (fresh) p_.constants32.insert(p_.constants32.end(), p_.warp_size, v);
    return {it->second, 1};
  }
  Src word64(std::uint64_t v) {
    auto [it, fresh] = index64_.try_emplace(v, static_cast<std::uint32_t>(p_.constants64.size()));
    if (fresh) p_.constants64.insert(p_.constants64.end(), p_.warp_size, v);
    return {it->second, 1};
  }

 private:
  Program& p_;
  std::unordered_map<std::uint32_t, std::uint32_t> index32_;
  std::unordered_map<std::uint64_t, std::uint32_t> index64_;
};

class Decoder {
 public:
  Decoder(const isa::Kernel& k, const isa::KernelAnalysis& a, std::span<const std::uint64_t> args, std::uint32_t ws,
          const Dim3& grid, const Dim3& block)
      : kernel_(k), analysis_(a), args_(args), grid_(grid), block_(block), constants_(program_) {
    program_.warp_size = ws;
    place_registers();
  }

  Program run() {
    const auto& code = kernel_.code;
    if (code.empty()) throw Error(fmt::format("kernel '{}' has no instructions", kernel_.name));
    if (analysis_.cfg.block_of.size() != code.size() || analysis_.reconvergence_pc.size() != code.size())
      throw Error(fmt::format("kernel '{}': the analysis does not match the kernel's code", kernel_.name));
    program_.code.reserve(code.size());
    program_.scoreboard_slots = static_cast<std::uint32_t>(kernel_.registers.size());
    stack_reconvergence_ = stack_reconvergence(kernel_, analysis_);
    Alignment alignment = known_alignment(kernel_, analysis_);
    program_.value_align = std::move(alignment.of_pc);
    program_.base_align = std::move(alignment.of_base);
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) program_.code.push_back(decode(pc, code[pc]));
    Inst end;
    end.flow = Flow::OffEnd;
    end.pc = static_cast<std::uint32_t>(code.size());
    end.line = code.back().loc.line;
    program_.code.push_back(end);
    program_.convergence = ConvergenceMap(analysis_, find_spin_loop_heads(kernel_, analysis_));
    return std::move(program_);
  }

 private:
  struct Slot {
    std::uint8_t pool = 0;  // 0: 32-bit, 1: 64-bit, 2: predicate
    std::uint32_t index = 0;
    int param = -1;  // parameter position
  };

  void place_registers() {
    const std::uint32_t ws = program_.warp_size;
    slots_.resize(kernel_.registers.size());
    for (std::size_t i = 0; i < kernel_.params.size(); ++i) slots_.at(kernel_.params[i]).param = static_cast<int>(i);
    for (std::size_t i = 0; i < kernel_.registers.size(); ++i) {
      const auto& r = kernel_.registers[i];
      Slot& s = slots_[i];
      if (s.param >= 0) {
        s.pool = wide(r.type) ? 1 : 0;
        continue;
      }
      if (r.type == Type::Pred) s = {2, program_.predicates++, -1};
      else if (wide(r.type)) s = {1, program_.registers64++, -1};
      else s = {0, program_.registers32++, -1};
    }
    program_.local_bytes = kernel_.local_bytes();
    program_.declared32 = program_.registers32;
    program_.declared64 = program_.registers64;
    auto next32 = [&] { return program_.registers32++ * ws; };
    SpecialSlots& sp = program_.special;
    for (int d = 0; d < 3; ++d) sp.tid[d] = next32();
    for (int d = 0; d < 3; ++d) sp.ctaid[d] = next32();
    sp.laneid = next32();
    sp.warpid = next32();
    sp.clock = next32();
    sp.clock64 = program_.registers64++ * ws;
  }

  [[noreturn]] void unsupported(const isa::Instruction& inst, const std::string& why) const {
    throw Error(fmt::format("kernel '{}' line {}: the simulator cannot run '{}': {}", kernel_.name, inst.loc.line,
                            isa::mnemonic(inst.op), why));
  }

  Src special(isa::Special s, const isa::Instruction& inst) {
    using isa::Special;
    const SpecialSlots& sp = program_.special;
    switch (s) {
      case Special::TidX: return {sp.tid[0], 0};
      case Special::TidY: return {sp.tid[1], 0};
      case Special::TidZ: return {sp.tid[2], 0};
      case Special::CtaidX: return {sp.ctaid[0], 0};
      case Special::CtaidY: return {sp.ctaid[1], 0};
      case Special::CtaidZ: return {sp.ctaid[2], 0};
      case Special::LaneId: return {sp.laneid, 0};
      case Special::WarpId: return {sp.warpid, 0};
      case Special::Clock: clock_ = true; return {sp.clock, 0};
      case Special::Clock64: clock_ = true; return {sp.clock64, 0};
      case Special::NtidX: return constants_.word32(block_.x);
      case Special::NtidY: return constants_.word32(block_.y);
      case Special::NtidZ: return constants_.word32(block_.z);
      case Special::NctaidX: return constants_.word32(grid_.x);
      case Special::NctaidY: return constants_.word32(grid_.y);
      case Special::NctaidZ: return constants_.word32(grid_.z);
      case Special::NWarpId:
        return constants_.word32(
            static_cast<std::uint32_t>((block_.count() + program_.warp_size - 1) / program_.warp_size));
      case Special::WarpSize: return constants_.word32(program_.warp_size);
    }
    unsupported(inst, "unknown special register");
  }

  // A value source of the given type.
  Src value(const isa::Operand& o, Type t, const isa::Instruction& inst) {
    const bool w = wide(t);
    switch (o.kind) {
      case OperandKind::Register: {
        const Slot& s = slots_.at(o.index);
        if (s.param >= 0) {
          const std::uint64_t v = args_[static_cast<std::size_t>(s.param)];
          return w ? constants_.word64(v) : constants_.word32(static_cast<std::uint32_t>(v));
        }
        if (s.pool != (w ? 1 : 0))
          unsupported(inst, fmt::format("register '{}' is {} where {} is expected", kernel_.registers[o.index].name,
                                        isa::type_name(kernel_.registers[o.index].type), isa::type_name(t)));
        return {s.index * program_.warp_size, 0};
      }
      case OperandKind::Immediate:
        return w ? constants_.word64(o.bits) : constants_.word32(static_cast<std::uint32_t>(o.bits));
      case OperandKind::Special: {
        if (wide(isa::special_type(o.special)) != w)
          unsupported(inst, fmt::format("{} is not {}", isa::special_name(o.special), isa::type_name(t)));
        return special(o.special, inst);
      }
      case OperandKind::SharedAddress: {
        const std::uint32_t a = kernel_.shared.at(o.index).offset;
        return w ? constants_.word64(a) : constants_.word32(a);
      }
      default: unsupported(inst, "an operand of an unexpected kind");
    }
  }

  Src predicate_source(const isa::Operand& o, const isa::Instruction& inst) {
    if (o.kind == OperandKind::Immediate) return {o.bits != 0 ? 1u : 0u, 1};
    if (o.kind != OperandKind::Register || slots_.at(o.index).pool != 2) unsupported(inst, "expected a predicate");
    return {slots_[o.index].index, 0};
  }

  std::uint32_t destination(const isa::Operand& o, Type t, const isa::Instruction& inst) {
    if (o.kind != OperandKind::Register) unsupported(inst, "the destination is not a register");
    const Slot& s = slots_.at(o.index);
    if (s.param >= 0) unsupported(inst, "parameters are read-only");
    const std::uint8_t pool = t == Type::Pred ? 2 : wide(t) ? 1 : 0;
    if (s.pool != pool)
      unsupported(inst, fmt::format("register '{}' is {} where {} is expected", kernel_.registers[o.index].name,
                                    isa::type_name(kernel_.registers[o.index].type), isa::type_name(t)));
    return pool == 2 ? s.index : s.index * program_.warp_size;
  }

  Inst decode(std::uint32_t pc, const isa::Instruction& in) {
    Inst out;
    out.pc = pc;
    out.line = in.loc.line;
    const std::uint32_t block = analysis_.cfg.block_of[pc];
    out.cfg_block = block;
    out.block_start = block < analysis_.cfg.blocks.size() && analysis_.cfg.blocks[block].begin == pc;
    out.guarded = in.guarded;
    if (in.guarded) {
      const Slot& g = slots_.at(in.guard);
      if (g.pool != 2) unsupported(in, "the guard is not a predicate register");
      out.guard = g.index;
      out.guard_xor = in.guard_negated ? ~std::uint64_t{0} : 0;
    }
    clock_ = false;
    unsigned sources = 0;
    unsigned destinations = 0;
    // Operands in role order: the table's arity, then a braced list's later registers (in.vector).
    for (unsigned k = 0; k < in.operand_count && k < in.operands.size(); ++k) {
      const isa::Operand& o = in.operands[k];
      const Role role = isa::operand_role(in, k);
      // The braced destinations after the first (ld.vN, an unpacking mov) go to src[1..].
      if (isa::is_destination(role) && destinations++ > 0) {
        out.src[destinations - 1].offset = destination(o, isa::operand_type(in, role), in);
        continue;
      }
      switch (role) {
        case Role::None: break;
        case Role::DstT: out.dst = destination(o, isa::operand_type(in, Role::DstT), in); break;
        case Role::DstPred: out.dst = destination(o, Type::Pred, in); break;
        case Role::DstU32: out.dst = destination(o, Type::U32, in); break;
        case Role::DstWide: out.dst = destination(o, isa::operand_type(in, Role::DstWide), in); break;
        case Role::SrcT:
          out.src[sources++] = in.type == Type::Pred ? predicate_source(o, in) : value(o, isa::operand_type(in, Role::SrcT), in);
          break;
        case Role::SrcMask:
          out.has_mask = true;
          out.mask = static_cast<std::uint8_t>(sources);
          out.src[sources++] = value(o, Type::U32, in);
          break;
        case Role::SrcS:
          // An 8-bit source type reads a 16- or 32-bit register's low bits: the 32-bit pool.
          out.src[sources++] = value(o, in.source_type, in);
          break;
        case Role::SrcPred: out.src[sources++] = predicate_source(o, in); break;
        case Role::SrcU32: out.src[sources++] = value(o, Type::U32, in); break;
        case Role::Mem:
          out.mem_offset = o.offset;
          if (o.kind == OperandKind::MemShared) {
            out.mem_base = constants_.word32(kernel_.shared.at(o.index).offset);
          } else if (o.kind == OperandKind::MemRegister) {
            out.base_register = o.index;
            isa::Operand base = o;
            base.kind = OperandKind::Register;
            out.mem_base = value(base, in.space == isa::Space::Global ? Type::U64 : Type::U32, in);
          } else
            unsupported(in, "expected a memory operand");
          break;
        case Role::Label:
          out.target = std::min<std::uint32_t>(kernel_.labels.at(o.index).position,
                                               static_cast<std::uint32_t>(kernel_.code.size()));
          break;
      }
    }
    out.reads_clock = clock_;
    out.timing = isa::timing_class(in);
    out.space = in.space;
    out.vector = in.vector;
    out.access_bytes = static_cast<std::uint8_t>(
        in.space != isa::Space::None ? isa::type_bytes(in.type) * std::max<unsigned>(1, in.vector) : 0);
    const isa::RegisterAccess access = isa::register_access(kernel_, in);
    out.read_count = access.read_count;
    for (unsigned k = 0; k < access.read_count; ++k) out.reads[k] = access.reads[k];
    out.write = access.write;
    out.write_count = access.write_count;
    for (unsigned k = 1; k < access.write_count; ++k) out.more_writes[k - 1] = access.writes[k];
    if (out.timing == isa::TimingClass::AtomGlobal || out.timing == isa::TimingClass::FenceGl)
      program_.global_atomics = true;
    out.aggregates = in.op == isa::Opcode::AtomAdd && out.timing == isa::TimingClass::AtomGlobal &&
                     (in.type == isa::Type::U32 || in.type == isa::Type::S32 || in.type == isa::Type::U64) &&
                     in.operands[2].kind == isa::OperandKind::Immediate;
    out.float_atomic = out.timing == isa::TimingClass::AtomGlobal &&
                       (in.type == isa::Type::F32 || in.type == isa::Type::F64);
    out.immediate_mov = in.op == isa::Opcode::Mov && !out.guarded &&
                        in.operands[1].kind == isa::OperandKind::Immediate &&
                        (isa::type_bytes(in.type) <= 4 || in.type == isa::Type::F64) &&
                        access.write_count == 1;
    auto integer = [](isa::Type t, unsigned bytes) {
      return isa::type_bytes(t) == bytes && t != isa::Type::F32 && t != isa::Type::F64 && t != isa::Type::Pred;
    };
    out.slow_path = (in.op == isa::Opcode::Div || in.op == isa::Opcode::Rcp || in.op == isa::Opcode::Sqrt) &&
                    (in.type == isa::Type::F32 || in.type == isa::Type::F64) && in.rounding != isa::Rounding::Approx &&
                    in.rounding != isa::Rounding::Full;
    out.truncation = in.op == isa::Opcode::Cvt && !out.guarded && !in.saturate && integer(in.type, 4) &&
                     integer(in.source_type, 8) && access.write_count == 1;
    const bool int_type = in.type != isa::Type::Pred && in.type != isa::Type::F32 && in.type != isa::Type::F64;
    out.width = static_cast<std::uint8_t>(isa::type_bytes(in.type) * 8);
    out.lop = int_type && isa::type_bytes(in.type) <= 4 && access.write_count == 1 &&
              (in.op == isa::Opcode::And || in.op == isa::Opcode::Or || in.op == isa::Opcode::Xor ||
               in.op == isa::Opcode::Not);
    out.combines = int_type && (in.op == isa::Opcode::Or || in.op == isa::Opcode::Xor || in.op == isa::Opcode::Add);
    const bool arithmetic_shift =
        in.op == isa::Opcode::Shr && (in.type == isa::Type::S16 || in.type == isa::Type::S32 || in.type == isa::Type::S64);
    if (int_type && !arithmetic_shift && access.write_count == 1 && (in.op == isa::Opcode::Shl || in.op == isa::Opcode::Shr) &&
        in.operands[2].kind == isa::OperandKind::Immediate && in.operands[1].kind == isa::OperandKind::Register &&
        in.operands[2].bits < 64) {
      out.shift = in.op == isa::Opcode::Shl ? 1 : 2;
      out.shift_amount = static_cast<std::uint8_t>(in.operands[2].bits);
    }
    switch (in.op) {
      case isa::Opcode::Bra:
        out.flow = Flow::Branch;
        out.reconvergence_pc = stack_reconvergence_[pc];
        out.branch_slot = static_cast<std::uint32_t>(program_.branch_pcs.size());
        program_.branch_pcs.push_back(pc);
        return out;
      case isa::Opcode::Exit:
      case isa::Opcode::Ret: out.flow = Flow::Exit; return out;
      case isa::Opcode::BarSync: out.flow = Flow::Barrier; return out;
      default: break;
    }
    out.rounding = in.rounding;
    out.ftz = in.ftz;
    out.saturate = in.saturate;
    if (in.vector != 0 || in.space == isa::Space::Local) {
      out.fn = select_vector(in);
      if (out.fn == nullptr) unsupported(in, fmt::format("'{}' is not simulated", isa::print(kernel_, in)));
      return out;
    }
    if (out.has_mask || in.op == isa::Opcode::BarWarpSync) {
      out.fn = select_masked(in);
      if (out.fn == nullptr) unsupported(in, fmt::format("'{}' is not simulated", isa::print(kernel_, in)));
      return out;
    }
    if (has_qualifier_semantics(in)) {
      out.fn = select_qualified(in);
      if (out.fn == nullptr) unsupported(in, fmt::format("'{}' is not simulated (docs/ir.md lists the qualifiers that are)", isa::print(kernel_, in)));
      return out;
    }
    out.fn = select_alu(in);
    if (out.fn == nullptr) out.fn = select_warp_op(in);
    if (out.fn == nullptr) out.fn = select_memory(in);
    if (out.fn == nullptr) out.fn = select_bits(in);
    if (out.fn == nullptr)
      unsupported(in, fmt::format("no lane semantics for type {}{}", isa::type_name(in.type),
                                  in.source_type != Type::None ? fmt::format(".{}", isa::type_name(in.source_type))
                                                               : std::string()));
    return out;
  }

  const isa::Kernel& kernel_;
  const isa::KernelAnalysis& analysis_;
  std::vector<std::uint32_t> stack_reconvergence_;  // per pc: where the ipdom stack reconverges a branch
  std::span<const std::uint64_t> args_;
  Dim3 grid_, block_;
  Program program_;
  Constants constants_;
  std::vector<Slot> slots_;
  bool clock_ = false;
};

}  // namespace

Program decode(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, std::span<const std::uint64_t> args,
               std::uint32_t warp_size, const Dim3& grid, const Dim3& block) {
  return Decoder(kernel, analysis, args, warp_size, grid, block).run();
}

}  // namespace warpsim::sim
