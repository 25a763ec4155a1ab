#include "tools/targets.hpp"

#include <fmt/format.h>

#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "tools/backend.hpp"
#include "tools/file_run.hpp"

namespace warpsim::cli {

bool is_kernel_file(const std::string& target) {
  return (target.size() > 4 && target.compare(target.size() - 4, 4, ".kir") == 0) || frontend::is_imported_file(target);
}

kernels::Params parse_sets(const std::vector<std::string>& sets) {
  kernels::Params params;
  for (const auto& s : sets) {
    auto [name, value] = split_assignment(s, "--set");
    params[name] = parse_u64(value, "--set " + name);
  }
  return params;
}

// Runs one target (scenario name, or kernel file with launch options) on the device.
Ran run_target(Device& device, const std::string& target, const po::variables_map& vm, const kernels::Params& sets,
               const kernels::RunOptions& options) {
  Ran ran;
  if (is_kernel_file(target)) {
    if (!sets.empty()) throw Error("--set applies to scenarios; a kernel file takes --arg and --buffer", ExitCode::Usage);
    FileRun run;
    run.path = target;
    if (vm.count("kernel")) run.kernel = vm["kernel"].as<std::string>();
    if (!vm.count("grid") || !vm.count("block"))
      throw Error(fmt::format("{}: a kernel file needs --grid and --block", target), ExitCode::Usage);
    run.grid = parse_dim3(vm["grid"].as<std::string>(), "--grid");
    run.block = parse_dim3(vm["block"].as<std::string>(), "--block");
    if (vm.count("arg"))
      for (const auto& a : vm["arg"].as<std::vector<std::string>>()) run.args.push_back(split_assignment(a, "--arg"));
    if (vm.count("buffer"))
      for (const auto& b : vm["buffer"].as<std::vector<std::string>>()) run.buffers.push_back(parse_buffer_spec(b));
    if (vm.count("nvcc-opt")) run.nvcc_options = vm["nvcc-opt"].as<std::vector<std::string>>();
    if (vm.count("dump"))
      for (const auto& d : vm["dump"].as<std::vector<std::string>>()) run.dumps.push_back(split_assignment(d, "--dump"));
    ran.outcome = run_file(device, run, options);
    ran.report.params = {{"grid", to_string(run.grid)}, {"block", to_string(run.block)}};
    for (const auto& a : run.args) ran.report.params.push_back(a);
  } else {
    const auto* scenario = kernels::find_scenario(target);
    if (scenario == nullptr)
      throw Error(fmt::format("'{}' is neither a built-in scenario (see warpsim list) nor a .kir, .cu or .ptx file", target),
                  ExitCode::Usage);
    if (vm.count("grid") || vm.count("block") || vm.count("arg") || vm.count("buffer"))
      throw Error(fmt::format("scenario '{}' sets its own launch; change it with --set (see warpsim list)", target),
                  ExitCode::Usage);
    const auto params = kernels::resolve_params(*scenario, sets);
    ran.outcome = scenario->run(device, params, options);
    for (const auto& [k, v] : params) ran.report.params.emplace_back(k, std::to_string(v));
  }
  ran.report.title = target;
  ran.report.backend = backend_name(vm);
  ran.report.device = device.name();
  return ran;
}

void add_launch_options(po::options_description& options) {
  options.add_options()("kernel,k", po::value<std::string>(), "kernel to run when a file holds several")(
      "grid", po::value<std::string>(), "grid size X[,Y[,Z]] or XxYxZ, decimal (kernel files)")(
      "block", po::value<std::string>(), "block size X[,Y[,Z]] or XxYxZ, decimal (kernel files)")(
      "arg", po::value<std::vector<std::string>>(), "scalar argument NAME=VALUE (kernel files)")(
      "buffer", po::value<std::vector<std::string>>(),
      "buffer NAME=TYPE[COUNT]:INIT, INIT = zeros | const:V | iota[:START] | random[:BOUND] | file:PATH")(
      "dump", po::value<std::vector<std::string>>(), "write buffer NAME to PATH after the run (NAME=PATH)")(
      "set", po::value<std::vector<std::string>>(), "scenario parameter NAME=VALUE")(
      "nvcc-opt", po::value<std::vector<std::string>>(), "an NVRTC option for a .cu file, e.g. -DTILE=16 (repeatable)");
}

}  // namespace warpsim::cli
