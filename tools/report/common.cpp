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

std::string fault_line(const kernels::FaultInfo& f) {
  const auto head = fmt::format("FAULT in launch {} (kernel {}, grid {}, block {}): ", f.launch, f.kernel,
                                to_string(f.grid), to_string(f.block));
  if (!f.site) return head + f.message;
  const auto& s = *f.site;
  return head + fmt::format("block ({},{},{}) warp {} lane {} pc {} line {}{}: {}", s.block_x, s.block_y, s.block_z,
                            s.warp, s.lane, s.pc, s.line, s.source.empty() ? "" : " `" + s.source + "`",
                            s.cause.empty() ? f.message : s.cause);
}

}  // namespace warpsim::report
