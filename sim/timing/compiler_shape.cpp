// The compiler's shape of a kernel as the timing model sees it (docs/timing.md, "compiler"): what
// ptxas folds, fuses, unrolls and predicates, and which arithmetic a warp may issue past while its
// loads are pending; worked out once per launch (CompilerShape). The list scheduling is in
// schedule.cpp.
#include <algorithm>
#include <vector>

#include "sim/timing/run_readers.hpp"
#include "sim/timing/sm.hpp"

namespace warpsim::sim {

using isa::TimingClass;

namespace {
// ptxas's logic fusion (sm.fuse_logic; the SASS of set23's hash_mix and set24's bitops, stop 26):
//  - a LOP3 takes three inputs, so an and/or/xor/not whose result only the next such instruction of
//    its straight-line run reads is part of that one (bitops' `(crc >> 1) ^ (C & m)`: one LOP3);
//  - a shl and a shr by immediates adding up to the width, combined by the only instruction that
//    reads either, is one funnel shift (SHF.L.W: a rotate, both of one register) or one LEA.HI (set23's
//    hash_mix, whose `(h << 7) | (h >> 25)` NVVM rewrote with two registers): the two shifts fold.
// Folded instructions take no issue slot; their results are ready when their sources are (Sm::fold).
void fuse_logic(const std::vector<Inst>& code, std::uint32_t slots, bool lower_int64, CompilerShape& shape) {
  const RunReaders runs(code, slots);
  std::vector<char> absorbed(code.size(), 0);
  for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
    const Inst& in = code[pc];
    if (in.shift != 1 || in.guarded || in.write >= slots) continue;
    // A funnel shift is 32 bits wide: with sm.lower_int64 a 64-bit shl and shr stay, as lowered
    // (set25's hash64: `(z << 13) | (y >> 51)` is SHF.L.U64.HI, IMAD.SHL and SHF.R.U32.HI).
    if (in.width > 32 && lower_int64) continue;
    const std::uint32_t r = runs.reader_in_run(pc, in.write);
    if (r == 0 || !code[r].combines || code[r].guarded || code[r].read_count != 2 || !runs.only_reader(pc, r)) continue;
    const std::uint32_t other = code[r].reads[0] == in.write ? code[r].reads[1] : code[r].reads[0];
    for (std::uint32_t k = r; k-- > 0;) {  // the other half: a shr by the rest of the width, in the run
      const Inst& half = code[k];
      if (half.write == other) {
        if (half.shift == 2 && !half.guarded && half.width == in.width && in.shift_amount + half.shift_amount == in.width &&
            runs.reader_in_run(k, other) == r && runs.only_reader(k, r)) {
          shape.may_fold[pc] = 1;
          shape.may_fold[k] = 1;
          absorbed[r] = 1;  // the funnel shift: no LOP3 fold into it, nor of it into its reader
        }
        break;
      }
      if (half.block_start || half.flow != Flow::Normal) break;
    }
  }
  for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
    const Inst& in = code[pc];
    if (!in.lop || in.guarded || absorbed[pc] || in.write >= slots) continue;
    const std::uint32_t r = runs.reader_in_run(pc, in.write);
    if (r == 0 || !code[r].lop || code[r].guarded || absorbed[r] || !runs.only_reader(pc, r)) continue;
    shape.may_fold[pc] = 1;
    absorbed[r] = 1;
  }
}
}  // namespace

