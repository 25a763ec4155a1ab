// What one issued warp instruction did, for whoever drives the interpreter. The functional loop
// hands the interpreter a FunctionalSink (nothing recorded, compiled away); the timing model hands a
// StepSink and gets a StepRecord: the instruction (pc, line, timing class, registers read and
// written), the active and executing lanes, each executing lane's memory address, and the clock
// value %clock reads. Whether the warp diverged, waited at a barrier or exited comes back as the
// interpreter's Stop value and the warp's own state.
#pragma once
#include <cstdint>
#include <cstring>

#include "sim/decode.hpp"
#include "sim/global_memory.hpp"

namespace warpsim::sim {

// The functional loop's sink: %clock reads the block's issue counter; nothing is recorded.
struct FunctionalSink {
  static constexpr bool kRecords = false;
  std::uint64_t clock(std::uint64_t issue_count) const { return issue_count; }
  void before(const Inst&, const LaneContext&, std::uint64_t, std::uint64_t) {}
};

struct StepRecord {
  const Inst* inst = nullptr;
  std::uint64_t active = 0;  // lanes on the current path
  std::uint64_t exec = 0;    // lanes executing (active and guard true)
  std::uint64_t addresses[64] = {};  // memory instructions: byte address of each executing lane
  // Stores and atomics: the bytes each executing lane's access held before the step (up to 8), so
  // the timing model can tell a write that changed memory (progress) from one that did not (a spin).
  std::uint64_t old_values[64] = {};
  std::uint64_t valid = 0;  // lanes whose old value was read (the address lay in memory)
};

// The timing model's sink: %clock reads the SM's cycle counter; memory instructions record
// addresses (and, for writes, the values they replace).
struct StepSink {
  static constexpr bool kRecords = true;
  std::uint64_t now = 0;  // the SM cycle at which the instruction issues
  bool want_old_values = true;  // record what writes replace (the SM stops asking once it saw progress)
  StepRecord record;

  std::uint64_t clock(std::uint64_t) const { return now; }
  // Inline: most instructions do not touch memory and record only the masks.
  void before(const Inst& in, const LaneContext& c, std::uint64_t active, std::uint64_t exec) {
    record.inst = &in;
    record.active = active;
    record.exec = exec;
    record.valid = 0;
    if (in.access_bytes != 0 && exec != 0) record_access(in, c, exec);
  }
  // After the step: whether a store or atomic changed any byte it wrote.
  bool wrote_new_value(const LaneContext& c) const;

 private:
  // A memory instruction's lane addresses, and for writes the values they replace.
  void record_access(const Inst& in, const LaneContext& c, std::uint64_t exec);
};

// The functional loop's sink for a block it watches for spinning (sim/worker.cpp): records like the
// timing model's, so a write that changes memory can be told from one that does not, while %clock
// keeps the functional meaning (the block's issue counter).
struct WatchSink : StepSink {
  std::uint64_t clock(std::uint64_t issue_count) const { return issue_count; }
};

}  // namespace warpsim::sim
