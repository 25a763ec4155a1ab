// warpsim validate: the simulator's prediction against what the hardware did, launch by launch:
// outputs, warps launched, the active mask of every warp at every basic block, idle lanes, time.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "device/trace_compare.hpp"
#include "kernels/scenario.hpp"

namespace warpsim::validation {

struct OutputComparison {
  std::string label;
  std::uint64_t elements = 0;
  std::uint64_t different = 0;        // elements outside the tolerance
  std::uint64_t first_different = 0;  // element index, when different > 0
  double max_relative = 0;            // f32 only
  bool is_float = false;
  bool compared = true;               // false for device-specific outputs (clock values)
};

struct LaunchValidation {
  std::string kernel;
  Dim3 grid, block;
  LaunchStats predicted;              // the simulator's own figures
  LaunchStats predicted_from_trace;   // the same derivation as the hardware's, from the sim trace
  LaunchStats measured;               // derived from the hardware trace
  TraceComparison masks;
  const isa::Kernel* ir = nullptr;
  const isa::KernelAnalysis* analysis = nullptr;
};

struct Validation {
  std::string title;
  std::vector<std::pair<std::string, std::string>> params;
  std::string predicted_device, measured_device;
  std::vector<OutputComparison> outputs;
  std::vector<LaunchValidation> launches;
  std::vector<std::string> problems;  // launch-count or shape differences
  // A run that faulted: its launches before the fault are compared, its outputs are not (they hold
  // whatever the fault left), and the validation cannot match.
  std::optional<kernels::FaultInfo> predicted_fault, measured_fault;
  nlohmann::json ncu;                 // hardware counters when --ncu ran (null otherwise)
  bool outputs_equal() const;
  bool matches() const;               // outputs equal, same warps, every mask equal, no fault
  bool faulted() const { return predicted_fault || measured_fault; }
};

// Relative tolerance for f32 outputs: the two devices may add in different orders (atomics).
constexpr double kFloatTolerance = 1e-5;

// Both outcomes must come from runs with record_trace; throws Error when a trace is missing. Either
// may have faulted (Outcome::fault): the launches both completed are compared, the outputs are not.
Validation validate(const kernels::Outcome& predicted, const kernels::Outcome& measured);

std::string format_text(const Validation& v, std::size_t max_mismatches = 20);
nlohmann::json to_json(const Validation& v);

// A hardware run saved to replay later (tests, machines without a GPU): the traces, kernel times,
// outputs, device name and the fault if the run faulted. The kernels themselves come from the
// predicted run at load time.
nlohmann::json save_measured(const kernels::Outcome& measured, const std::string& device);
// Rebuilds a measured Outcome against the kernels of `predicted` (same scenario and parameters).
kernels::Outcome load_measured(const nlohmann::json& saved, const kernels::Outcome& predicted, std::string& device);

}  // namespace warpsim::validation
