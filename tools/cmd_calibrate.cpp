// warpsim calibrate: run the microbenchmark suite on a GPU (or replay saved figures), fit the
// preset's parameters to it, write the preset, and print measured against predicted.
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cuda/gpu.hpp"
#include "device/errors.hpp"
#include "sim/gpu.hpp"
#include "tools/backend.hpp"
#include "tools/calibrate/fit.hpp"
#include "tools/calibrate/timing_report.hpp"

namespace warpsim::cli {

namespace {

std::vector<const calib::BenchInfo*> selected(const po::variables_map& vm) {
  std::vector<const calib::BenchInfo*> out;
  if (!vm.count("benches")) {
    for (const auto& b : calib::suite()) out.push_back(&b);
    return out;
  }
  std::stringstream list(vm["benches"].as<std::string>());
  std::string name;
  while (std::getline(list, name, ',')) {
    const auto* b = calib::find_bench(name);
    if (b == nullptr) throw Error(fmt::format("--benches: unknown microbenchmark '{}'", name), ExitCode::Usage);
    out.push_back(b);
  }
  return out;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) throw Error(fmt::format("cannot write '{}'", path), ExitCode::InvalidInput);
}

}  // namespace

int cmd_calibrate(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim calibrate --backend cuda --out FILE [options] : fit a GPU preset to microbenchmarks run on the GPU\n"
      "(--replay FILE redoes the fit from saved raw figures; --backend sim measures the simulator itself)");
  options.add_options()("help,h", "show this help")("backend", po::value<std::string>()->default_value("cuda"),
                                                    "cuda (the GPU) or sim (the simulator, a self-check)")(
      "gpu", po::value<std::string>()->default_value("h100"), "the preset to start from (a name or a file)")(
      "gpu-name", po::value<std::string>(), "the name written into the preset's [gpu] name")(
      "out", po::value<std::string>(), "write the fitted preset here")("save", po::value<std::string>(),
                                                                       "write the raw figures (JSON) here")(
      "replay", po::value<std::string>(), "fit to raw figures saved with --save instead of measuring")(
      "benches", po::value<std::string>(), "comma-separated microbenchmarks (default: the whole suite)")(
      "passes", po::value<int>()->default_value(3), "fit passes (each simulates the fitted microbenchmarks)")(
      "threads", po::value<std::string>()->default_value("1"), "host threads of the simulator")(
      "list", po::bool_switch(), "list the microbenchmarks and the parameter each fits");
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, {});
  const auto benches = selected(vm);
  if (vm["list"].as<bool>()) {
    for (const auto* b : benches)
      io.out += fmt::format("{:<24} {:<36} {}\n", b->name, b->fit == calib::Fit::None ? "-" : b->param, b->what);
    return 0;
  }
  if (vm.count("replay") && vm.count("save"))
    throw Error("calibrate: --save and --replay exclude each other", ExitCode::Usage);
  const auto start = sim::load_preset(vm["gpu"].as<std::string>());
  const auto threads = small_option(vm, "threads");

  calib::RawFigures measured;
  if (vm.count("replay")) {
    const auto path = vm["replay"].as<std::string>();
    std::ifstream file(path);
    if (!file) throw Error(fmt::format("--replay: cannot read '{}'", path), ExitCode::Usage);
    nlohmann::json j;
    try {
      file >> j;
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("--replay {}: not JSON ({})", path, e.what()), ExitCode::InvalidInput);
    }
    measured = calib::raw_from_json(j, path);
  } else {
    const auto backend = vm["backend"].as<std::string>();
    calib::Target target;
    target.clock_mhz = start.clock_mhz;
    if (backend == "cuda") {
      if (auto why = cuda::Gpu::unavailable_reason())
        throw Error(fmt::format("calibrate --backend cuda: {}", *why), ExitCode::NoDevice);
      target.hardware = true;
      target.make_device = [] {
        cuda::GpuOptions o;
        o.instrumented = false;  // the clocks the kernels write must come from the plain build
        return std::make_unique<cuda::Gpu>(o);
      };
      measured = calib::measure(benches, target, cuda::Gpu(cuda::GpuOptions{}).name());
    } else if (backend == "sim") {
      target.make_device = [start, threads] {
        sim::Config c;
        c.gpu = start;
        c.gpu.watchdog_cycles = 1ull << 36;  // the L2 chase computes for millions of cycles without a store
        c.threads = threads;
        c.l2_start = sim::L2Start::Flushed;  // as the GPU's timed launches (cuda/gpu.cpp flushes the L2 first)
        return std::make_unique<sim::Gpu>(c);
      };
      measured = calib::measure(benches, target, "simulator (" + start.name + " preset)");
    } else {
      throw Error(fmt::format("--backend: unknown backend '{}' (cuda or sim)", backend), ExitCode::Usage);
    }
    if (vm.count("save")) write_file(vm["save"].as<std::string>(), calib::to_json(measured).dump(2) + "\n");
  }

  std::string log;
  const auto fitted = calib::fit(measured, benches, start, threads, vm["passes"].as<int>(), log);
  io.err += log;
  if (vm.count("out")) {
    std::string base = sim::builtin_preset_text(vm["gpu"].as<std::string>());
    if (base.empty()) {
      std::ifstream file(vm["gpu"].as<std::string>());
      std::stringstream text;
      text << file.rdbuf();
      base = text.str();
    }
    write_file(vm["out"].as<std::string>(),
               calib::preset_text(base, fitted, measured, benches,
                                  vm.count("gpu-name") ? vm["gpu-name"].as<std::string>() : std::string()));
  }
  io.out += fmt::format("measured on {}; predicted by the simulator with the fitted preset\n", measured.device);
  io.out += calib::comparison(fitted, measured, benches);
  return 0;
}

}  // namespace warpsim::cli

