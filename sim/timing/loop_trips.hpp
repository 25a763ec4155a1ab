// sm.unroll_remainder (stop 38): ptxas unrolls a counted innermost loop by 16, 8 and 4 and runs
// the trips left over (trips mod 4, sm.unroll) one at a time, after the unrolled blocks (the SASS of
// the first set's reduce-coarsened, docs/validation/h100/stop38/rcprobe38.sass: two trips are two
// DRAM round trips, four are one). So a trip past the last whole group starts only when the trip
// before it has its loads (Sm::track_loop); within a trip the loads still go out together. The trip
// count is what the loop's own instructions say: its exit test and the instructions it depends on,
// run ahead on a copy of the warp's registers when the warp enters the loop (the functional
// semantics, not a re-implementation of them).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/decode.hpp"
#include "sim/warp.hpp"

namespace warpsim::sim {

struct TripLoop {
  std::uint32_t header = 0, back = 0;  // the loop is [header, back]; back is its backward branch
  std::uint32_t exit = 0;              // its one exit test: a forward branch out, or the back branch
  // pcs of the instructions the exit test's guard depends on inside the loop, and the exit's, in pc
  // order: one trip of the loop's control, as the warp runs it.
  std::vector<std::uint32_t> walk;
};

struct TripLoops {
  std::vector<TripLoop> loops;
  std::vector<std::uint16_t> header_of;  // per pc: 1 + the index of the loop it heads (0: none)
  bool empty() const { return loops.empty(); }
};

// The innermost loops (no barrier, no other backward branch, no exit instruction) with one exit
// test whose guard the loop computes from its own unguarded integer arithmetic, run every trip (no
// forward branch skips it), at most kMaxWalk instructions; invariant operands are read as they are.
TripLoops find_trip_loops(const Program& program);

constexpr std::uint32_t kUnknownTrips = ~0u;

// How many trips a warp entering a loop will make (the body runs that many times), from its
// registers now; kUnknownTrips if its active lanes would leave on different trips or it runs past
// kMaxTrips. Uses the instructions' own lane functions on scratch copies of the warp's registers.
class TripCounter {
 public:
  static constexpr std::uint32_t kMaxTrips = 256;
  static constexpr std::size_t kMaxWalk = 8;
  explicit TripCounter(const Program& program) : program_(program) {}
  std::uint32_t trips(const TripLoop& loop, const Warp& warp);

 private:
  const Program& program_;
  std::vector<std::uint32_t> r32_;
  std::vector<std::uint64_t> r64_, predicates_;
};

}  // namespace warpsim::sim
