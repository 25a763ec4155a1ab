// The functional mode: a worker runs whole blocks one after another on one host thread, warps of a
// block round-robin, `time_slice` warp instructions at a time, with barriers. Several workers take
// blocks from one counter; each measures into its own StatsCollector and the launch merges them.
#pragma once
#include <atomic>
#include <cstdint>
#include <limits>
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
  // Runs `w` for up to `limit` warp instructions one at a time, noting progress (a write that
  // changed memory) and where the warp goes; stops the launch once the block spins.
  Stop run_watched(Warp& w, std::uint64_t limit);
  void progress();
  bool take_budget();
  void return_budget();
  [[noreturn, gnu::cold]] void not_finished() const;
  [[noreturn, gnu::cold]] void spinning() const;

  LaunchState& launch_;
  const Program& program_;
  Block block_;
  StatsCollector stats_;
  Executor executor_;
  std::uint64_t budget_ = 0;
  // Spin watch (Config::spin_limit): watched instructions since the block last made progress, and
  // per warp the lowest and highest pc it issued from since then (low > high: none).
  std::uint64_t quiet_ = 0;
  std::vector<std::uint32_t> spin_low_, spin_high_;
};

}  // namespace warpsim::sim