namespace warpsim::cli {

int cmd_timing_report(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim timing-report DATA.json [options] : predicted against measured time over a saved timing validation set\n"
      "(tests/data/timing/h100-validation.json); exit 6 when the error is over --max-mape");
  options.add_options()("help,h", "show this help")("data", po::value<std::string>(), "the saved GPU measurements")(
      "markdown", po::value<std::string>(), "write the table and figures (Markdown) here")(
      "svg", po::value<std::string>(), "write the log-log scatter plot here")(
      "ci", po::bool_switch(), "only the runs marked \"ci\" (fast to simulate)")(
      "max-mape", po::value<double>(), "fail (exit 6) when the mean absolute percentage error is above this")(
      "gpu", po::value<std::string>(), "simulator preset (default: the run's default)")(
      "threads", po::value<std::string>()->default_value("1"), "host threads of the simulator");
  po::positional_options_description positional;
  positional.add("data", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("data")) throw Error("timing-report: no data file given", ExitCode::Usage);
  std::ifstream file(vm["data"].as<std::string>());
  if (!file) throw Error(fmt::format("timing-report: cannot read '{}'", vm["data"].as<std::string>()), ExitCode::Usage);
  nlohmann::json data;
  try {
    file >> data;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("timing-report: not JSON ({})", e.what()), ExitCode::InvalidInput);
  }
  std::vector<std::string> sim_args{"--threads", vm["threads"].as<std::string>()};
  if (vm.count("gpu")) sim_args.insert(sim_args.end(), {"--gpu", vm["gpu"].as<std::string>()});
  calib::ValidationSummary summary;
  try {
    summary = calib::validate_timing(data, sim_args, vm["ci"].as<bool>());
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("timing-report: malformed data ({})", e.what()), ExitCode::InvalidInput);
  }
  const auto text = calib::markdown(summary);
  io.out += text;
  if (vm.count("markdown")) write_file(vm["markdown"].as<std::string>(), text);
  if (vm.count("svg")) write_file(vm["svg"].as<std::string>(), calib::scatter_svg(summary));
  if (vm.count("max-mape") && summary.mape > vm["max-mape"].as<double>()) {
    io.err += fmt::format("timing-report: mean absolute error {:.1f}% is over the recorded {:.1f}%\n", summary.mape,
                          vm["max-mape"].as<double>());
    return static_cast<int>(ExitCode::Mismatch);
  }
  return 0;
}

}  // namespace warpsim::cli
