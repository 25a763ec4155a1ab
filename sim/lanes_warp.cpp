// Lane semantics of the warp-wide opcodes (vote, ballot, activemask, shuffles) and the memory
// fences. They look only at the executing lanes: vote/ballot/activemask summarise those lanes, and
// a shuffle whose source lane is out of range or not executing returns the reading lane's own value
// (documented in docs/ir.md). With a warp size of 64, ballot and activemask keep the low 32 lanes.
#include <fmt/format.h>

#include <atomic>
#include <string>
#include <cstdint>

#include "isa/opcodes.hpp"
#include "sim/lanes.hpp"

namespace warpsim::sim {
namespace {

using namespace lanes;

void vote_any(const Inst& in, LaneContext& c) {
  write_predicate(c, in.dst, (predicate(c, in.src[0]) & c.exec) != 0 ? ~std::uint64_t{0} : 0);
}

void vote_all(const Inst& in, LaneContext& c) {
  write_predicate(c, in.dst, (predicate(c, in.src[0]) & c.exec) == c.exec ? ~std::uint64_t{0} : 0);
}

void broadcast32(const Inst& in, LaneContext& c, std::uint32_t v) {
  write_lanes(destination<std::uint32_t>(c, in.dst), c, [v](unsigned) { return v; });
}

void vote_ballot(const Inst& in, LaneContext& c) {
  broadcast32(in, c, static_cast<std::uint32_t>(predicate(c, in.src[0]) & c.exec));
}

void activemask(const Inst& in, LaneContext& c) { broadcast32(in, c, static_cast<std::uint32_t>(c.exec)); }

enum class Shuffle { Down, Up, Xor, Idx };

template <Shuffle K>
void shuffle(const Inst& in, LaneContext& c) {
  const std::uint32_t* a = source<std::uint32_t>(c, in.src[0]);
  const std::uint32_t* b = source<std::uint32_t>(c, in.src[1]);
  const unsigned n = c.warp_size;
  std::uint32_t values[64];  // read every source before any write: the destination may be a source
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    std::uint64_t from = l;
    if constexpr (K == Shuffle::Down) from = std::uint64_t{l} + b[l];
    else if constexpr (K == Shuffle::Up) from = b[l] > l ? n : l - b[l];
    else if constexpr (K == Shuffle::Xor) from = l ^ b[l];
    else from = b[l];
    values[l] = (from < n && ((c.exec >> from) & 1)) ? a[from] : a[l];
  }
  std::uint32_t* d = destination<std::uint32_t>(c, in.dst);
  for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
    const unsigned l = lowest_lane(m);
    d[l] = values[l];
  }
}

// The membermask of shfl, vote and bar.warp.sync, as PTX defines it for sm_70 and later: every
// executing lane must pass the same mask and be named in it, and the instruction waits for every
// named lane that has not exited. warpsim makes no lane wait for another here, so a named lane
// that has not exited must be executing this instruction now; otherwise the run stops with an
// error rather than a result the GPU would not give. Masks name lanes 0-31.
[[gnu::cold, noreturn]] void bad_mask(const Inst& in, const LaneContext& c, unsigned lane, const std::string& what) {
  c.faults->raise(in, lane, what);
}

void check_members(const Inst& in, const LaneContext& c) {
  const std::uint32_t* m = source<std::uint32_t>(c, in.src[in.mask]);
  const unsigned first = lowest_lane(c.exec);
  const std::uint32_t mask = m[first];
  for (std::uint64_t e = c.exec; e != 0; e &= e - 1) {
    const unsigned l = lowest_lane(e);
    if (m[l] != mask)
      bad_mask(in, c, l,
               fmt::format("lanes {} and {} pass different membermasks ({:#x} and {:#x})", first, l, mask, m[l]));
    if (l >= 32 || ((mask >> l) & 1) == 0)
      bad_mask(in, c, l,
               fmt::format("lane {} executes this instruction but its membermask {:#x} does not name it (undefined "
                           "in CUDA)", l, mask));
  }
  const std::uint64_t missing = std::uint64_t{mask} & *c.alive & ~c.exec;
  if (missing != 0)
    bad_mask(in, c, first,
             fmt::format("membermask {:#x} names lanes {:#x}, which have not exited but are not executing this "
                         "instruction (on another path, or their guard is false); a GPU would make them meet here, "
                         "warpsim does not model that wait (docs/ir.md)", mask, missing));
}

template <ExecFn F>
void masked(const Inst& in, LaneContext& c) {
  check_members(in, c);
  F(in, c);
}

// bar.warp.sync (__syncwarp): the named lanes meet (checked above) and their memory accesses are
// ordered, which the simulator's one-lane-after-another execution already gives.
void warp_sync(const Inst& in, LaneContext& c) {
  if (in.has_mask) check_members(in, c);
}

void no_operation(const Inst&, LaneContext&) {}
void fence(const Inst&, LaneContext&) { std::atomic_thread_fence(std::memory_order_seq_cst); }

}  // namespace

ExecFn select_masked(const isa::Instruction& inst) {
  using isa::Opcode;
  switch (inst.op) {
    case Opcode::BarWarpSync: return &warp_sync;
    case Opcode::VoteAny: return &masked<&vote_any>;
    case Opcode::VoteAll: return &masked<&vote_all>;
    case Opcode::VoteBallot: return &masked<&vote_ballot>;
    case Opcode::ShflDown: return &masked<&shuffle<Shuffle::Down>>;
    case Opcode::ShflUp: return &masked<&shuffle<Shuffle::Up>>;
    case Opcode::ShflXor: return &masked<&shuffle<Shuffle::Xor>>;
    case Opcode::ShflIdx: return &masked<&shuffle<Shuffle::Idx>>;
    default: return nullptr;
  }
}

ExecFn select_warp_op(const isa::Instruction& inst) {
  using isa::Opcode;
  switch (inst.op) {
    case Opcode::VoteAny: return &vote_any;
    case Opcode::VoteAll: return &vote_all;
    case Opcode::VoteBallot: return &vote_ballot;
    case Opcode::Activemask: return &activemask;
    case Opcode::ShflDown: return &shuffle<Shuffle::Down>;
    case Opcode::ShflUp: return &shuffle<Shuffle::Up>;
    case Opcode::ShflXor: return &shuffle<Shuffle::Xor>;
    case Opcode::ShflIdx: return &shuffle<Shuffle::Idx>;
    case Opcode::MembarCta: return &no_operation;
    case Opcode::MembarGl: return &fence;
    default: return nullptr;
  }
}

}  // namespace warpsim::sim
