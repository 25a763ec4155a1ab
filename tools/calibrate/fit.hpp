// From raw microbenchmark figures to a GPU preset: each fitted parameter is moved until the
// simulator reproduces its microbenchmark's raw figure, then the whole suite is simulated once
// more with the result for the measured-against-predicted table.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/timing/preset.hpp"
#include "tools/calibrate/suite.hpp"

namespace warpsim::calib {

struct RawFigures {
  std::string device;                     // the GPU's name as the driver gives it (or "simulator")
  double clock_mhz = 1980;                // the clock that converts kernel_ms to cycles
  std::map<std::string, double> figures;  // microbenchmark name -> raw figure
};
nlohmann::json to_json(const RawFigures& raw);
RawFigures raw_from_json(const nlohmann::json& j, const std::string& origin);

// Runs the microbenchmarks on the target; "launch" first, whose figure the others subtract.
RawFigures measure(const std::vector<const BenchInfo*>& benches, Target target, const std::string& device);

struct FitResult {
  sim::GpuPreset preset;
  std::map<std::string, std::string> values;  // fitted key -> value text
  std::map<std::string, double> predicted;    // microbenchmark -> the simulator's raw figure
};
// `threads`: host threads of the simulator. `log` gets one line per pass.
FitResult fit(const RawFigures& measured, const std::vector<const BenchInfo*>& benches, sim::GpuPreset start,
              std::uint32_t threads, int passes, std::string& log);

// The preset file: `base_text` (a preset in the built-in format) with every fitted value replaced
// and commented with its microbenchmark and raw figure, compared-only figures listed at the end.
std::string preset_text(const std::string& base_text, const FitResult& fit, const RawFigures& measured,
                        const std::vector<const BenchInfo*>& benches, const std::string& gpu_name);
// Measured against predicted, one row per microbenchmark.
std::string comparison(const FitResult& fit, const RawFigures& measured, const std::vector<const BenchInfo*>& benches);

}  // namespace warpsim::calib
