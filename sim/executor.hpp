// The interpreter: runs one warp of a resident block for up to `limit` warp instructions. This is
// the one place functional semantics live. The functional loop (sim/worker.cpp) calls it with a
// time slice and a FunctionalSink; the timing model (sim/timing/) calls it with a limit of 1 and a
// StepSink, so both modes execute exactly the same code and agree on every result and mask.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch.hpp"
#include "sim/bits.hpp"
#include "sim/block.hpp"
#include "sim/decode.hpp"
#include "sim/global_memory.hpp"
#include "sim/stats_collector.hpp"
#include "sim/step.hpp"

namespace warpsim::sim {

enum class Stop : std::uint8_t { Slice, Barrier, Exited };

class Executor final : private FaultSink {
 public:
  Executor(const LaunchSpec& spec, const Program& program, GlobalMemory& memory, StatsCollector& stats);

  // Runs `warp` of `block` for at most `limit` warp instructions; throws KernelFault.
  template <class Sink>
  Stop run(Block& block, Warp& warp, std::uint64_t limit, Sink& sink);
  // One warp instruction for the timing model: run() with a limit of 1, compiled for that limit
  // (no loop, one set-up per call).
  Stop step(Block& block, Warp& warp, StepSink& sink);

  const LaneContext& context() const { return context_; }

  // Faults the interpreter cannot see from one warp (the timing model's deadlock and limit reports).
  [[noreturn]] void divergent_barrier(const Block& block, const Inst& in, const Warp& warp, std::uint64_t arrived) const;
  std::string where(const Block& block, const Inst& in, std::uint32_t warp, unsigned lane) const;

 private:
  template <class Sink>
  Stop loop(Block& block, Warp& warp, std::uint64_t limit, Sink& sink);
  void record_branch(Warp& warp, const Inst& inst, std::uint64_t taken, std::uint64_t not_taken,
                     std::uint64_t active_count);
  void fill_clock(Warp& warp, std::uint64_t now) const;
  void throw_fault(const Inst& inst, unsigned lane, const std::string& what) const override;
  [[noreturn, gnu::cold]] void lost_path(const Warp& warp) const;

  const LaunchSpec& spec_;
  const Program& program_;
  StatsCollector& stats_;
  bool tracing_;
  std::uint64_t all_lanes_;
  LaneContext context_;
  std::vector<int> allocation_cache_;  // LaneContext::allocation_cache
  const Block* block_ = nullptr;       // the block running now, for messages
  const Warp* running_ = nullptr;
};

// A released barrier: lanes that waited at it without the rest of their warp run again.
void resume_after_barrier(Warp& warp);

// The text of source line `line` (1-based), trimmed; "" when unknown.
std::string source_line(std::string_view text, std::uint32_t line);

}  // namespace warpsim::sim
