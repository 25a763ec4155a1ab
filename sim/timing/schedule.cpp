// The compiler's list scheduling as the timing model sees it (docs/timing.md, "compiler: list
// scheduling"): the issue order of each straight-line run, worked out once per launch into
// CompilerShape::next and entry, which Sm::follow_order walks.
#include <algorithm>
#include <bit>
#include <vector>

#include "sim/timing/sm.hpp"

namespace warpsim::sim {

using isa::TimingClass;

namespace {
// Whether an instruction may not be moved past, nor anything past it: what reads the clock, a fence,
// a barrier class, a warp-synchronising instruction (a membermask), and with sm.slow_paths an IEEE
// division, reciprocal or square root (its slow-path branch ends ptxas's basic block).
bool pinned(const Inst& in, const GpuPreset& gpu) {
  return in.flow != Flow::Normal || in.reads_clock || in.has_mask || in.timing == TimingClass::FenceCta ||
         in.timing == TimingClass::FenceGl || in.timing == TimingClass::Barrier || (in.slow_path && gpu.slow_paths != 0);
}
bool reads_register(const Inst& in, std::uint32_t r) {
  if (r == isa::kNoRegister) return false;
  for (unsigned k = 0; k < in.read_count; ++k)
    if (in.reads[k] == r) return true;
  return false;
}
// Per pc (and one past the last): whether a straight-line run starts there: a CFG block start, a
// branch target or reconvergence point, a pinned instruction or the one after it.
std::vector<char> run_starts(const Program& program, const GpuPreset& gpu) {
  const auto& code = program.code;
  const auto size = static_cast<std::uint32_t>(code.size());
  std::vector<char> leader(size + 1, 0);
  leader[0] = 1;
  for (std::uint32_t pc = 0; pc < size; ++pc) {
    const Inst& in = code[pc];
    if (in.block_start) leader[pc] = 1;
    if (in.flow == Flow::Branch) {
      if (in.target < size) leader[in.target] = 1;
      if (in.reconvergence_pc < size) leader[in.reconvergence_pc] = 1;
    }
    if (pinned(in, gpu)) leader[pc] = leader[pc + 1] = 1;
  }
  return leader;
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
  const std::vector<char> leader = run_starts(program, gpu);
  std::uint32_t registers = 0;
  for (std::uint32_t pc = 0; pc < size; ++pc) {
    const Inst& in = code[pc];
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
    if (n < 2 || !worth || pinned(code[begin], gpu)) {
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
      const std::uint32_t cycles =
          value ? std::max<std::uint32_t>(gpu.timing(shape.timed(code[begin + from])).latency, 1) : 1;
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

namespace warpsim::sim {

// sm.vector_shared_loads: ptxas merges shared loads of one address base that it can prove lie in one
// aligned 16-byte (or 8-byte) chunk into one LDS.128 (LDS.64): the SASS of set27's tiled_matmul reads
// As[ty][kk..kk+3] with one LDS.128 (TILE / 4 of them a tile, beside TILE scalar LDS of Bs), where
// NVVM's PTX has four ld.shared.f32. Within each straight-line run, in its issue order: loads of 4 or
// 8 bytes (no vector, no guard) whose bases hold one value (the same register, or truncations of the
// same 64-bit register, not written between) whose known alignment (Program::value_align of the
// write in the run, else Program::base_align at the load) is at least the chunk's, no shared store
// or atomic between them, the group one access aligned to its own size. The first in issue order
// leads: it takes the issue slot and the shared passes of the group's bytes from its lowest address;
// the others fold (no slot, their values ready with the leader's).
void group_vector_loads(const Program& program, const GpuPreset& gpu, CompilerShape& shape) {
  const auto& code = program.code;
  const auto size = static_cast<std::uint32_t>(code.size());
  constexpr std::uint32_t kNone = 0xffffffffu;
  shape.vector_bytes.assign(size, 0);
  shape.vector_shift.assign(size, 0);
  shape.vector_leader.assign(size, kNone);
  const std::vector<char> starts = run_starts(program, gpu);
  std::vector<std::uint32_t> writer(program.scoreboard_slots, kNone), touched, order, truncated_from, position;
  struct Load {
    std::uint32_t pc = 0;
    std::uint64_t root = 0, def = 0, epoch = 0;  // the base's value: its register and last writer; shared stores before
    std::int64_t chunk = 0, offset = 0;           // the chunk's index, the access's offset from the base
    std::uint32_t chunk_bytes = 0;
  };
  std::vector<Load> loads;
  for (std::uint32_t begin = 0; begin < size;) {
    std::uint32_t end = begin + 1;
    while (end < size && !starts[end]) ++end;
    // The base of each candidate load, in the IR's order.
    loads.clear();
    truncated_from.assign(end - begin, kNone);  // per truncation: its source's write in the run
    std::uint64_t epoch = 0;
    for (std::uint32_t pc = begin; pc < end; ++pc) {
      const Inst& in = code[pc];
      if (in.timing == TimingClass::StoreShared || in.timing == TimingClass::AtomShared) ++epoch;
      if (in.timing == TimingClass::LoadShared && in.vector == 0 && !in.guarded && in.write_count == 1 &&
          (in.access_bytes == 4 || in.access_bytes == 8)) {
        Load l;
        l.pc = pc;
        l.epoch = epoch;
        std::uint64_t align = 16;
        std::int64_t offset = in.mem_offset;
        if (in.base_register == isa::kNoRegister) {  // [array + offset]: the address is known
          l.root = kNone;
          offset += program.constants32.at(in.mem_base.offset);
        } else {
          // The base's value: its register and the write of it in this run (none: from before the
          // run), through a truncation to the 64-bit register it took, as that register was then.
          std::uint32_t root = in.base_register, def = writer[root];
          align = def != kNone ? program.value_align.at(def) : program.base_align.at(pc);
          if (def != kNone && code[def].truncation && code[def].read_count == 1) {  // cvt.u32.u64 of the base
            root = code[def].reads[0];
            def = truncated_from[def - begin];
          }
          l.root = root;
          l.def = def;
        }
        l.chunk_bytes = align >= 16 ? 16 : align >= 8 ? 8 : 0;
        const auto c = static_cast<std::int64_t>(l.chunk_bytes);
        if (c != 0 && offset % in.access_bytes == 0) {
          l.offset = offset;
          l.chunk = offset >= 0 ? offset / c : -((-offset + c - 1) / c);
          if (offset - l.chunk * c + in.access_bytes <= c) loads.push_back(l);
        }
      }
      if (in.truncation && in.read_count == 1) truncated_from[pc - begin] = writer[in.reads[0]];
      for (unsigned k = 0; k < in.write_count; ++k) {
        const std::uint32_t r = k == 0 ? in.write : in.more_writes[k - 1];
        if (r == isa::kNoRegister) continue;
        if (writer[r] == kNone) touched.push_back(r);
        writer[r] = pc;
      }
    }
    for (const std::uint32_t r : touched) writer[r] = kNone;
    touched.clear();
    if (loads.size() >= 2) {
      // The run's issue order (sm.hoist_shared_loads may have reordered it).
      order.clear();
      for (std::uint32_t pc = shape.entry.empty() ? begin : shape.entry[begin];;) {
        order.push_back(pc);
        if (pc == end - 1 || order.size() > end - begin) break;
        pc = shape.next.empty() || shape.next[pc] == CompilerShape::kInOrder ? pc + 1 : shape.next[pc];
      }
      position.assign(end - begin, 0);
      for (std::uint32_t i = 0; i < order.size(); ++i) position[order[i] - begin] = i;
      std::sort(loads.begin(), loads.end(), [&](const Load& a, const Load& b) { return position[a.pc - begin] < position[b.pc - begin]; });
      std::vector<char> taken(loads.size(), 0);
      for (std::size_t i = 0; i < loads.size(); ++i) {
        if (taken[i]) continue;
        const Load& lead = loads[i];
        const Inst& li = code[lead.pc];
        std::int64_t lo = lead.offset, hi = lead.offset + li.access_bytes;
        std::vector<std::size_t> members;
        for (std::size_t j = i + 1; j < loads.size(); ++j) {
          const Load& m = loads[j];
          if (taken[j] || m.root != lead.root || m.def != lead.def || m.epoch != lead.epoch || m.chunk != lead.chunk ||
              m.chunk_bytes != lead.chunk_bytes || code[m.pc].access_bytes != li.access_bytes)
            continue;
          // The leader's value must still be in its register when the member takes it.
          bool kept = true;
          for (std::uint32_t k = position[lead.pc - begin] + 1; k < position[m.pc - begin] && kept; ++k) {
            const Inst& between = code[order[k]];
            for (unsigned w = 0; w < between.write_count && kept; ++w)
              kept = (w == 0 ? between.write : between.more_writes[w - 1]) != li.write;
          }
          if (!kept) continue;
          members.push_back(j);
          lo = std::min(lo, m.offset);
          hi = std::max<std::int64_t>(hi, m.offset + li.access_bytes);
        }
        // One vector access: LDS.64 or LDS.128 is aligned to its own size within the chunk.
        const auto bytes = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(hi - lo)));
        const std::int64_t within = lo - lead.chunk * static_cast<std::int64_t>(lead.chunk_bytes);
        if (members.empty() || within % bytes != 0) continue;
        shape.vector_bytes[lead.pc] = static_cast<std::uint8_t>(bytes);
        shape.vector_shift[lead.pc] = static_cast<std::int8_t>(lo - lead.offset);
        for (const std::size_t j : members) {
          taken[j] = 1;
          shape.vector_leader[loads[j].pc] = lead.pc;
          shape.may_fold[loads[j].pc] = 1;
        }
      }
    }
    begin = end;
  }
}

}  // namespace warpsim::sim
