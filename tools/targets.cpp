#include "tools/targets.hpp"

#include <fmt/format.h>

#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "isa/literal.hpp"
#include "kernels/scenario_file.hpp"
#include "tools/backend.hpp"
#include "tools/file_run.hpp"

namespace warpsim::cli {

namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The options each kind of target takes; any other of them is a usage error.
constexpr const char* kLaunchOptions[] = {"kernel", "grid", "block", "arg", "buffer", "dump", "set"};

void refuse_options(const po::variables_map& vm, const kernels::Params& sets, std::initializer_list<std::string_view> allowed,
                    const std::string& target, const std::string& why) {
  for (const char* name : kLaunchOptions) {
    bool ok = false;
    for (auto a : allowed) ok = ok || a == name;
    const bool given = std::string_view(name) == "set" ? !sets.empty() : vm.count(name) > 0;
    if (given && !ok) throw Error(fmt::format("--{} does not apply to {}: {}", name, target, why), ExitCode::Usage);
  }
}

// Runs `body` into ran.outcome; a fault leaves the launches before it and outcome.fault instead.
template <typename Body>
void guarded(Ran& ran, Body body) {
  try {
    ran.outcome = body();
  } catch (const kernels::FaultedRun& fault) {
    ran.outcome = std::move(*fault.outcome);
  }
}

Ran run_scenario(Device& device, const kernels::Scenario& scenario, const kernels::Params& sets,
                 const kernels::RunOptions& options) {
  Ran ran;
  const auto params = kernels::resolve_params(scenario, sets);
  for (const auto& [k, v] : params) ran.report.params.emplace_back(k, std::to_string(v));
  guarded(ran, [&] { return scenario.run(device, params, options); });
  return ran;
}

Ran run_kernel_file(Device& device, const std::string& target, const po::variables_map& vm, const kernels::Params& sets,
                    const kernels::RunOptions& options) {
  refuse_options(vm, sets, {"kernel", "grid", "block", "arg", "buffer", "dump"}, target,
                 "a kernel file takes --arg and --buffer (--set is for scenarios)");
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
  if (vm.count("dump"))
    for (const auto& d : vm["dump"].as<std::vector<std::string>>()) run.dumps.push_back(split_assignment(d, "--dump"));
  if (vm.count("nvcc-opt")) run.nvcc_options = vm["nvcc-opt"].as<std::vector<std::string>>();
  Ran ran;
  ran.report.params = {{"grid", to_string(run.grid)}, {"block", to_string(run.block)}};
  for (const auto& a : run.args) ran.report.params.push_back(a);
  for (const auto& b : run.buffers) ran.report.buffers.push_back(b.text());
  guarded(ran, [&] { return run_file(device, run, options); });
  return ran;
}

Ran run_scenario_file(Device& device, const std::string& target, const po::variables_map& vm, const kernels::Params& sets,
                      const kernels::RunOptions& options) {
  refuse_options(vm, sets, {"set"}, target, "a scenario file sets its own launches; change them with --set");
  const auto scenario = kernels::load_scenario_file(target);
  return run_scenario(device, *scenario, sets, options);
}

// Files by extension: the one place a new kind of target is added.
struct FileKind {
  std::string_view extension;
  Ran (*run)(Device&, const std::string&, const po::variables_map&, const kernels::Params&, const kernels::RunOptions&);
};
constexpr FileKind kFileKinds[] = {
    {".kir", run_kernel_file},
    {".cu", run_kernel_file},   // imported through NVRTC and the PTX front end
    {".ptx", run_kernel_file},
    {".json", run_scenario_file},
};

// The blocks a --warps range must meet in at least one launch.
void check_warp_range(const kernels::RunOptions& options, const kernels::Outcome& outcome) {
  const auto& w = options.warps;
  if (w.mode != WarpSelection::Mode::BlockRange || outcome.launches.empty()) return;
  std::string grids;
  for (std::size_t i = 0; i < outcome.launches.size(); ++i) {
    const auto& s = outcome.launches[i].result.stats;
    if (w.first_block < s.blocks) return;
    grids += fmt::format("{}launch {}: grid {} = blocks 0-{}", grids.empty() ? "" : "; ", i + 1, to_string(s.grid),
                         s.blocks - 1);
  }
  throw Error(fmt::format("--warps {}-{}: no launch has those blocks ({})", w.first_block, w.last_block, grids),
              ExitCode::Usage);
}

}  // namespace

