// A progress line on standard error for runs, sweeps and validations that take more than a second:
// only when standard error is a terminal (never in pipes, files or tests), rewritten in place and
// cleared at the end, so that it never mixes with a report.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "kernels/scenario.hpp"

namespace warpsim::cli {

// "vecadd: launch 2, blocks 300 of 1024 (29%), 1520 blocks/s"; `unit` is "blocks" or "points".
std::string format_progress(const std::string& what, std::uint64_t launch, std::uint64_t done, std::uint64_t total,
                            const std::string& unit, double seconds);

class Progress {
 public:
  // `terminal`: whether to show anything (by default, whether standard error is a terminal).
  explicit Progress(std::string what, std::string unit = "blocks", bool terminal = stderr_is_terminal());
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // What the run counts into (blocks); null when nothing is shown, so nothing is counted either.
  kernels::ProgressCounters* counters() { return active_ ? &counters_ : nullptr; }
  // For counts other than blocks (sweep points): the caller sets the total and adds what is done.
  void set_total(std::uint64_t total) { counters_.blocks_total = total; }
  void add_done() { counters_.blocks_done.fetch_add(1, std::memory_order_relaxed); }
  // Stops the line and clears it from the terminal (also done by the destructor).
  void stop();

  static bool stderr_is_terminal();

 private:
  void loop();
  std::string what_, unit_;
  bool active_;
  kernels::ProgressCounters counters_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false, shown_ = false;
  std::thread thread_;
};

}  // namespace warpsim::cli