CompilerShape compiler_shape(const Program& program, const isa::Kernel& kernel, const GpuPreset& gpu) {
  const auto& code = program.code;
  CompilerShape shape;
  if (gpu.special_register_cycles != 0) {  // code[pc] is kernel.code[pc] decoded (then OffEnd)
    shape.reads_special.assign(code.size(), 0);
    for (std::size_t pc = 0; pc < kernel.code.size() && pc < code.size(); ++pc)
      for (unsigned k = 0; k < kernel.code[pc].operand_count; ++k) {
        const isa::Operand& o = kernel.code[pc].operands[k];
        if (o.kind == isa::OperandKind::Special && o.special != isa::Special::Clock &&
            o.special != isa::Special::Clock64 && o.special != isa::Special::WarpSize)
          shape.reads_special[pc] = 1;
      }
  }
  shape.if_converted.assign(code.size(), 0);
  shape.batchable.assign(code.size(), 0);
  shape.bookkeeping.assign(code.size(), 0);
  // ptxas unrolls an innermost loop whose trip count it does not know by sm.unroll and pays its
  // counter update, compare and back branch once per unrolled trip (the SASS of poly_fma: 16 FFMA
  // pairs between one IADD3, ISETP and BRA; skip_body, tree_step: by 4). An innermost loop here: a
  // guarded backward branch with no other backward branch and no barrier between its target and it.
  // A loop whose counter steps by a register (a grid-stride loop: i += blockDim.x * gridDim.x) is
  // not unrolled: its trip count may wrap (the SASS of set23's block_reduce: LDG, IADD3, ISETP,
  // FADD, BRA, one load a trip), so its bookkeeping issues every trip and its loads are not batched.
  std::vector<char> not_unrolled(code.size(), 0);
  // Whether the backward branch b's body holds no barrier and no other backward branch.
  auto innermost = [&](std::uint32_t b) {
    for (std::uint32_t k = code[b].target; k < b; ++k)
      if (code[k].flow == Flow::Barrier || (code[k].flow == Flow::Branch && code[k].target <= k)) return false;
    return true;
  };
  if (gpu.unroll > 1 || gpu.batched_loads != 0) {
    for (std::uint32_t b = 0; b < code.size(); ++b) {
      const Inst& br = code[b];
      if (br.flow != Flow::Branch || !br.guarded || br.target >= b || br.read_count != 1) continue;
      if (b - br.target > 256 || !innermost(b) || shape.back_branch.size() >= 0xfffe) continue;
      // The compare that sets the branch's guard, in the branch's own straight-line run, and the
      // counter it compares: an update of a register from itself (k = k + 1) in the loop.
      std::uint32_t compare = b, step = b;
      bool register_step = false;
      for (std::uint32_t k = b; k-- > br.target;) {
        const Inst& cmp = code[k];
        if (cmp.flow != Flow::Normal) break;
        if (cmp.write != br.reads[0]) continue;
        if (cmp.access_bytes == 0 && cmp.write_count == 1) {
          compare = k;
          for (unsigned r = 0; r < cmp.read_count && step == b; ++r)
            for (std::uint32_t j = k; j-- > br.target;) {
              const Inst& update = code[j];
              if (update.write != cmp.reads[r]) continue;
              bool self = false;
              for (unsigned q = 0; q < update.read_count; ++q) self |= update.reads[q] == update.write;
              if (self && !update.guarded && update.flow == Flow::Normal && update.access_bytes == 0 &&
                  update.write_count == 1) {
                step = j;
                register_step = update.read_count > 1;  // reads another register: no constant step
              }
              break;
            }
        }
        break;
      }
      if (register_step) {
        std::fill(not_unrolled.begin() + br.target, not_unrolled.begin() + b + 1, 1);
        continue;
      }
      // A loop without a counter (a search that exits on a loaded value, a spin on an atomic) has no
      // trip count to unroll by: its compare and branch issue every trip.
      if (gpu.unroll <= 1 || step == b) continue;
      const auto loop = static_cast<std::uint16_t>(shape.back_branch.size() + 1);
      shape.back_branch.push_back(b);
      for (const std::uint32_t pc : {b, compare, step}) shape.bookkeeping[pc] = loop;
    }
  }
  // A loop with a barrier in it is not unrolled, and ptxas moves no instruction across a BAR: its
  // loads are not batched, except in the innermost loops it holds (calibrate's barrier_stream: a
  // warp's add of its loaded value waits for it before the next instruction issues).
  if (gpu.batched_loads != 0) {
    std::vector<char> inner(code.size(), 0);  // inside an innermost loop (no barrier, no inner loop)
    for (std::uint32_t b = 0; b < code.size(); ++b)
      if (code[b].flow == Flow::Branch && code[b].target < b && innermost(b))
        std::fill(inner.begin() + code[b].target, inner.begin() + b + 1, 1);
    for (std::uint32_t b = 0; b < code.size(); ++b) {
      if (code[b].flow != Flow::Branch || code[b].target >= b) continue;
      bool barrier = false;
      for (std::uint32_t k = code[b].target; k < b && !barrier; ++k) barrier = code[k].flow == Flow::Barrier;
      if (barrier)
        for (std::uint32_t k = code[b].target; k <= b; ++k) not_unrolled[k] |= static_cast<char>(!inner[k]);
    }
  }
  // A guarded forward branch whose body (the instructions up to its target) is at most
  // if_convert_max straight-line instructions, none of them a global memory access (ptxas keeps
  // those as branches: the SASS of ECE408's naive reduction), and no other branch jumps into it: the
  // compiler predicates the body (the SASS of the Fig 5.13/5.15 tree steps, docs/timing.md).
  if (gpu.if_convert_max != 0) {
    std::vector<char> entered(code.size() + 1, 0);  // targets of any branch
    for (const Inst& in : code)
      if (in.flow == Flow::Branch && in.target < entered.size()) entered[in.target] = 1;
    for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
      const Inst& in = code[pc];
      if (in.flow != Flow::Branch || !in.guarded || in.target <= pc + 1 || in.target - pc - 1 > gpu.if_convert_max)
        continue;
      bool straight = true;
      for (std::uint32_t k = pc + 1; k < in.target && straight; ++k)
        straight = code[k].flow == Flow::Normal && !entered[k] && !isa::is_global_memory(code[k].timing);
      if (straight) shape.if_converted[pc] = static_cast<std::uint8_t>(in.target - pc - 1);
    }
  }
  shape.may_fold.assign(code.size(), 0);
  for (std::uint32_t pc = 0; pc < code.size(); ++pc)
    shape.may_fold[pc] = (code[pc].immediate_mov && gpu.fold_immediates != 0) ||
                         (code[pc].truncation && gpu.fold_truncations != 0) || shape.bookkeeping[pc] != 0;
  if (gpu.lower_int64 != 0 || gpu.fold_widenings != 0 || gpu.fuse_addresses != 0)
    lower_int64(program, kernel, gpu, shape);
  if (gpu.fuse_logic != 0) fuse_logic(code, program.scoreboard_slots, gpu.lower_int64 != 0, shape);
  if (gpu.hoist_shared_loads != 0 || gpu.schedule_arithmetic != 0) schedule_runs(program, gpu, shape);
  if (gpu.vector_shared_loads != 0) group_vector_loads(program, gpu, shape);
  if (gpu.batched_loads == 0) return shape;
  if (gpu.unroll_remainder != 0) shape.trip_loops = find_trip_loops(program);
  // With sm.slow_paths an IEEE division waits for its operands, and ends the run as its branch does.
  const bool slow_paths = gpu.slow_paths != 0;
  auto alu = [&](const Inst& in) {
    return in.flow == Flow::Normal && in.access_bytes == 0 && in.write != isa::kNoRegister && in.write_count <= 1 &&
           !(slow_paths && in.slow_path);
  };
  // An ALU instruction whose destination is one of its sources (an accumulation).
  for (std::uint32_t pc = 0; pc < code.size(); ++pc)
    if (alu(code[pc]) && !not_unrolled[pc])
      for (unsigned k = 0; k < code[pc].read_count; ++k) shape.batchable[pc] |= code[pc].reads[k] == code[pc].write;
  // An ALU instruction whose result the next reader in its straight-line run accumulates (the
  // multiply before the add of sum += a[i] * x[i]): ptxas issues the unrolled loop's loads before
  // its multiplies (SASS of gemv_t, matmul-naive). And arithmetic with a global load after it in its
  // run: an unrolled body (NVVM's PTX adds four iterations into renamed registers) whose loads
  // ptxas hoists above the arithmetic.
  for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
    const Inst& in = code[pc];
    if (shape.batchable[pc] || !alu(in) || not_unrolled[pc]) continue;
    bool fed = false, load_after = false;
    for (std::uint32_t k = pc + 1; k < code.size(); ++k) {
      const Inst& next = code[k];
      if (next.flow != Flow::Normal || next.block_start || (slow_paths && next.slow_path)) break;
      load_after |= next.timing == TimingClass::LoadGlobal;
      bool reads = false;
      for (unsigned j = 0; j < next.read_count; ++j) reads |= next.reads[j] == in.write;
      if (reads && !fed) {
        fed = true;
        if (shape.batchable[k]) shape.batchable[pc] = 1;
      }
      if (fed && load_after) break;
    }
    if (load_after) shape.batchable[pc] = 1;
  }
  return shape;
}

}  // namespace warpsim::sim
