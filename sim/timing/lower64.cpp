// ptxas's lowering of 64-bit integer arithmetic to the GH100's 32-bit instructions (stop 36;
// docs/timing.md, "compiler"). The IR, as NVVM's PTX, computes addresses and hashes in 64-bit
// registers; the SASS does each 64-bit operation as one or two 32-bit instructions, or none.
// sm.lower_int64:
//  - a 64-bit value whose every reader needs only its low 32 bits (a truncation to 32 bits, or an
//    add, sub, mul, mad, shl, and, or, xor, not, neg or mov whose own value is such) is computed in
//    32 bits: the SASS of set25's heat_steps addresses its shared rows with 32-bit LEA and IMAD where
//    NVVM's PTX has mul.s64, add.s64 and shl.b64 of a cvt.u64.u32, and stop 26's mb_chain_int64
//    (only its low half stored) is IMAD.IADD and LOP3 (h100/stop26b/sass-b.tgz);
//  - a full-width add or sub is IADD3 and IMAD.X (class int64); a full-width and, or, xor or not is
//    two LOP3, timed as two SHF (class logic64), or one when an operand's high half is known zero (a
//    zero-extended register, an immediate below 2^32); a shift by 32 or more one SHF; a register
//    mov at most two MOV (class int): the SASS of stop 36's full-width mb_chain_int64
//    (h100/stop36/sass36.tgz) and set25's hash64.
// sm.fold_widenings: a zero extension (cvt.u64.u32) is no instruction, the high half being RZ
// (set25's hash64: an IMAD.X of RZ takes its add's carry); a sign extension is one SHF.R.S32.HI, or
// nothing when its value is narrowed.
// sm.fuse_addresses: an add of a mul.wide's product that nothing else reads is one IMAD.WIDE (class
// imul; every global access's address in the SASS, `IMAD.WIDE.U32 R6, R5, 0x8, R6`), and of a
// shl.b64 by an immediate LEA and LEA.HI.X: the mul.wide or shl folds.
// Fills shape.timing (the class each pc is timed as) and marks folded instructions in may_fold.
#include <algorithm>
#include <vector>

#include "sim/timing/run_readers.hpp"
#include "sim/timing/sm.hpp"

