#include "sim/timing/loop_trips.hpp"

#include <algorithm>

namespace warpsim::sim {

namespace {

using isa::TimingClass;

// Integer arithmetic, logic and compares: what a loop's count is made of, none of which can fault.
bool counts(TimingClass c) {
  return c == TimingClass::IntAlu || c == TimingClass::Int64Alu || c == TimingClass::IntLogic ||
         c == TimingClass::IntLogic64 || c == TimingClass::IntMul || c == TimingClass::IntMul64;
}

bool writes(const Inst& in, std::uint32_t reg) {
  if (in.write_count == 0) return false;
  if (in.write == reg) return true;
  for (unsigned k = 1; k < in.write_count; ++k)
    if (in.more_writes[k - 1] == reg) return true;
  return false;
}

// Whether every trip through [header, back] runs pc: no forward branch inside the loop jumps over it.
bool every_trip(const std::vector<Inst>& code, std::uint32_t header, std::uint32_t back, std::uint32_t pc) {
  for (std::uint32_t k = header; k < pc; ++k)
    if (code[k].flow == Flow::Branch && code[k].target > pc && code[k].target <= back) return false;
  return true;
}

}  // namespace

TripLoops find_trip_loops(const Program& program) {
  const auto& code = program.code;
  TripLoops out;
  out.header_of.assign(code.size(), 0);
  for (std::uint32_t b = 0; b < code.size(); ++b) {
    const Inst& br = code[b];
    if (br.flow != Flow::Branch || br.target >= b || out.header_of[br.target] != 0 || out.loops.size() >= 0xfffe)
      continue;
    const std::uint32_t t = br.target;
    bool ok = true;
    std::vector<std::uint32_t> exits;
    for (std::uint32_t k = t; k < b && ok; ++k) {
      const Inst& in = code[k];
      if (in.flow == Flow::Barrier || in.flow == Flow::Exit || in.flow == Flow::OffEnd) ok = false;
      if (in.flow != Flow::Branch) continue;
      if (in.target <= k) ok = false;  // another backward branch: not innermost
      else if (in.target > b) {        // out of the loop
        if (in.guarded && in.read_count == 1) exits.push_back(k);
        else ok = false;
      }
    }
    if (br.guarded) exits.push_back(b);
    if (!ok || exits.size() != 1 || code[exits[0]].read_count != 1) continue;
    const std::uint32_t e = exits[0];
    if (!every_trip(code, t, b, e)) continue;
    // The exit's guard and what it is computed from inside the loop, each register written once there.
    std::vector<std::uint32_t> walk{e}, pending{code[e].reads[0]}, seen;
    while (ok && !pending.empty()) {
      const std::uint32_t reg = pending.back();
      pending.pop_back();
      if (std::find(seen.begin(), seen.end(), reg) != seen.end()) continue;
      seen.push_back(reg);
      std::uint32_t writer = 0, writers = 0;
      for (std::uint32_t k = t; k <= b; ++k)
        if (writes(code[k], reg)) ++writers, writer = k;
      if (writers == 0) continue;  // the same every trip: read as it is
      const Inst& u = code[writer];
      ok = writers == 1 && u.flow == Flow::Normal && !u.guarded && u.fn != nullptr && u.access_bytes == 0 &&
           !u.reads_clock && u.write_count == 1 && counts(u.timing) && every_trip(code, t, b, writer) &&
           walk.size() < TripCounter::kMaxWalk;
      if (!ok) break;
      walk.push_back(writer);
      for (unsigned k = 0; k < u.read_count; ++k) pending.push_back(u.reads[k]);
    }
    if (!ok) continue;
    std::sort(walk.begin(), walk.end());
    out.loops.push_back({t, b, e, walk});
    out.header_of[t] = static_cast<std::uint16_t>(out.loops.size());
  }
  return out;
}

std::uint32_t TripCounter::trips(const TripLoop& loop, const Warp& warp) {
  const std::uint32_t ws = program_.warp_size;
  r32_.assign(warp.r32, warp.r32 + std::size_t{program_.registers32} * ws);
  r64_.assign(warp.r64, warp.r64 + std::size_t{program_.registers64} * ws);
  predicates_.assign(warp.predicates, warp.predicates + program_.predicates);
  LaneContext c;
  c.base32[0] = c.r32 = r32_.data();
  c.base64[0] = c.r64 = r64_.data();
  c.base32[1] = program_.constants32.data();
  c.base64[1] = program_.constants64.data();
  c.predicates = predicates_.data();
  c.warp_size = ws;
  c.alive = &warp.alive;
  const std::uint64_t lanes = warp.active & warp.alive;
  c.exec = lanes;
  if (lanes == 0) return kUnknownTrips;
  for (std::uint32_t trip = 0; trip <= kMaxTrips; ++trip)
    for (const std::uint32_t pc : loop.walk) {
      const Inst& in = program_.code[pc];
      if (pc != loop.exit) {
        in.fn(in, c);
        continue;
      }
      const std::uint64_t taken = lanes & (predicates_[in.guard] ^ in.guard_xor);
      const std::uint64_t leave = pc == loop.back ? lanes & ~taken : taken;
      if (leave == lanes) return pc == loop.back ? trip + 1 : trip;
      if (leave != 0) return kUnknownTrips;
    }
  return kUnknownTrips;
}

}  // namespace warpsim::sim
