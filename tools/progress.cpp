#include "tools/progress.hpp"

#include <cstdio>

#include <unistd.h>

#include <fmt/format.h>

namespace warpsim::cli {

std::string format_progress(const std::string& what, std::uint64_t launch, std::uint64_t done, std::uint64_t total,
                            const std::string& unit, double seconds) {
  if (total == 0) return what + ": preparing";  // before the first launch: inputs on the host
  std::string out = what + ": ";
  if (launch > 0) out += fmt::format("launch {}, ", launch);
  out += fmt::format("{} {} of {} ({}%)", unit, done, total, done * 100 / total);
  // Once every block is done the host is at work (reading back, checking): a rate would only decay.
  if (seconds > 0 && done < total) out += fmt::format(", {:.0f} {}/s", double(done) / seconds, unit);
  return out;
}

bool Progress::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string what, std::string unit, bool terminal)
    : what_(std::move(what)), unit_(std::move(unit)), active_(terminal) {
  if (active_) thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() { stop(); }

void Progress::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (shown_) std::fputs("\r\033[K", stderr);  // erase the line: the report follows clean
  std::fflush(stderr);
}

void Progress::loop() {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  // The rate counts from the start of the current launch.
  std::uint64_t launch = 0;
  auto launch_start = start;
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return done_; })) {
    const auto now = clock::now();
    const auto current = counters_.launch.load(std::memory_order_relaxed);
    if (current != launch) {
      launch = current;
      launch_start = now;
    }
    if (now - start < std::chrono::seconds(1)) continue;  // quick runs show nothing
    const double seconds = std::chrono::duration<double>(now - launch_start).count();
    const auto line = format_progress(what_, launch, counters_.blocks_done.load(std::memory_order_relaxed),
                                      counters_.blocks_total.load(std::memory_order_relaxed), unit_, seconds);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    shown_ = true;
  }
}

}  // namespace warpsim::cli
