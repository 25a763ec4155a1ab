#include "isa/timing_class.hpp"

namespace warpsim::isa {

namespace {
constexpr std::string_view kKeys[] = {
#define WARPSIM_X(name, key, what) key,
    WARPSIM_TIMING_CLASSES(WARPSIM_X)
#undef WARPSIM_X
};
constexpr std::string_view kDescriptions[] = {
#define WARPSIM_X(name, key, what) what,
    WARPSIM_TIMING_CLASSES(WARPSIM_X)
#undef WARPSIM_X
};
}  // namespace

std::string_view timing_class_key(TimingClass c) { return kKeys[static_cast<unsigned>(c)]; }
std::string_view timing_class_description(TimingClass c) { return kDescriptions[static_cast<unsigned>(c)]; }

TimingClass timing_class(const Instruction& in) {
  const OpcodeInfo& info = in.info();
  // f64 add, mul and fma run on the FP64 units (fp64); f64 div and sqrt are sequences of their own
  // (ddiv, dsqrt: stop 29, set29's f64-divsqrt ran 2-3 times slower than timed as f32's).
  const bool fp = is_float(in.type);
  const bool fp64 = fp && in.type == Type::F64;
  const bool shared = in.space == Space::Shared;
  switch (info.latency) {
    case Latency::Simple:
      // Bit counts and reversal run on a unit of 16 lanes a cycle per SM, not the integer ALUs
      // (CUDA programming guide's throughput table; tput-bits).
      if (in.op == Opcode::Popc || in.op == Opcode::Clz || in.op == Opcode::Brev) return TimingClass::IntBits;
      // An f64 mov or selp moves two 32-bit halves (IMAD.MOV, SEL): no FP64 unit.
      if (fp64 && (in.op == Opcode::Mov || in.op == Opcode::Selp)) return TimingClass::Int64Alu;
      if (fp) return fp64 ? TimingClass::Fp64Alu : TimingClass::FpAlu;
      // Bitwise logic and shifts are LOP3 and SHF on the INT pipe, which takes a warp's one every
      // 2.2-2.5 cycles per sub-partition on the H100 (tput-logic; stop 26), where ptxas also puts adds
      // and moves on the FMA pipe (IMAD.IADD, IMAD.MOV: the SASS of tput-int). A u64 shift is two SHF
      // (tput-logic64 4.4); u64 and, or, xor and not stay int64: ptxas leaves out a half it knows (the
      // SASS of tput-int64 is one LOP3 a xor, its operand zero-extended). Predicate logic stays int.
      // Integer compares and selects are ISETP and SEL on the same pipe (tput-cmp 2.33, lat-cmp
      // 4.5-4.7; stop 26), two of each on u64 (ISETP and ISETP.EX: the SASS of collatz).
      if (in.type != Type::Pred &&
          (in.op == Opcode::And || in.op == Opcode::Or || in.op == Opcode::Xor || in.op == Opcode::Not ||
           in.op == Opcode::Shl || in.op == Opcode::Shr || in.op == Opcode::Setp || in.op == Opcode::Selp)) {
        if (!is_wide(in.type)) return TimingClass::IntLogic;
        if (in.op == Opcode::Shl || in.op == Opcode::Shr || in.op == Opcode::Setp || in.op == Opcode::Selp)
          return TimingClass::IntLogic64;
      }
      return is_wide(in.type) ? TimingClass::Int64Alu : TimingClass::IntAlu;
    case Latency::Mul:  // f32 mul and mad are FMA-pipe ops
      if (fp) return fp64 ? TimingClass::Fp64Alu : TimingClass::FpAlu;
      // A 64-bit product is a short IMAD sequence (IMAD.WIDE.U32 and two IMAD for mul.lo.u64: the
      // SASS of set25's hash64); mul.wide.u32 (32-bit sources) is one IMAD.WIDE.
      return is_wide(in.type) ? TimingClass::IntMul64 : TimingClass::IntMul;
    case Latency::Div: return fp ? (fp64 ? TimingClass::Fp64Div : TimingClass::FpDiv) : TimingClass::IntDiv;
    case Latency::Sqrt:
      // rcp.rn.f64 and sqrt.rn.f64 are DFMA sequences from a MUFU estimate (the SASS of set29's
      // f64_divsqrt: about 6 DFMA a reciprocal); their .approx forms, and rsqrt, are the MUFU alone.
      if (!fp64 || in.rounding == Rounding::Approx || in.op == Opcode::Rsqrt) return TimingClass::Sfu;
      return in.op == Opcode::Rcp ? TimingClass::Fp64Rcp : TimingClass::Fp64Sqrt;
    case Latency::Convert: return TimingClass::Convert;
    case Latency::Load: return shared ? TimingClass::LoadShared : TimingClass::LoadGlobal;
    case Latency::Store: return shared ? TimingClass::StoreShared : TimingClass::StoreGlobal;
    case Latency::Atomic: return shared ? TimingClass::AtomShared : TimingClass::AtomGlobal;
    case Latency::Branch: return TimingClass::Branch;
    case Latency::Barrier: return TimingClass::Barrier;
    case Latency::FenceCta: return TimingClass::FenceCta;
    case Latency::FenceGl: return TimingClass::FenceGl;
    case Latency::Vote: return TimingClass::Vote;
    case Latency::Shuffle: return TimingClass::Shuffle;
  }
  return TimingClass::IntAlu;
}

bool is_global_memory(TimingClass c) {
  return c == TimingClass::LoadGlobal || c == TimingClass::StoreGlobal || c == TimingClass::AtomGlobal;
}
bool is_shared_memory(TimingClass c) {
  return c == TimingClass::LoadShared || c == TimingClass::StoreShared || c == TimingClass::AtomShared;
}

}  // namespace warpsim::isa
