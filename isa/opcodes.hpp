// The one opcode table: mnemonic, operand roles, accepted types, modifier, unit class, latency
// class and whether the opcode ends a basic block. Parser, printer, verifier, simulator and the
// CUDA emitter all read it; nothing else switches on a mnemonic string.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "isa/types.hpp"

namespace warpsim::isa {

// What one operand position holds and which type it must have.
enum class Role : std::uint8_t {
  None,
  DstT,     // register of the instruction type
  DstPred,  // predicate register
  DstWide,  // integer register twice as wide as the instruction type (mul.wide: u32 -> u64 or s64,
            // u16 -> u32 or s32; a bit register of that width also fits)
  DstU32,   // u32 register whatever the instruction type (popc, clz)
  SrcT,     // value of the instruction type: register, immediate, special register, parameter,
            // or (u32 only) a shared array's name, which stands for its shared-memory address
  SrcS,     // value of the source type (cvt's second type)
  SrcPred,  // predicate register
  SrcU32,   // u32 value (shift amounts, shuffle lanes and deltas)
  SrcMask,  // u32 value: the membermask of shfl, vote and bar.warp.sync; always the last role, and
            // optional (absent: the lanes executing the instruction, unchecked)
  Mem,      // memory operand [base], [base+imm], [base-imm]; base is u64 for global, u32 for shared
  Label,    // branch target
};

// Modifier a mnemonic carries between its name and its type suffix.
enum class Modifier : std::uint8_t { None, Space, Compare, SourceType };

// Functional unit an instruction occupies. Two columns depend on the instruction, not only the
// opcode: Alu is the integer pipe for integer types and the FMA pipe for f32, and Lsu is the
// global-memory path or the shared-memory path by the instruction's space (timing_class() resolves
// both).
enum class Unit : std::uint8_t { Alu, Sfu, Lsu, Control, Sync, Warp };
// Latency shape of the opcode; timing_class() turns it, with the type and space, into the class a
// GPU preset gives a latency and an issue interval.
enum class Latency : std::uint8_t { Simple, Mul, Div, Sqrt, Convert, Load, Store, Atomic, Branch, Barrier,
                                    FenceCta, FenceGl, Vote, Shuffle };

std::string_view unit_name(Unit u);
std::string_view latency_name(Latency l);

constexpr TypeMask kNone = 0;
constexpr TypeMask kPred = type_bit(Type::Pred);
constexpr TypeMask kU32 = type_bit(Type::U32);
constexpr TypeMask kS32 = type_bit(Type::S32);
constexpr TypeMask kU64 = type_bit(Type::U64);
constexpr TypeMask kF32 = type_bit(Type::F32);
constexpr TypeMask kS64 = type_bit(Type::S64);
constexpr TypeMask kF64 = type_bit(Type::F64);
constexpr TypeMask kU16 = type_bit(Type::U16);
constexpr TypeMask kS16 = type_bit(Type::S16);
constexpr TypeMask kU8 = type_bit(Type::U8);
constexpr TypeMask kS8 = type_bit(Type::S8);
constexpr TypeMask kB8 = type_bit(Type::B8);
constexpr TypeMask kB16 = type_bit(Type::B16);
constexpr TypeMask kB32 = type_bit(Type::B32);
constexpr TypeMask kB64 = type_bit(Type::B64);
constexpr TypeMask kInt = kU32 | kS32 | kU64 | kS64 | kU16 | kS16;  // integers a register holds
constexpr TypeMask kFloat = kF32 | kF64;
constexpr TypeMask kNum = kInt | kFloat;
constexpr TypeMask kBits = kB16 | kB32 | kB64;  // bit types a register holds
constexpr TypeMask kAll = kNum | kBits | kPred;
constexpr TypeMask kMemory = kNum | kBits | kU8 | kS8 | kB8;  // ld and st
constexpr TypeMask kConvert = kNum | kU8 | kS8;                // cvt's destination and source types

// X(Enum, "mnemonic", {roles}, types, modifier, unit, latency, terminator)
// A mnemonic may contain dots (mul.wide, atom.add); the text form is
//   mnemonic[.modifier][.type][.source-type]   e.g. ld.global.f32, setp.lt.s32, cvt.f32.u32
// Qualifiers an opcode may carry (PTX order after the modifier: .nc, rounding, .ftz, .sat); which
// types each applies to is the verifier's rule (docs/ir.md).
using QualifierMask = std::uint8_t;
constexpr QualifierMask kPlain = 0;
constexpr QualifierMask kRound = 1;     // .rn .rz .rm .rp
constexpr QualifierMask kRoundInt = 2;  // .rni .rzi .rmi .rpi
constexpr QualifierMask kApprox = 4;    // .approx
constexpr QualifierMask kFull = 8;      // .full
constexpr QualifierMask kFtz = 16;      // .ftz
constexpr QualifierMask kSat = 32;      // .sat
constexpr QualifierMask kNc = 64;       // .nc (ld.global.nc)
constexpr QualifierMask kVector = 128;  // .v2 .v4 on ld and st; mov's packed form {a, b}

#define WARPSIM_OPCODES(X)                                                                              \
  X(Mov, "mov", (DstT, SrcT), kAll, None, Alu, Simple, false, kVector)                                              \
  X(Add, "add", (DstT, SrcT, SrcT), kNum, None, Alu, Simple, false, kRound | kFtz | kSat)                                        \
  X(Sub, "sub", (DstT, SrcT, SrcT), kNum, None, Alu, Simple, false, kRound | kFtz | kSat)                                        \
  X(Mul, "mul", (DstT, SrcT, SrcT), kNum, None, Alu, Mul, false, kRound | kFtz | kSat)                                        \
  X(MulWide, "mul.wide", (DstWide, SrcT, SrcT), kU32 | kS32 | kU16 | kS16, None, Alu, Mul, false, kPlain)       \
  X(Mad, "mad", (DstT, SrcT, SrcT, SrcT), kNum, None, Alu, Mul, false, kRound | kFtz | kSat)                                  \
  X(Div, "div", (DstT, SrcT, SrcT), kNum, None, Alu, Div, false, kRound | kApprox | kFull | kFtz)                                    \
  X(Rem, "rem", (DstT, SrcT, SrcT), kInt, None, Alu, Div, false, kPlain)                                    \
  X(Min, "min", (DstT, SrcT, SrcT), kNum, None, Alu, Simple, false, kPlain)                                        \
  X(Max, "max", (DstT, SrcT, SrcT), kNum, None, Alu, Simple, false, kPlain)                                        \
  X(Neg, "neg", (DstT, SrcT), kS16 | kS32 | kS64 | kFloat, None, Alu, Simple, false, kPlain)                       \
  X(Abs, "abs", (DstT, SrcT), kS16 | kS32 | kS64 | kFloat, None, Alu, Simple, false, kPlain)                       \
  X(And, "and", (DstT, SrcT, SrcT), kInt | kBits | kPred, None, Alu, Simple, false, kPlain)                        \
  X(Or, "or", (DstT, SrcT, SrcT), kInt | kBits | kPred, None, Alu, Simple, false, kPlain)                          \
  X(Xor, "xor", (DstT, SrcT, SrcT), kInt | kBits | kPred, None, Alu, Simple, false, kPlain)                        \
  X(Not, "not", (DstT, SrcT), kInt | kBits | kPred, None, Alu, Simple, false, kPlain)                              \
  X(Shl, "shl", (DstT, SrcT, SrcU32), kInt | kBits, None, Alu, Simple, false, kPlain)                              \
  X(Shr, "shr", (DstT, SrcT, SrcU32), kInt | kBits, None, Alu, Simple, false, kPlain)                              \
  X(MulHi, "mul.hi", (DstT, SrcT, SrcT), kU32 | kS32 | kU64 | kS64, None, Alu, Mul, false, kPlain)              \
  X(Bfe, "bfe", (DstT, SrcT, SrcU32, SrcU32), kU32 | kS32 | kU64 | kS64, None, Alu, Simple, false, kPlain)        \
  X(Bfi, "bfi", (DstT, SrcT, SrcT, SrcU32, SrcU32), kB32 | kB64, None, Alu, Simple, false, kPlain)                \
  X(Popc, "popc", (DstU32, SrcT), kB32 | kB64, None, Alu, Simple, false, kPlain)                                  \
  X(Clz, "clz", (DstU32, SrcT), kB32 | kB64, None, Alu, Simple, false, kPlain)                                    \
  X(Brev, "brev", (DstT, SrcT), kB32 | kB64, None, Alu, Simple, false, kPlain)                                    \
  X(Prmt, "prmt", (DstT, SrcT, SrcT, SrcT), kB32, None, Alu, Simple, false, kPlain)                               \
  X(Fma, "fma", (DstT, SrcT, SrcT, SrcT), kFloat, None, Alu, Mul, false, kRound | kFtz | kSat)          \
  X(Rcp, "rcp", (DstT, SrcT), kFloat, None, Sfu, Sqrt, false, kRound | kApprox | kFtz)                     \
  X(Rsqrt, "rsqrt", (DstT, SrcT), kFloat, None, Sfu, Sqrt, false, kApprox | kFtz)                          \
  X(Ex2, "ex2", (DstT, SrcT), kF32, None, Sfu, Sqrt, false, kApprox | kFtz)                                \
  X(Lg2, "lg2", (DstT, SrcT), kF32, None, Sfu, Sqrt, false, kApprox | kFtz)                                \
  X(Sin, "sin", (DstT, SrcT), kF32, None, Sfu, Sqrt, false, kApprox | kFtz)                                \
  X(Cos, "cos", (DstT, SrcT), kF32, None, Sfu, Sqrt, false, kApprox | kFtz)                                \
  X(Sqrt, "sqrt", (DstT, SrcT), kFloat, None, Sfu, Sqrt, false, kRound | kApprox | kFtz)                                      \
  X(Cvt, "cvt", (DstT, SrcS), kConvert, SourceType, Alu, Convert, false, kRound | kRoundInt | kFtz | kSat)                                    \
  X(Setp, "setp", (DstPred, SrcT, SrcT), kNum | kBits, Compare, Alu, Simple, false, kPlain)                        \
  X(Selp, "selp", (DstT, SrcT, SrcT, SrcPred), kNum | kBits, None, Alu, Simple, false, kPlain)                     \
  X(Ld, "ld", (DstT, Mem), kMemory, Space, Lsu, Load, false, kNc | kVector)                                       \
  X(St, "st", (Mem, SrcT), kMemory, Space, Lsu, Store, false, kVector)                                       \
  X(AtomAdd, "atom.add", (DstT, Mem, SrcT), kU32 | kS32 | kU64 | kFloat, Space, Lsu, Atomic, false, kPlain)   \
  X(AtomMin, "atom.min", (DstT, Mem, SrcT), kU32 | kS32 | kU64 | kS64, Space, Lsu, Atomic, false, kPlain)    \
  X(AtomMax, "atom.max", (DstT, Mem, SrcT), kU32 | kS32 | kU64 | kS64, Space, Lsu, Atomic, false, kPlain)    \
  X(AtomExch, "atom.exch", (DstT, Mem, SrcT), kU32 | kS32 | kU64 | kF32 | kB32 | kB64, Space, Lsu, Atomic, false, kPlain) \
  X(AtomCas, "atom.cas", (DstT, Mem, SrcT, SrcT), kU32 | kS32 | kU64 | kB32 | kB64, Space, Lsu, Atomic, false, kPlain) \
  X(AtomInc, "atom.inc", (DstT, Mem, SrcT), kU32, Space, Lsu, Atomic, false, kPlain)                         \
  X(AtomDec, "atom.dec", (DstT, Mem, SrcT), kU32, Space, Lsu, Atomic, false, kPlain)                         \
  X(AtomAnd, "atom.and", (DstT, Mem, SrcT), kB32 | kB64, Space, Lsu, Atomic, false, kPlain)                  \
  X(AtomOr, "atom.or", (DstT, Mem, SrcT), kB32 | kB64, Space, Lsu, Atomic, false, kPlain)                    \
  X(AtomXor, "atom.xor", (DstT, Mem, SrcT), kB32 | kB64, Space, Lsu, Atomic, false, kPlain)                  \
  X(BarSync, "bar.sync", (), kNone, None, Sync, Barrier, false, kPlain)                                         \
  X(MembarCta, "membar.cta", (), kNone, None, Sync, FenceCta, false, kPlain)                                         \
  X(MembarGl, "membar.gl", (), kNone, None, Sync, FenceGl, false, kPlain)                                        \
  X(BarWarpSync, "bar.warp.sync", (SrcMask), kNone, None, Warp, Vote, false, kPlain)                           \
  X(VoteAny, "vote.any", (DstPred, SrcPred, SrcMask), kPred, None, Warp, Vote, false, kPlain)                             \
  X(VoteAll, "vote.all", (DstPred, SrcPred, SrcMask), kPred, None, Warp, Vote, false, kPlain)                             \
  X(VoteBallot, "vote.ballot", (DstT, SrcPred, SrcMask), kU32 | kB32, None, Warp, Vote, false, kPlain)                    \
  X(Activemask, "activemask", (DstT), kU32 | kB32, None, Warp, Vote, false, kPlain)                              \
  X(ShflDown, "shfl.down", (DstT, SrcT, SrcU32, SrcMask), kU32 | kS32 | kF32 | kB32, None, Warp, Shuffle, false, kPlain) \
  X(ShflUp, "shfl.up", (DstT, SrcT, SrcU32, SrcMask), kU32 | kS32 | kF32 | kB32, None, Warp, Shuffle, false, kPlain)     \
  X(ShflXor, "shfl.xor", (DstT, SrcT, SrcU32, SrcMask), kU32 | kS32 | kF32 | kB32, None, Warp, Shuffle, false, kPlain)   \
  X(ShflIdx, "shfl.idx", (DstT, SrcT, SrcU32, SrcMask), kU32 | kS32 | kF32 | kB32, None, Warp, Shuffle, false, kPlain)   \
  X(Bra, "bra", (Label), kNone, None, Control, Branch, true, kPlain)                                            \
  X(Exit, "exit", (), kNone, None, Control, Branch, true, kPlain)                                               \
  X(Ret, "ret", (), kNone, None, Control, Branch, true, kPlain)

enum class Opcode : std::uint8_t {
#define WARPSIM_X(name, mnemonic, roles, types, modifier, unit, latency, terminator, qualifiers) name,
  WARPSIM_OPCODES(WARPSIM_X)
#undef WARPSIM_X
};

struct OpcodeInfo {
  Opcode opcode;
  std::string_view mnemonic;
  std::array<Role, 5> roles;  // the first `arity` are used
  std::uint8_t arity;
  TypeMask types;             // accepted instruction types; kNone: the opcode takes no type suffix
  Modifier modifier;
  Unit unit;
  Latency latency;
  bool terminator;            // ends a basic block (bra, exit, ret)
  QualifierMask qualifiers;
};

const OpcodeInfo& info(Opcode op);
// Every opcode, in table order.
std::span<const OpcodeInfo> all_opcodes();
// Whether `op` accepts rounding qualifier `r` (None: always).
bool accepts_rounding(Opcode op, Rounding r);
inline bool is_destination(Role role) {
  return role == Role::DstT || role == Role::DstPred || role == Role::DstWide || role == Role::DstU32;
}
std::optional<Opcode> opcode_from_mnemonic(std::string_view mnemonic);
inline std::string_view mnemonic(Opcode op) { return info(op).mnemonic; }

}  // namespace warpsim::isa
