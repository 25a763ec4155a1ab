// Printers over one data model: a run of a scenario or kernel file (its launches' LaunchStats and
// the host check) becomes text for a person, JSON with stable keys, or a CSV per-warp table.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/scenario.hpp"

namespace warpsim::report {

// Everything `warpsim rerun` needs to run a report again (JSON "reproduce", docs/report.md).
struct Reproduction {
  std::vector<std::string> argv;  // the command line after `warpsim`, as given ("run", TARGET, options...)
  std::uint64_t seed = 1;
  std::string preset;                 // --gpu
  std::vector<std::string> gpu_sets;  // --gpu-set, as given
  std::string mode, reconvergence;
  std::uint32_t warp_size = 32;
  std::string version;  // warpsim's
};

struct RunReport {
  std::string title;                                     // scenario name or kernel file
  std::vector<std::pair<std::string, std::string>> params;  // shown as given, in order
  std::vector<std::string> buffers;                      // kernel files: the --buffer specifications
  std::optional<Reproduction> reproduce;
  std::string backend;                                   // "sim" or "cuda"
  std::string device;                                    // the device's own description
  const kernels::Outcome* outcome = nullptr;
};

struct TextOptions {
  bool show_warps = true;      // the per-warp table
  bool show_histogram = true;
};

std::string format_text(const RunReport& run, const TextOptions& options = {});
nlohmann::json to_json(const RunReport& run);
nlohmann::json to_json(const LaunchStats& stats);
// A fault as run and compare reports carry it ("fault" in docs/report.md).
nlohmann::json to_json(const kernels::FaultInfo& fault);
// The per-warp table of every launch, one row per kept warp, with a header row.
std::string format_csv(const RunReport& run);

// Summaries side by side, one column per run (several launches of one run are added up).
std::string format_comparison(const std::vector<const RunReport*>& runs);

// Figures derived from LaunchStats that several printers show.
// Rounds with divergence: for the branch with the most such rounds, the number of occurrence
// indices k (its k-th execution in each warp) at which at least one warp split.
std::uint64_t divergent_rounds(const LaunchStats& stats);
std::uint64_t divergent_rounds(const BranchStats& branch);  // rounds in which at least one warp split
std::uint64_t total_passes(const LaunchStats& stats);  // summed over every branch of the launch (report.md)
std::string percent(double fraction);                   // "87.5%"
// "FAULT in launch 2 (kernel K): block (3,0,0) warp 1 lane 5 pc 12 line 20: MESSAGE" (docs/report.md)
std::string fault_line(const kernels::FaultInfo& fault);

}  // namespace warpsim::report
