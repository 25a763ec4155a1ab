// A worker runs whole blocks one after another on one host thread: warps of a block round-robin,
// `time_slice` warp instructions at a time, with barriers. Several workers take blocks from one
// counter; each measures into its own StatsCollector and the launch merges them.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch.hpp"
#include "sim/block.hpp"
#include "sim/config.hpp"
#include "sim/decode.hpp"
#include "sim/global_memory.hpp"
#include "sim/stats_collector.hpp"

namespace warpsim::sim {

// What the workers of one launch share.
struct LaunchState {
  const LaunchSpec& spec;
  const Program& program;
  const Config& config;
  GlobalMemory& memory;
  std::uint64_t blocks = 0;
  std::uint64_t warps_per_block = 0;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<std::uint64_t> budget{0};  // warp instructions left before the run stops
  std::atomic<bool> stop{false};         // a worker faulted
};

class Worker final : private FaultSink {
 public:
  explicit Worker(LaunchState& launch);
  // Runs blocks until none is left or another worker faulted; throws KernelFault.
  void run();
  std::uint64_t current_block() const { return block_.linear; }
  StatsCollector& stats() { return stats_; }

 private:
  enum class Stop { Slice, Barrier, Exited };

  void run_block(std::uint64_t linear);
  Stop run_warp(Warp& warp, std::uint64_t limit);
  void record_branch(Warp& warp, const Inst& inst, std::uint64_t taken, std::uint64_t not_taken,
                     std::uint64_t active_count);
  void fill_clock(Warp& warp, std::uint64_t now) const;
  bool take_budget();
  void return_budget();

  std::string where(const Inst& inst, std::uint32_t warp, unsigned lane) const;
  void throw_fault(const Inst& inst, unsigned lane, const std::string& what) const override;
  [[noreturn, gnu::cold]] void divergent_barrier(const Inst& inst, const Warp& warp, std::uint64_t arrived) const;
  [[noreturn, gnu::cold]] void lost_path(const Warp& warp) const;
  [[noreturn, gnu::cold]] void not_finished() const;

  LaunchState& launch_;
  const Program& program_;
  bool tracing_;
  std::uint64_t all_lanes_;
  Block block_;
  StatsCollector stats_;
  LaneContext context_;
  std::vector<int> allocation_cache_;  // LaneContext::allocation_cache
  const Warp* running_ = nullptr;
  std::uint64_t budget_ = 0;
};

// The text of source line `line` (1-based), trimmed; "" when unknown.
std::string source_line(std::string_view text, std::uint32_t line);

}  // namespace warpsim::sim
