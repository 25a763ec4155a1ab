// The timing validation set (docs/validation/timing.md): predicted against measured kernel time for
// saved GPU runs, the error figures, rank reversals and speedup ratios per family, a log-log SVG.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpsim::calib {

struct ValidationRow {
  std::string family, args;
  double measured_us = 0;   // GPU kernel time less launch overhead, summed over the launches
  double spread_us = 0;     // the measured median's spread reported by the run (max - min of runs), 0 if unknown
  double predicted_us = 0;  // simulator, timing mode, the preset given
  double error() const { return measured_us > 0 ? predicted_us / measured_us - 1 : 0; }
};

struct ValidationSummary {
  std::vector<ValidationRow> rows;
  double launch_us = 0;
  std::string l2_start;  // the L2 each measured launch started from: "flushed" or "restored" (data before stop 20)
  double floor_us = 0;  // rows measuring less than this are listed, not counted in the error figures
  double mape = 0, p90 = 0;
  int counted = 0, reversals = 0, pairs = 0;
  std::vector<std::string> family_lines;  // per family: ranks and speedup ratios
};

// Runs the simulator on each saved kernel (`ci_only`: the rows marked "ci") and summarises.
ValidationSummary validate_timing(const nlohmann::json& data, const std::vector<std::string>& sim_args, bool ci_only);
std::string markdown(const ValidationSummary& s);
std::string scatter_svg(const ValidationSummary& s);

}  // namespace warpsim::calib
