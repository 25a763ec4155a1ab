// Lane semantics of the warp-wide opcodes (vote, ballot, activemask, shuffles) and the memory
// fences. They look only at the executing lanes: vote/ballot/activemask summarise those lanes, and
// a shuffle whose source lane is out of range or not executing returns the reading lane's own value
// (documented in docs/ir.md). With a warp size of 64, ballot and activemask keep the low 32 lanes.
#include <atomic>
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

void no_operation(const Inst&, LaneContext&) {}
void fence(const Inst&, LaneContext&) { std::atomic_thread_fence(std::memory_order_seq_cst); }

}  // namespace

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