bool is_kernel_file(const std::string& target) { return ends_with(target, ".kir") || frontend::is_imported_file(target); }
bool is_scenario_file(const std::string& target) { return ends_with(target, ".json"); }

kernels::Params parse_sets(const std::vector<std::string>& sets) {
  kernels::Params params;
  for (const auto& s : sets) {
    auto [name, value] = split_assignment(s, "--set");
    // The IR's rules for a u64 literal (isa/literal.hpp), like --arg.
    std::string why;
    const auto v = isa::parse_literal(value, isa::Type::U64, why);
    if (!v) throw Error(fmt::format("--set {}: {}", name, why), ExitCode::Usage);
    params[name] = *v;
  }
  return params;
}

const kernels::Scenario* find_target_scenario(const std::string& target, std::unique_ptr<kernels::Scenario>& holder,
                                              const std::string& command) {
  if (is_scenario_file(target)) {
    holder = kernels::load_scenario_file(target);
    return holder.get();
  }
  if (const auto* s = kernels::find_scenario(target)) return s;
  throw Error(fmt::format("{}: '{}' is neither a built-in scenario (see warpsim list) nor a scenario file (.json)",
                          command, target),
              ExitCode::Usage);
}

Ran run_target(Device& device, const std::string& target, const po::variables_map& vm, const kernels::Params& sets,
               const kernels::RunOptions& options) {
  Ran ran;
  const FileKind* kind = nullptr;
  for (const auto& k : kFileKinds)
    if (ends_with(target, k.extension)) kind = &k;
  if (kind != nullptr) {
    ran = kind->run(device, target, vm, sets, options);
  } else {
    const auto* scenario = kernels::find_scenario(target);
    if (scenario == nullptr)
      throw Error(fmt::format("'{}' is neither a built-in scenario (see warpsim list) nor a file warpsim runs (.kir, .cu, .ptx, .json)",
                              target),
                  ExitCode::Usage);
    refuse_options(vm, sets, {"set"}, target, "a built-in scenario sets its own launch; change it with --set (see warpsim list)");
    ran = run_scenario(device, *scenario, sets, options);
  }
  if (!ran.outcome.fault) check_warp_range(options, ran.outcome);
  ran.report.title = target;
  ran.report.backend = backend_name(vm);
  ran.report.device = device.name();
  return ran;
}

void add_launch_options(po::options_description& options) {
  options.add_options()("kernel,k", po::value<std::string>(), "kernel to run when a file holds several")(
      "grid", po::value<std::string>(), "grid size X[,Y[,Z]] or XxYxZ, decimal (kernel files)")(
      "block", po::value<std::string>(), "block size X[,Y[,Z]] or XxYxZ, decimal (kernel files)")(
      "arg", po::value<std::vector<std::string>>(), "scalar argument NAME=VALUE, as the IR writes it (kernel files)")(
      "buffer", po::value<std::vector<std::string>>(),
      "buffer NAME=TYPE[COUNT]:INIT, INIT = zeros | const:V | iota[:START[:STEP]] | random[:BOUND] | file:PATH "
      "(docs/inputs.md)")(
      "dump", po::value<std::vector<std::string>>(), "write buffer NAME to PATH after the run (NAME=PATH)")(
      "set", po::value<std::vector<std::string>>(), "scenario parameter NAME=VALUE")(
      "nvcc-opt", po::value<std::vector<std::string>>(), "an NVRTC option for a .cu file, e.g. -DTILE=16 (repeatable)");
}

}  // namespace warpsim::cli
