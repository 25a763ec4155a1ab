// What run, compare, validate, sweep and bench share: a target (a built-in scenario's name or a
// file) run on a device. A file's kind comes from its extension, through one table in targets.cpp
// (kernel files, scenario files); a new kind of file is one more row there.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernels/scenario.hpp"
#include "tools/cli.hpp"
#include "tools/report/report.hpp"

namespace warpsim::cli {

struct Ran {
  kernels::Outcome outcome;  // outcome.fault is set when a launch faulted (the launches before it are here)
  report::RunReport report;  // report.outcome is left null: set it once the Ran stops moving
};

// A .kir file: it takes its launch from --grid, --block, --arg and --buffer.
bool is_kernel_file(const std::string& target);
// A scenario file (.json): it runs like a built-in scenario, with --set for its parameters.
bool is_scenario_file(const std::string& target);
kernels::Params parse_sets(const std::vector<std::string>& sets);
// A scenario target: a built-in's name or a scenario file (loaded into `holder`); Error (exit 2)
// for anything else, naming `command`.
const kernels::Scenario* find_target_scenario(const std::string& target, std::unique_ptr<kernels::Scenario>& holder,
                                              const std::string& command);
// Runs a scenario (with `sets`) or a kernel file (with the launch options in vm) on the device.
// Options that do not apply to the target are usage errors. A fault does not throw: the Ran holds
// the launches before it and outcome.fault.
Ran run_target(Device& device, const std::string& target, const po::variables_map& vm, const kernels::Params& sets,
               const kernels::RunOptions& options);
// --kernel, --grid, --block, --arg, --buffer, --dump, --set
void add_launch_options(po::options_description& options);

}  // namespace warpsim::cli
