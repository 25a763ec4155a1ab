// warpsim validate: run a target on the simulator and on the GPU (or replay a saved GPU run) and
// compare outputs, warps and every warp's active mask at every basic block.
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "cuda/gpu.hpp"
#include "device/errors.hpp"
#include "isa/source_file.hpp"
#include "tools/backend.hpp"
#include "tools/ncu.hpp"
#include "tools/progress.hpp"
#include "tools/targets.hpp"
#include "tools/validation.hpp"

namespace warpsim::cli {

int cmd_validate(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim validate SCENARIO|FILE.kir [options] : the simulator's prediction against the GPU\n"
      "(the GPU runs instrumented for the masks, plain for the time)");
  options.add_options()("help,h", "show this help")("target", po::value<std::string>(), "scenario name or .kir file")(
      "format,f", po::value<std::string>()->default_value("text"), "text or json")(
      "save", po::value<std::string>(), "write the GPU run (traces, outputs, time) to this JSON file")(
      "replay", po::value<std::string>(), "compare against a GPU run saved with --save instead of running one")(
      "ncu", po::bool_switch(), "also collect hardware counters with Nsight Compute (ncu on PATH)")(
      "max-mismatches", po::value<std::size_t>()->default_value(20), "mismatched masks listed per launch");
  add_launch_options(options);
  add_run_options(options);
  po::positional_options_description positional;
  positional.add("target", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("target")) throw Error("validate: no scenario or file given", ExitCode::Usage);
  const auto format = format_option(vm, {"text", "json"});
  check_run_options(vm);
  if (small_option(vm, "warp-size") != 32)
    throw Error("validate: the GPU's warp size is 32; --warp-size does not apply", ExitCode::Usage);
  if (vm.count("replay") && vm.count("save")) throw Error("validate: --save and --replay exclude each other", ExitCode::Usage);
  const auto target = vm["target"].as<std::string>();
  const auto sets = parse_sets(vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{});
  auto options_run = run_options(vm);
  options_run.record_trace = true;
  options_run.read_all_buffers = true;
  Progress progress(target);
  options_run.progress = progress.counters();

  // The hardware first: without a GPU there is nothing to validate against.
  std::unique_ptr<Device> gpu;
  if (!vm["gpu-trace"].defaulted())
    throw Error("validate: --gpu-trace is not a validate option (validate compares the masks the trace records)",
                ExitCode::Usage);
  const bool native_build = gpu_build_value(vm);
  if (!vm.count("replay")) {
    if (auto why = cuda::Gpu::unavailable_reason()) throw Error(fmt::format("validate: {}", *why), ExitCode::NoDevice);
    cuda::GpuOptions gpu_options;
    gpu_options.native_build = native_build;
    gpu = std::make_unique<cuda::Gpu>(gpu_options);
  }
  auto sim = make_sim_device(vm);
  Ran measured, predicted;
  std::string measured_device;
  if (gpu) {
    // The hardware run is saved before the simulator runs, so a kernel the simulator refuses
    // still leaves its recording; a run that faulted is saved with its fault.
    measured = run_target(*gpu, target, vm, sets, options_run);
    measured_device = gpu->name();
    if (vm.count("save")) {
      std::ofstream file(vm["save"].as<std::string>());
      if (!file) throw Error(fmt::format("--save: cannot write '{}'", vm["save"].as<std::string>()));
      auto saved = validation::save_measured(measured.outcome, measured_device);
      saved["target"] = target;
      saved["params"] = nlohmann::json::object();
      for (const auto& [k, v] : measured.report.params) saved["params"][k] = v;
      file << saved.dump() << "\n";
    }
    predicted = run_target(*sim, target, vm, sets, options_run);
  } else {
    predicted = run_target(*sim, target, vm, sets, options_run);
    const auto path = vm["replay"].as<std::string>();
    std::string why;
    const auto text = isa::read_source_file(path, why);
    if (!text) throw Error(fmt::format("--replay: '{}' {}", path, why));
    const auto saved = nlohmann::json::parse(*text, nullptr, false);
    if (saved.is_discarded() || !saved.is_object()) throw Error(fmt::format("--replay: '{}' is not a JSON object", path));
    nlohmann::json now = nlohmann::json::object();
    for (const auto& [k, v] : predicted.report.params) now[k] = v;
    if (!saved.contains("target") || !saved["target"].is_string() || saved["target"] != target)
      throw Error(fmt::format("--replay: '{}' was not recorded for '{}'", path, target));
    if (saved.contains("params") && saved["params"] != now)
      throw Error(fmt::format("--replay: '{}' was recorded with parameters {}, this run has {}", path,
                              saved["params"].dump(), now.dump()));
    measured.outcome = validation::load_measured(saved, predicted.outcome, measured_device);
    measured_device += " (replayed from " + path + ")";
  }
  progress.stop();
  auto v = validation::validate(predicted.outcome, measured.outcome);
  v.title = target;
  v.params = predicted.report.params;
  v.predicted_device = sim->name();
  v.measured_device = measured_device;
  if (vm["ncu"].as<bool>()) v.ncu = collect_ncu(target, args, predicted.outcome);
  io.out += format == "json" ? validation::to_json(v).dump(2) + "\n"
                             : validation::format_text(v, vm["max-mismatches"].as<std::size_t>());
  // A fault is reported after the comparison of what ran before it, with the fault's exit code.
  if (v.predicted_fault) io.err += fmt::format("warpsim: error: the simulator: {}\n", v.predicted_fault->message);
  if (v.measured_fault) io.err += fmt::format("warpsim: error: the hardware: {}\n", v.measured_fault->message);
  if (v.faulted()) return static_cast<int>(ExitCode::InvalidInput);
  return v.matches() ? 0 : static_cast<int>(ExitCode::Mismatch);
}

}  // namespace warpsim::cli
