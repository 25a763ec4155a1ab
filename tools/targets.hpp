// What run, compare and validate share: a target (scenario name or .kir file) run on a device.
#pragma once
#include <string>
#include <vector>

#include "kernels/scenario.hpp"
#include "tools/cli.hpp"
#include "tools/report/report.hpp"

namespace warpsim::cli {

struct Ran {
  kernels::Outcome outcome;
  report::RunReport report;  // report.outcome is left null: set it once the Ran stops moving
};

bool is_kernel_file(const std::string& target);
kernels::Params parse_sets(const std::vector<std::string>& sets);
// Runs a scenario (with `sets`) or a kernel file (with the launch options in vm) on the device.
Ran run_target(Device& device, const std::string& target, const po::variables_map& vm, const kernels::Params& sets,
               const kernels::RunOptions& options);
// --kernel, --grid, --block, --arg, --buffer, --dump, --set
void add_launch_options(po::options_description& options);

}  // namespace warpsim::cli
