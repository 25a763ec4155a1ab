// The compiler's list scheduling as the timing model sees it (docs/timing.md, "compiler: list
// scheduling"): the issue order of each straight-line run, worked out once per launch into
// CompilerShape::next and entry, which Sm::follow_order walks.
#include <algorithm>
#include <vector>

#include "sim/timing/sm.hpp"

namespace warpsim::sim {

using isa::TimingClass;

namespace {
// Whether an instruction may not be moved past, nor anything past it: what reads the clock, a fence,
// a barrier class, a warp-synchronising instruction (a membermask).
bool pinned(const Inst& in) {
  return in.flow != Flow::Normal || in.reads_clock || in.has_mask || in.timing == TimingClass::FenceCta ||
         in.timing == TimingClass::FenceGl || in.timing == TimingClass::Barrier;
}
bool reads_register(const Inst& in, std::uint32_t r) {
  if (r == isa::kNoRegister) return false;
  for (unsigned k = 0; k < in.read_count; ++k)
    if (in.reads[k] == r) return true;
  return false;
}
}  // namespace

// ptxas's list scheduling, as far as the timing model needs it: within a straight-line run, a shared
// load, and what computes its address, issue as soon as their dependences allow while fewer than
// `window` of the shared loads issued have no reader issued yet (the registers the loads fill); the
// rest keeps the IR's order. The SASS of set24's sgemm_reg: ten LDS, then the FFMAs, the next step's
// LDS among them; NVVM's PTX puts each ld.shared beside the FMA that reads it.
// A run: from a CFG block start, a branch target or reconvergence point, or the instruction after a
// pinned one, to the next such; its last instruction stays last (the executor checks for a
// reconvergence point at the pc after it) and pinned instructions stay where they are. Dependences:
// registers (read after write, write after read and after write) and memory (a store or atomic
// after every earlier access to its space, a load after every earlier store or atomic to it).
void schedule_runs(const Program& program, const GpuPreset& gpu, CompilerShape& shape) {
  const std::uint32_t window = gpu.hoist_shared_loads;
  const bool by_latency = gpu.schedule_arithmetic != 0;
  // The loads the hoisting moves: shared ones, and global ones with sm.hoist_global_loads (the SASS
  // of set27's grid_stride_axpy loads y ahead of the FMUL on x, where NVVM's PTX has ld x, mul, ld y).
  const auto hoisted = [&](const Inst& in) {
    return in.timing == TimingClass::LoadShared || (gpu.hoist_global_loads != 0 && in.timing == TimingClass::LoadGlobal);
  };
  const auto& code = program.code;
  const auto size = static_cast<std::uint32_t>(code.size());
  shape.next.assign(size, CompilerShape::kInOrder);
  shape.entry.resize(size);
  for (std::uint32_t pc = 0; pc < size; ++pc) shape.entry[pc] = pc;
  std::vector<char> leader(size + 1, 0);
  leader[0] = 1;
  std::uint32_t registers = 0;
  for (std::uint32_t pc = 0; pc < size; ++pc) {
    const Inst& in = code[pc];
    if (in.block_start) leader[pc] = 1;
    if (in.flow == Flow::Branch) {
      if (in.target < size) leader[in.target] = 1;
      if (in.reconvergence_pc < size) leader[in.reconvergence_pc] = 1;
    }
    if (pinned(in)) leader[pc] = leader[pc + 1] = 1;
    for (unsigned k = 0; k < in.read_count; ++k)
      if (in.reads[k] != isa::kNoRegister) registers = std::max(registers, in.reads[k] + 1);
    for (unsigned k = 0; k < in.write_count; ++k) {
      const std::uint32_t r = k == 0 ? in.write : in.more_writes[k - 1];
      if (r != isa::kNoRegister) registers = std::max(registers, r + 1);
    }
  }
  constexpr std::uint32_t kReach = 64;  // how far past the first instruction not issued a load is looked for
  constexpr std::uint32_t kNone = 0xffffffffu;
  std::vector<std::uint32_t> last_writer(registers, kNone), order, unread, waiting, nearest_load;
  std::vector<std::uint64_t> earliest;  // per instruction: the cycle its dependences allow it
  std::vector<std::vector<std::uint32_t>> readers(registers), successors, after;  // after: cycles from the edge's source
  std::vector<char> issued;
  for (std::uint32_t begin = 0; begin < size;) {
    std::uint32_t end = begin + 1;
    while (end < size && !leader[end]) ++end;
    // [begin, last) may be reordered; `last` (the run's final instruction) stays last.
    const std::uint32_t last = end - 1, n = last - begin;
    bool worth = by_latency;  // arithmetic to order, or a load to hoist
    for (std::uint32_t pc = begin + 1; pc < last && !worth; ++pc) worth = hoisted(code[pc]);
    if (n < 2 || !worth || pinned(code[begin])) {
      begin = end;
      continue;
    }
    // The dependence graph of [begin, last): successors and the count of predecessors not issued.
    successors.assign(n, {});
    after.assign(n, {});
    waiting.assign(n, 0);
    std::vector<std::uint32_t> touched;
    std::uint32_t last_store[4] = {kNone, kNone, kNone, kNone};
    std::vector<std::uint32_t> loads_since[4];
    // A read after write waits for the writer's latency, anything else for its issue.
    auto edge = [&](std::uint32_t from, std::uint32_t to, bool value = false) {
      if (from == kNone || from == to) return;
      auto& out = successors[from];
      const std::uint32_t cycles = value ? std::max<std::uint32_t>(gpu.timing(code[begin + from].timing).latency, 1) : 1;
      if (!out.empty() && out.back() == to) {
        after[from].back() = std::max(after[from].back(), cycles);
        return;
      }
      out.push_back(to);
      after[from].push_back(cycles);
      ++waiting[to];
    };
    for (std::uint32_t i = 0; i < n; ++i) {
      const Inst& in = code[begin + i];
      for (unsigned k = 0; k < in.read_count; ++k) {
        const std::uint32_t r = in.reads[k];
        if (r == isa::kNoRegister) continue;
        edge(last_writer[r], i, true);
        if (readers[r].empty() && last_writer[r] == kNone) touched.push_back(r);
        readers[r].push_back(i);
      }
      for (unsigned k = 0; k < in.write_count; ++k) {
        const std::uint32_t r = k == 0 ? in.write : in.more_writes[k - 1];
        if (r == isa::kNoRegister) continue;
        edge(last_writer[r], i);
        for (const std::uint32_t reader : readers[r]) edge(reader, i);
        if (readers[r].empty() && last_writer[r] == kNone) touched.push_back(r);
        readers[r].clear();
        last_writer[r] = i;
      }
      if (in.access_bytes != 0 && in.space != isa::Space::None) {
        const auto space = static_cast<unsigned>(in.space);
        const bool load = in.timing == TimingClass::LoadShared || in.timing == TimingClass::LoadGlobal;
        edge(last_store[space], i);
        // A hoisted global load stays after every earlier store and atomic, shared and local ones
        // too: the CUDA the GPU runs (cuda/emitter.cpp) reaches global memory through generic
        // pointers, which the compiler must assume may alias shared memory (the GPU kept set24's
        // sgemm_reg's loads behind its shared stores: +4% with this, -67% without).
        if (gpu.hoist_global_loads != 0 && in.timing == TimingClass::LoadGlobal)
          for (const std::uint32_t s : last_store) edge(s, i);
        if (load) {
          loads_since[space].push_back(i);
        } else {
          for (const std::uint32_t l : loads_since[space]) edge(l, i);
          loads_since[space].clear();
          last_store[space] = i;
        }
      }
    }
    for (const std::uint32_t r : touched) {
      last_writer[r] = kNone;
      readers[r].clear();
    }
    // Per instruction, the nearest shared load its value flows into (itself for a load): what
    // computes a load's address issues with it.
    nearest_load.assign(n, kNone);
    for (std::uint32_t i = n; i-- > 0;) {
      if (hoisted(code[begin + i])) nearest_load[i] = i;
      const Inst& in = code[begin + i];
      if (in.write == isa::kNoRegister) continue;
      for (const std::uint32_t j : successors[i])
        if (nearest_load[j] != kNone && reads_register(code[begin + j], in.write))
          nearest_load[i] = std::min(nearest_load[i], nearest_load[j]);
    }
    order.clear();
    unread.clear();
    issued.assign(n, 0);
    earliest.assign(n, 0);
    std::uint32_t first = 0;  // the first instruction not yet issued (always ready)
    std::uint64_t cycle = 0;  // one warp issuing the run alone, one instruction a cycle
    auto issue = [&](std::uint32_t i) {
      const Inst& in = code[begin + i];
      issued[i] = 1;
      order.push_back(begin + i);
      const std::uint64_t at = std::max(cycle, earliest[i]);
      cycle = at + 1;
      for (std::size_t e = 0; e < successors[i].size(); ++e) {
        const std::uint32_t j = successors[i][e];
        --waiting[j];
        earliest[j] = std::max(earliest[j], at + after[i][e]);
      }
      std::erase_if(unread, [&](std::uint32_t load) {
        const Inst& l = code[begin + load];
        for (unsigned k = 0; k < l.write_count; ++k)
          if (reads_register(in, k == 0 ? l.write : l.more_writes[k - 1])) return true;
        return false;
      });
      if (hoisted(in) && in.write != isa::kNoRegister) unread.push_back(i);
      while (first < n && issued[first]) ++first;
    };
    while (first < n) {
      std::uint32_t pick = kNone;
      if (unread.size() < window)
        for (std::uint32_t j = first; j < n && j <= first + kReach; ++j)
          if (!issued[j] && waiting[j] == 0 && nearest_load[j] <= first + kReach) {
            pick = j;
            break;
          }
      // sm.schedule_arithmetic: among the next that many instructions, the first whose operands are
      // ready by now, else the one ready soonest. Memory instructions keep their place and nothing
      // moves past one: a load delayed behind arithmetic keeps fewer in flight (the stream
      // microbenchmarks' fits moved by half when it could; global loads in unrolled loops are
      // sm.batched_loads's, shared loads the hoisting's).
      if (pick == kNone && by_latency && code[begin + first].access_bytes == 0) {
        std::uint64_t soonest = ~std::uint64_t{0};
        for (std::uint32_t j = first; j < n && j <= first + gpu.schedule_arithmetic; ++j) {
          if (issued[j]) continue;
          if (code[begin + j].access_bytes != 0) break;  // nothing moves past a memory instruction
          if (waiting[j] != 0) continue;
          if (earliest[j] <= cycle) {
            pick = j;
            break;
          }
          if (earliest[j] < soonest) soonest = earliest[j], pick = j;
        }
      }
      issue(pick == kNone ? first : pick);
    }
    order.push_back(last);
    bool moved = false;
    for (std::uint32_t i = 0; i < order.size(); ++i) moved |= order[i] != begin + i;
    if (moved) {
      shape.entry[begin] = order[0];
      for (std::uint32_t i = 0; i + 1 < order.size(); ++i)
        if (order[i + 1] != order[i] + 1) shape.next[order[i]] = order[i + 1];
    }
    begin = end;
  }
}

}  // namespace warpsim::sim
