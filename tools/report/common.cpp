#include <algorithm>

#include <fmt/format.h>

#include "tools/report/report.hpp"

namespace warpsim::report {

std::uint64_t divergent_rounds(const BranchStats& b) {
  return static_cast<std::uint64_t>(std::count_if(b.occurrences.begin(), b.occurrences.end(),
                                                  [](const BranchOccurrence& o) { return o.divergent > 0; }));
}

std::uint64_t divergent_rounds(const LaunchStats& stats) {
  std::uint64_t best = 0;
  for (const auto& b : stats.branches) best = std::max(best, divergent_rounds(b));
  return best;
}

std::uint64_t total_passes(const LaunchStats& stats) {
  std::uint64_t passes = 0;
  for (const auto& b : stats.branches) passes += b.passes;
  return passes;
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100.0 * fraction); }

}  // namespace warpsim::report