namespace warpsim::sim {

using isa::Opcode;
using isa::OperandKind;
using isa::TimingClass;

namespace {
bool integer64(isa::Type t) {
  return isa::type_bytes(t) == 8 && t != isa::Type::F64 && t != isa::Type::Pred;
}
bool narrowable(Opcode op) {
  switch (op) {
    case Opcode::Add:
    case Opcode::Sub:
    case Opcode::Mul:
    case Opcode::Mad:
    case Opcode::Shl:
    case Opcode::And:
    case Opcode::Or:
    case Opcode::Xor:
    case Opcode::Not:
    case Opcode::Neg:
    case Opcode::Mov:
      return true;
    default:
      return false;
  }
}
bool logic(Opcode op) {
  return op == Opcode::And || op == Opcode::Or || op == Opcode::Xor || op == Opcode::Not;
}
// A cvt from a 32-bit-or-narrower integer to a 64-bit one.
bool widening(const isa::Instruction& in) {
  return in.op == Opcode::Cvt && integer64(in.type) && isa::type_bytes(in.source_type) <= 4 &&
         in.source_type != isa::Type::F32 && in.source_type != isa::Type::Pred && in.source_type != isa::Type::None;
}
bool signed_type(isa::Type t) {
  return t == isa::Type::S8 || t == isa::Type::S16 || t == isa::Type::S32 || t == isa::Type::S64;
}
}  // namespace

void lower_int64(const Program& program, const isa::Kernel& kernel, const GpuPreset& gpu, CompilerShape& shape) {
  const auto& code = program.code;
  const std::size_t n = std::min(kernel.code.size(), code.size());
  const std::size_t regs = kernel.registers.size();
  shape.timing.resize(code.size());
  for (std::size_t pc = 0; pc < code.size(); ++pc) shape.timing[pc] = code[pc].timing;
  // The register an operand names, or regs when it is no kernel register.
  auto reg = [&](const isa::Operand& o) -> std::size_t {
    return o.kind == OperandKind::Register && o.index < regs ? o.index : regs;
  };
  // An ALU instruction with one destination (operand 0) that the analysis may rewrite.
  auto simple = [&](std::size_t pc) {
    return code[pc].flow == Flow::Normal && code[pc].access_bytes == 0 && code[pc].write_count == 1 &&
           kernel.code[pc].vector == 0 && kernel.code[pc].operand_count >= 2 && reg(kernel.code[pc].operands[0]) < regs;
  };
  // narrow[r]: every reader of 64-bit register r needs only its low 32 bits. A fixpoint from "all
  // narrow": a reader that is not a truncation, nor a narrowable instruction writing a narrow
  // register, makes each 64-bit register it reads wide. Without sm.lower_int64 nothing is narrow.
  std::vector<char> narrow(regs, 0);
  for (std::size_t r = 0; r < regs; ++r)
    narrow[r] = gpu.lower_int64 != 0 && integer64(kernel.registers[r].type) && !kernel.registers[r].is_param;
  auto keeps_narrow = [&](std::size_t pc) {
    const isa::Instruction& in = kernel.code[pc];
    if (code[pc].truncation) return true;
    if (!simple(pc) || !integer64(in.type)) return false;
    if (!narrowable(in.op) && !widening(in)) return false;
    return narrow[reg(in.operands[0])] != 0;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t pc = 0; pc < n; ++pc) {
      if (keeps_narrow(pc)) continue;
      for (unsigned k = 0; k < code[pc].read_count; ++k) {
        const std::uint32_t r = code[pc].reads[k];
        if (r < regs && narrow[r]) {
          narrow[r] = 0;
          changed = true;
        }
      }
    }
  }
  // zero_high[r]: every write of r leaves its high half zero (a zero extension, an and with or a mov
  // of an immediate below 2^32, a shr.u64 by 32 or more).
  std::vector<char> zero_high(regs, 0);
  {
    std::vector<char> other(regs, 0);
    auto small = [](const isa::Operand& o) { return o.kind == OperandKind::Immediate && o.bits <= 0xffffffffull; };
    for (std::size_t pc = 0; pc < n; ++pc) {
      const std::uint32_t w = code[pc].write;
      if (w >= regs) continue;
      const isa::Instruction& in = kernel.code[pc];
      bool zero = false;
      if (simple(pc) && !in.guarded) {
        if (widening(in))
          zero = !signed_type(in.source_type);
        else if (in.op == Opcode::And && integer64(in.type))
          zero = small(in.operands[1]) || small(in.operands[2]);
        else if (in.op == Opcode::Mov && integer64(in.type))
          zero = small(in.operands[1]);
        else if (in.op == Opcode::Shr && integer64(in.type) && !signed_type(in.type))
          zero = in.operands[2].kind == OperandKind::Immediate && in.operands[2].bits >= 32;
      }
      if (zero)
        zero_high[w] = 1;
      else
        other[w] = 1;
      for (unsigned k = 0; k + 1 < code[pc].write_count && k < 3; ++k)  // an ld.v2's second register
        if (code[pc].more_writes[k] < regs) other[code[pc].more_writes[k]] = 1;
    }
    for (std::size_t r = 0; r < regs; ++r) zero_high[r] = zero_high[r] && !other[r];
  }
  // The one reader of the value pc writes, if it is an unguarded 64-bit add in pc's run.
  const RunReaders runs(code, static_cast<std::uint32_t>(regs));
  auto sole_add = [&](std::size_t pc) -> std::size_t {
    const std::uint32_t w = code[pc].write;
    if (w >= regs) return 0;
    const std::uint32_t k = runs.reader_in_run(static_cast<std::uint32_t>(pc), w);
    if (k == 0 || k >= n || !simple(k) || code[k].guarded || kernel.code[k].op != Opcode::Add ||
        !integer64(kernel.code[k].type))
      return 0;
    return runs.only_reader(static_cast<std::uint32_t>(pc), k) ? k : 0;
  };
  // An add that took in the product before it (IMAD, IMAD.WIDE): its class is set. An add takes in
  // one product or shift at most (absorbed).
  std::vector<char> fused(code.size(), 0), absorbed(code.size(), 0);
  for (std::size_t pc = 0; pc < n; ++pc) {
    const isa::Instruction& in = kernel.code[pc];
    if (!simple(pc) || fused[pc]) continue;
    const bool narrowed = narrow[reg(in.operands[0])] != 0;
    if (widening(in) && gpu.fold_widenings != 0) {
      // A zero extension is the RZ high half; a sign extension one SHF; either, narrowed, nothing.
      if (!in.guarded && (narrowed || !signed_type(in.source_type)))
        shape.may_fold[pc] = 1;
      else
        shape.timing[pc] = TimingClass::IntLogic;
      continue;
    }
    // A product (a mul.wide, or a mul narrowed to 32 bits) read only by an add: one IMAD(.WIDE).
    if (gpu.fuse_addresses != 0 && !in.guarded &&
        (in.op == Opcode::MulWide || (narrowed && in.op == Opcode::Mul && integer64(in.type)))) {
      if (const std::size_t add = sole_add(pc); add != 0 && !absorbed[add]) {
        shape.may_fold[pc] = 1;
        shape.timing[add] = TimingClass::IntMul;
        fused[add] = absorbed[add] = 1;
        continue;
      }
    }
    if (!integer64(in.type)) continue;
    // A shl by an immediate read only by an add: LEA (and LEA.HI.X at full width).
    if (gpu.fuse_addresses != 0 && in.op == Opcode::Shl && !in.guarded &&
        in.operands[2].kind == OperandKind::Immediate && in.operands[2].bits < 32)
      if (const std::size_t add = sole_add(pc); add != 0 && !absorbed[add]) {
        shape.may_fold[pc] = 1;
        absorbed[add] = 1;
        continue;
      }
    if (gpu.lower_int64 == 0) continue;
    if (narrowed && narrowable(in.op)) {
      shape.timing[pc] = in.op == Opcode::Mul || in.op == Opcode::Mad ? TimingClass::IntMul
                         : in.op == Opcode::Shl || logic(in.op)       ? TimingClass::IntLogic
                                                                      : TimingClass::IntAlu;
      continue;
    }
    // A shift by 32 or more moves one half into the other: one SHF (or IMAD.SHL), the other half zero.
    if ((in.op == Opcode::Shl || (in.op == Opcode::Shr && !signed_type(in.type))) &&
        in.operands[2].kind == OperandKind::Immediate && in.operands[2].bits >= 32 && in.operands[2].bits < 64) {
      shape.timing[pc] = TimingClass::IntLogic;
      continue;
    }
    if (logic(in.op)) {
      bool half = false;
      for (unsigned k = 1; k < in.operand_count; ++k) {
        const isa::Operand& o = in.operands[k];
        half |= (o.kind == OperandKind::Immediate && o.bits <= 0xffffffffull) || (reg(o) < regs && zero_high[reg(o)]);
      }
      shape.timing[pc] = half ? TimingClass::IntLogic : TimingClass::IntLogic64;
      continue;
    }
    if (in.op == Opcode::Mov && in.operands[1].kind == OperandKind::Register) shape.timing[pc] = TimingClass::IntAlu;
  }
}

}  // namespace warpsim::sim
