// The functional mode: a worker runs whole blocks one after another on one host thread, warps of a
// block round-robin, `time_slice` warp instructions at a time, with barriers. Several workers take
// blocks from one counter; each measures into its own StatsCollector and the launch merges them.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "device/launch.hpp"
#include "sim/block.hpp"
#include "sim/config.hpp"
#include "sim/decode.hpp"
#include "sim/executor.hpp"
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

class Worker final {
 public:
  explicit Worker(LaunchState& launch);
  // Runs blocks until none is left or another worker faulted; throws KernelFault.
  void run();
  std::uint64_t current_block() const { return block_.linear; }
  StatsCollector& stats() { return stats_; }
  const Executor& executor() const { return executor_; }

 private:
  void run_block(std::uint64_t linear);
  bool take_budget();
  void return_budget();
  [[noreturn, gnu::cold]] void not_finished() const;

  LaunchState& launch_;
  const Program& program_;
  Block block_;
  StatsCollector stats_;
  Executor executor_;
  std::uint64_t budget_ = 0;
};

}  // namespace warpsim::sim
