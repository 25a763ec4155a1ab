// Kernel instructions decoded once per launch into an executable form: operand sources resolved to
// (pool, offset) pairs, parameters and immediates turned into broadcast constants, lane semantics
// chosen as one function pointer per instruction. The hot loop does no string work or allocation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "device/launch.hpp"
#include "isa/analysis.hpp"
#include "isa/module.hpp"
#include "isa/timing_class.hpp"
#include "sim/convergence_map.hpp"

namespace warpsim::sim {

class GlobalMemory;
struct Inst;
struct LaneContext;

// Lane semantics of one instruction on the lanes in LaneContext::exec.
using ExecFn = void (*)(const Inst&, LaneContext&);

// Raises a KernelFault naming the instruction, lane and what went wrong (implemented by the runner,
// which knows the block and warp).
class FaultSink {
 public:
  [[noreturn]] void raise(const Inst& inst, unsigned lane, const std::string& what) const {
    throw_fault(inst, lane, what);
    throw std::logic_error("FaultSink::throw_fault returned");
  }

 protected:
  ~FaultSink() = default;
  virtual void throw_fault(const Inst& inst, unsigned lane, const std::string& what) const = 0;
};

// A source of warp_size values: pool[space] + offset. Space 0 is the warp's registers, space 1 the
// launch's constants (immediates, parameters, launch-wide special registers), each value broadcast
// over warp_size slots so every operand reads as a plain lane array. Predicate sources: space 0 is
// the warp's predicate register `offset`; space 1 is the constant all-lanes mask (offset 1) or 0.
struct Src {
  std::uint32_t offset = 0;
  std::uint8_t space = 0;
};

// OffEnd: the sentinel after the last instruction; a warp that reaches it fell off the end.
enum class Flow : std::uint8_t { Normal, Branch, Exit, Barrier, OffEnd };

struct Inst {
  ExecFn fn = nullptr;  // Flow::Normal only
  Flow flow = Flow::Normal;
  bool guarded = false;
  bool block_start = false;  // first instruction of a CFG block (a trace event when tracing)
  bool reads_clock = false;  // %clock / %clock64 must be filled before it runs
  std::uint32_t guard = 0;   // predicate register
  std::uint64_t guard_xor = 0;  // ~0 for @!p
  std::uint32_t dst = 0;        // register offset (slot * warp size) or predicate register
  Src src[4];
  Src mem_base;
  std::int64_t mem_offset = 0;
  std::uint32_t target = 0;            // bra: taken pc
  std::uint32_t reconvergence_pc = 0;  // bra: from the analysis
  std::uint32_t branch_slot = 0;       // bra: index into the launch's branch list
  std::uint32_t cfg_block = 0;
  std::uint32_t pc = 0;
  std::uint32_t line = 0;
  isa::Rounding rounding = isa::Rounding::None;  // read by sim/lanes_float.cpp only
  bool ftz = false;
  bool saturate = false;
  // For the timing model: the class a preset times, the bytes each lane accesses (memory
  // instructions), and the kernel registers read (guard, sources, memory base) and written, as
  // indices into isa::Kernel::registers (the scoreboard's slots).
  isa::TimingClass timing = isa::TimingClass::IntAlu;
  isa::Space space = isa::Space::None;  // ld, st, atom
  // Braced registers (ld/st .v2/.v4, mov's packed form): how many. ld.vN writes dst and the
  // registers at src[1..N-1].offset; st.vN stores src[0..N-1]; an unpacking mov writes dst and
  // src[1].offset; a packing mov reads src[0] (low half) and src[1] (high half).
  std::uint8_t vector = 0;
  bool has_mask = false;  // shfl, vote, bar.warp.sync: src[mask] holds a membermask operand
  std::uint8_t mask = 0;  // which src holds it
  std::uint8_t access_bytes = 0;  // per lane, the whole vector
  // Memory accesses, for the compiler's merging of neighbouring shared loads (sm.vector_shared_loads):
  // the kernel register the address is based on (kNoRegister for [array + offset]).
  std::uint32_t base_register = isa::kNoRegister;
  // A global integer atom.add of a constant: ptxas aggregates a warp's lanes on one address into
  // one atomic (VOTEU.ANY, POPC, one ATOMG: the SASS of bfs_frontier), so the L2 sees one lane.
  bool aggregates = false;
  // A global atomic on f32 or f64: one lane of it to a hot word takes the L2 3.49 cycles (atom-hot),
  // one u32 lane 1.47 (atom-hot-u32, memory.atomic_int_slice_cycles).
  bool float_atomic = false;
  // An unguarded mov of a 32-bit (or narrower) or f64 immediate: ptxas folds the constant into the
  // instructions that read it (`FFMA R7, R2, R7, 0.5`, `DFMA R8, R2, R8, 0.5`: the SASS of poly_fma
  // and poly_fma64), so on the GPU it takes no issue slot (sm.fold_immediates).
  bool immediate_mov = false;
  // An unguarded cvt of a 64-bit integer to a 32-bit one: on the GPU the low register of the pair,
  // no instruction (the SASS of sgemm_reg addresses shared memory as [R5+0x40] where the imported
  // IR converts each shared address to u32 first: sm.fold_truncations).
  bool truncation = false;
  // An IEEE f32 or f64 division, reciprocal or square root (div, rcp, sqrt .rn): ptxas expands it
  // into a fast sequence and a test that branches to a slow-path subroutine (FCHK or a compare, BRA,
  // CALL: the SASS of set29's thomas, pcr and f64_divsqrt, set24's l2norm), a basic block boundary
  // (sm.slow_paths).
  bool slow_path = false;
  // For the compiler's logic fusion (sm.fuse_logic): a 32-bit-or-narrower integer and, or, xor or not
  // (a LOP3 candidate); a shl, or a logical shr, by an immediate and its amount (a funnel shift's
  // halves); the operand width in bits.
  bool lop = false;
  bool combines = false;   // an integer or, xor or add: what can join a funnel shift's two halves
  std::uint8_t shift = 0;  // 0: none, 1: shl, 2: shr (by an immediate)
  std::uint8_t shift_amount = 0;
  std::uint8_t width = 0;
  std::uint8_t read_count = 0;
  std::uint32_t reads[6] = {};
  std::uint32_t write = isa::kNoRegister;
  std::uint8_t write_count = 0;    // registers written: write, then more_writes
  std::uint32_t more_writes[3] = {};
};

// Where the special registers held per warp live in the warp's register pools.
struct SpecialSlots {
  std::uint32_t tid[3] = {}, ctaid[3] = {}, laneid = 0, warpid = 0, clock = 0;  // 32-bit pool offsets
  std::uint32_t clock64 = 0;                                                   // 64-bit pool offset
};

struct Program {
  std::vector<Inst> code;  // the kernel's instructions, then one Flow::OffEnd sentinel
  std::vector<std::uint32_t> constants32;  // broadcast: warp_size copies of each constant
  std::vector<std::uint64_t> constants64;
  std::uint32_t registers32 = 0;  // slots per warp (declared + special), each warp_size wide
  std::uint32_t registers64 = 0;
  std::uint32_t predicates = 0;
  std::uint32_t declared32 = 0, declared64 = 0;  // the first slots, zeroed for every block
  std::uint32_t local_bytes = 0;                 // local memory per thread (the kernel's local arrays)
  SpecialSlots special;
  std::vector<std::uint32_t> branch_pcs;  // pc of each bra, in pc order (branch_slot indexes it)
  std::uint32_t scoreboard_slots = 0;     // kernel registers (isa::Kernel::registers.size())
  // Per pc: the largest power of two (up to 2^16) the value the instruction writes is always a
  // multiple of, as the compiler can prove it from how it is computed (an operand written earlier in
  // its basic block counts as that write's value; sm.vector_shared_loads).
  std::vector<std::uint32_t> value_align;
  // Per pc: the same for the register of a [register + offset] memory operand, as the write that
  // reaches the instruction left it (its block's earlier write, else the register's least).
  std::vector<std::uint32_t> base_align;
  bool global_atomics = false;            // blocks may talk to each other (atom on global, membar.gl)
  std::uint32_t warp_size = 32;
  ConvergenceMap convergence;             // joins, loops and reachability (the volta model)
};

// Throws warpsim::Error for a kernel the simulator cannot run (it expects a verified kernel).
Program decode(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, std::span<const std::uint64_t> args,
               std::uint32_t warp_size, const Dim3& grid, const Dim3& block);

// Everything a lane function may touch for the warp it runs on.
struct LaneContext {
  const std::uint32_t* base32[2] = {};
  const std::uint64_t* base64[2] = {};
  std::uint32_t* r32 = nullptr;
  std::uint64_t* r64 = nullptr;
  std::uint64_t* predicates = nullptr;
  std::uint64_t exec = 0;  // lanes executing: active and guard true
  bool full = false;       // exec holds every lane that exists: lane loops may write all warp_size lanes
  std::uint32_t warp_size = 32;
  GlobalMemory* global = nullptr;
  int* allocation_cache = nullptr;  // by pc: the allocation that instruction's last global access hit, or -1
  std::byte* shared = nullptr;
  std::uint32_t shared_bytes = 0;
  std::byte* local = nullptr;       // the warp's local memory: lane l's bytes at local + l * local_bytes
  std::uint32_t local_bytes = 0;    // per thread
  std::uint64_t local_window = 0;   // the warp's local memory as the timing model's memory path sees it
  const std::uint64_t* alive = nullptr;  // the warp's lanes that have not exited
  const FaultSink* faults = nullptr;
};

// Lane-function choice for a Flow::Normal instruction (sim/lanes*.cpp); nullptr if none exists.
ExecFn select_alu(const isa::Instruction& inst);
ExecFn select_warp_op(const isa::Instruction& inst);
ExecFn select_memory(const isa::Instruction& inst);
ExecFn select_bits(const isa::Instruction& inst);
// ld/st .v2/.v4, local memory and mov's packed form (sim/lanes_vector.cpp).
ExecFn select_vector(const isa::Instruction& inst);
// bar.warp.sync and the membermask check of shfl and vote (sim/lanes_warp.cpp).
ExecFn select_masked(const isa::Instruction& inst);
// Instructions whose qualifiers change their result (directed rounding, .ftz, .sat, cvt's
// round-to-integral) and the special functions take their lane function from sim/lanes_float.cpp.
bool has_qualifier_semantics(const isa::Instruction& inst);
ExecFn select_qualified(const isa::Instruction& inst);

}  // namespace warpsim::sim
