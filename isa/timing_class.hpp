// The timing class of an instruction: what a GPU preset gives a latency and an issue interval. It
// is the opcode table's unit and latency columns resolved with the instruction's type and space
// (add.u32 runs on the integer pipe, add.f32 on the FMA pipe; ld.shared on the shared-memory path).
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "isa/module.hpp"

namespace warpsim::isa {

#define WARPSIM_TIMING_CLASSES(X)                                                       \
  X(IntAlu, "int", "integer add, logic, shift, compare, select, mov")                    \
  X(Int64Alu, "int64", "the same on u64 (two 32-bit operations on NVIDIA GPUs)")          \
  X(IntLogic, "logic", "integer and, or, xor, not, shl, shr, setp, selp (LOP3, SHF, ISETP, SEL: the INT pipe)") \
  X(IntLogic64, "logic64", "u64 shl, shr, setp, selp (two SHF, ISETP or SEL)")                               \
  X(IntMul, "imul", "integer mul, mad, mul.wide")                                        \
  X(IntMul64, "imul64", "u64 mul and mad (three IMAD or more on NVIDIA GPUs)")             \
  X(IntBits, "bits", "popc, clz, brev (an SM does 16 lanes a cycle on NVIDIA GPUs)")      \
  X(IntDiv, "idiv", "integer div and rem (a compiled instruction sequence)")             \
  X(FpAlu, "fp32", "f32 add, mul, mad, min, max, neg, abs, compare, select")             \
  X(Fp64Alu, "fp64", "f64 add, mul, fma, min, max, neg, abs, compare (the FP64 units)")   \
  X(FpDiv, "fdiv", "f32 div (a compiled instruction sequence)")                          \
  X(Fp64Div, "ddiv", "f64 div (a compiled sequence of FP64 FMAs from a reciprocal estimate)") \
  X(Fp64Sqrt, "dsqrt", "f64 sqrt (a compiled sequence of FP64 FMAs from a reciprocal square root estimate)") \
  X(Fp64Rcp, "drcp", "f64 rcp.rn, 1.0 / x (a shorter sequence of FP64 FMAs from a reciprocal estimate)") \
  X(Sfu, "sfu", "special functions: sqrt")                                               \
  X(Convert, "cvt", "type conversions")                                                  \
  X(Vote, "vote", "vote, ballot, activemask")                                            \
  X(Shuffle, "shfl", "warp shuffles")                                                    \
  X(Branch, "branch", "bra, exit, ret")                                                  \
  X(Barrier, "barrier", "bar.sync")                                                      \
  X(FenceCta, "fence_cta", "membar.cta")                                                 \
  X(FenceGl, "fence_gl", "membar.gl")                                                    \
  X(LoadGlobal, "ld_global", "global loads")                                             \
  X(StoreGlobal, "st_global", "global stores")                                           \
  X(LoadShared, "ld_shared", "shared-memory loads")                                      \
  X(StoreShared, "st_shared", "shared-memory stores")                                    \
  X(AtomGlobal, "atom_global", "global atomics (performed at L2)")                       \
  X(AtomShared, "atom_shared", "shared-memory atomics")

enum class TimingClass : std::uint8_t {
#define WARPSIM_X(name, key, what) name,
  WARPSIM_TIMING_CLASSES(WARPSIM_X)
#undef WARPSIM_X
};
constexpr unsigned kTimingClasses = 0
#define WARPSIM_X(name, key, what) +1
    WARPSIM_TIMING_CLASSES(WARPSIM_X)
#undef WARPSIM_X
    ;

std::string_view timing_class_key(TimingClass c);          // "fp32": the preset's key stem
std::string_view timing_class_description(TimingClass c);  // what it covers, for docs and --help
TimingClass timing_class(const Instruction& instruction);

// Whether the class goes through the memory path (global or shared).
bool is_global_memory(TimingClass c);
bool is_shared_memory(TimingClass c);

}  // namespace warpsim::isa
