#include "tools/backend.hpp"

#include <fmt/format.h>

#include "cuda/gpu.hpp"
#include "device/errors.hpp"
#include "sim/gpu.hpp"
#include "sim/reconvergence.hpp"

namespace warpsim::cli {

void add_run_options(po::options_description& options) {
  options.add_options()("backend", po::value<std::string>()->default_value("sim"), "sim (simulator) or cuda (real GPU)")(
      "warp-size", po::value<std::string>()->default_value("32"), "simulated warp size (1..64)")(
      "threads", po::value<std::string>()->default_value("1"), "host threads that simulate independent blocks")(
      "max-instructions", po::value<std::string>()->default_value(std::to_string(sim::Config{}.max_instructions)),
      "stop a launch after this many warp instructions")(
      "spin-limit", po::value<std::string>()->default_value(std::to_string(sim::Config{}.spin_limit)),
      "functional mode: stop a block as spinning after this many warp instructions without progress (0: off)")(
      "seed", po::value<std::string>()->default_value("1"), "seed of random inputs")(
      "reconvergence", po::value<std::string>()->default_value("volta"),
      "reconvergence model: volta (convergence barriers, the H100's rule), ipdom (the textbook stack) or "
      "frontier (lowest pc first)")(
      "mode", po::value<std::string>()->default_value("timing"),
      "timing (cycle-approximate, the default) or functional (results and divergence only, fastest)")(
      "gpu", po::value<std::string>()->default_value("h100"), "GPU preset: a built-in name (warpsim gpus) or a file")(
      "gpu-set", po::value<std::vector<std::string>>()->composing(),
      "override one preset parameter, KEY=VALUE (repeatable; warpsim gpus --params lists the keys)")(
      "l2-start", po::value<std::string>()->default_value("kept"),
      "timing mode, the L2 when a launch starts: kept (what earlier launches left), flushed (empty, as the CUDA "
      "backend times a launch and as Nsight Compute's --cache-control all) or restored (every buffer copied back "
      "from a snapshot just before)")(
      "registers", po::value<std::string>()->default_value("0"),
      "registers per thread for occupancy (0: the IR's own count)")(
      "warps", po::value<std::string>()->default_value("default"),
      "per-warp rows kept: default (first and least efficient), all, divergent, or a block range B0-B1")(
      "gpu-trace", po::value<std::string>()->default_value("on"),
      "--backend cuda: on (an instrumented run records every warp's path for the divergence figures) or off "
      "(the kernel time only: no trace, for launches whose trace would not fit)")(
      "gpu-build", po::value<std::string>()->default_value("source"),
      "--backend cuda, an imported (.cu, .ptx) kernel: the build its timed launches run, source (its own PTX, "
      "compiled by the driver as its author's program would) or emitted (the CUDA warpsim writes from the IR, "
      "which the instrumented run always uses; a .kir kernel's only build)");
}

bool gpu_build_value(const po::variables_map& vm) {
  const auto value = vm["gpu-build"].as<std::string>();
  if (value != "source" && value != "emitted")
    throw Error(fmt::format("--gpu-build: unknown value '{}' (source or emitted)", value), ExitCode::Usage);
  return value == "source";
}

bool gpu_build_option(const po::variables_map& vm) {
  const bool source = gpu_build_value(vm);
  if (!vm["gpu-build"].defaulted() && backend_name(vm) != "cuda")
    throw Error("--gpu-build: a setting of --backend cuda (the simulator runs the IR)", ExitCode::Usage);
  return source;
}

bool gpu_trace_option(const po::variables_map& vm) {
  const auto value = vm["gpu-trace"].as<std::string>();
  if (value != "on" && value != "off")
    throw Error(fmt::format("--gpu-trace: unknown value '{}' (on or off)", value), ExitCode::Usage);
  if (!vm["gpu-trace"].defaulted() && backend_name(vm) != "cuda")
    throw Error("--gpu-trace: a setting of --backend cuda (the simulator records every warp anyway)", ExitCode::Usage);
  return value == "on";
}

std::uint32_t small_option(const po::variables_map& vm, const char* name) {
  const auto value = parse_u64(vm[name].as<std::string>(), std::string("--") + name);
  if (value > 0xffffffffull) throw Error(fmt::format("--{}: {} is too large", name, value), ExitCode::Usage);
  return static_cast<std::uint32_t>(value);
}

std::string backend_name(const po::variables_map& vm) { return vm["backend"].as<std::string>(); }

sim::Mode mode_option(const po::variables_map& vm) {
  const auto mode = vm["mode"].as<std::string>();
  if (mode == "timing") return sim::Mode::Timing;
  if (mode == "functional") return sim::Mode::Functional;
  throw Error(fmt::format("--mode: unknown mode '{}' (timing or functional)", mode), ExitCode::Usage);
}

sim::ReconvergenceModel reconvergence_option(const std::string& name) {
  if (const auto model = sim::parse_reconvergence(name)) return *model;
  throw Error(fmt::format("--reconvergence: unknown model '{}' (volta, ipdom or frontier)", name), ExitCode::Usage);
}

sim::GpuPreset gpu_option(const po::variables_map& vm) {
  sim::GpuPreset gpu = sim::load_preset(vm["gpu"].as<std::string>());
  if (vm.count("gpu-set"))
    for (const auto& item : vm["gpu-set"].as<std::vector<std::string>>()) {
      const auto [key, value] = split_assignment(item, "--gpu-set");
      sim::apply_override(gpu, key, value);
    }
  sim::validate_preset(gpu);
  return gpu;
}

std::unique_ptr<Device> make_sim_device(const po::variables_map& vm) {
  sim::Config config;
  config.mode = mode_option(vm);
  config.reconvergence = reconvergence_option(vm["reconvergence"].as<std::string>());
  config.gpu = gpu_option(vm);
  const auto l2_start = vm["l2-start"].as<std::string>();
  if (l2_start == "kept")
    config.l2_start = sim::L2Start::Kept;
  else if (l2_start == "restored")
    config.l2_start = sim::L2Start::Restored;
  else if (l2_start == "flushed")
    config.l2_start = sim::L2Start::Flushed;
  else
    throw Error(fmt::format("--l2-start: unknown value '{}' (kept, flushed or restored)", l2_start), ExitCode::Usage);
  const auto registers = parse_u64(vm["registers"].as<std::string>(), "--registers");
  if (registers > 255) throw Error(fmt::format("--registers: {} is over 255", registers), ExitCode::Usage);
  config.registers = static_cast<std::uint32_t>(registers);
  config.warp_size = small_option(vm, "warp-size");
  config.limits.warp_size = config.warp_size;
  config.threads = small_option(vm, "threads");
  config.max_instructions = parse_u64(vm["max-instructions"].as<std::string>(), "--max-instructions");
  if (config.max_instructions == 0) throw Error("--max-instructions: 0 would stop every launch before it starts", ExitCode::Usage);
  config.spin_limit = parse_u64(vm["spin-limit"].as<std::string>(), "--spin-limit");
  sim::validate_config(config);
  return std::make_unique<sim::Gpu>(config);
}

std::unique_ptr<Device> make_device(const po::variables_map& vm) {
  const auto backend = backend_name(vm);
  const bool trace = gpu_trace_option(vm);
  const bool native = gpu_build_option(vm);
  if (backend == "sim") return make_sim_device(vm);
  if (backend == "cuda") {
    if (auto why = cuda::Gpu::unavailable_reason()) throw Error(fmt::format("--backend cuda: {}", *why), ExitCode::NoDevice);
    if (small_option(vm, "warp-size") != 32)
      throw Error("--backend cuda: the warp size of a real GPU is 32; --warp-size is a simulator setting", ExitCode::Usage);
    cuda::GpuOptions options;
    options.instrumented = trace;
    options.native_build = native;
    return std::make_unique<cuda::Gpu>(options);
  }
  throw Error(fmt::format("--backend: unknown backend '{}' (sim or cuda)", backend), ExitCode::Usage);
}

report::Reproduction reproduction(const po::variables_map& vm, std::vector<std::string> argv) {
  report::Reproduction r;
  // --threads changes no figure (reports are identical for any count), so it is not recorded:
  // the report of one input stays the same bytes whatever the threads.
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--threads" && i + 1 < argv.size()) {
      ++i;
      continue;
    }
    if (argv[i].rfind("--threads=", 0) == 0) continue;
    r.argv.push_back(argv[i]);
  }
  r.seed = parse_u64(vm["seed"].as<std::string>(), "--seed");
  r.preset = vm["gpu"].as<std::string>();
  if (vm.count("gpu-set")) r.gpu_sets = vm["gpu-set"].as<std::vector<std::string>>();
  r.mode = vm["mode"].as<std::string>();
  r.reconvergence = vm["reconvergence"].as<std::string>();
  r.warp_size = small_option(vm, "warp-size");
  r.version = WARPSIM_VERSION;
  return r;
}

kernels::RunOptions run_options(const po::variables_map& vm) {
  kernels::RunOptions o;
  o.seed = parse_u64(vm["seed"].as<std::string>(), "--seed");
  o.warps = parse_warp_selection(vm["warps"].as<std::string>());
  return o;
}

}  // namespace warpsim::cli
