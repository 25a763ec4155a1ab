// warpsim sweep: a scenario over the cartesian product of parameter lists and GPUs, run on host
// threads, or written out as one `warpsim run` job per point and merged back (docs/sweep.md).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "kernels/scenario.hpp"
#include "sim/gpu.hpp"
#include "tools/backend.hpp"
#include "tools/cli.hpp"
#include "tools/report/report.hpp"
#include "tools/report/sweep.hpp"
#include "tools/targets.hpp"

namespace warpsim::cli {

namespace {

namespace fs = std::filesystem;
using report::PointStatus;
using report::SweepRow;
using report::SweepTable;

struct SweepSpec {
  std::string target;  // as given: a built-in's name or a scenario file
  std::shared_ptr<kernels::Scenario> owned;  // a scenario file's scenario
  const kernels::Scenario* scenario = nullptr;
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> lists;  // --set, in the order given
  std::vector<std::string> gpus;                                          // --gpu items ("-" in functional mode)
  std::vector<sim::GpuPreset> presets;                                    // one per gpus item
  std::vector<std::string> gpu_sets;                                      // --gpu-set items, as given
  sim::Mode mode = sim::Mode::Timing;
  std::string mode_name;
  std::uint64_t seed = 1;
  std::uint32_t registers = 0;
};

struct Point {
  std::size_t gpu = 0;  // index into SweepSpec::gpus
  kernels::Params sets;
};

// --set NAME=V1,V2,...: a non-empty list of integers, for a parameter the scenario has.
std::pair<std::string, std::vector<std::uint64_t>> parse_list(const kernels::Scenario& scenario,
                                                              const std::string& item) {
  auto [name, text] = split_assignment(item, "--set");
  std::string known;
  bool found = false;
  for (const auto& p : scenario.params()) {
    known += (known.empty() ? "" : ", ") + p.name;
    found = found || p.name == name;
  }
  if (!found)
    throw Error(fmt::format("--set {}: {} has no parameter '{}' (its parameters: {})", item, scenario.name(), name,
                            known.empty() ? "none" : known),
                ExitCode::Usage);
  if (text.empty()) throw Error(fmt::format("--set {}: the list of values is empty", item), ExitCode::Usage);
  std::vector<std::uint64_t> values;
  for (const auto& v : split_list(text)) {
    if (v.empty()) throw Error(fmt::format("--set {}: an empty value in the list", item), ExitCode::Usage);
    values.push_back(parse_sets({name + "=" + v}).at(name));  // the IR's u64 literals, as for run
  }
  return {name, values};
}

SweepSpec make_spec(const po::variables_map& vm) {
  SweepSpec spec;
  const auto target = vm["target"].as<std::string>();
  spec.target = target;
  if (is_kernel_file(target))
    throw Error(fmt::format("sweep: '{}' is a kernel file; sweeps run scenarios (built-in or .json files)", target),
                ExitCode::Usage);
  std::unique_ptr<kernels::Scenario> holder;
  spec.scenario = find_target_scenario(target, holder, "sweep");
  spec.owned = std::move(holder);
  if (vm.count("set"))
    for (const auto& item : vm["set"].as<std::vector<std::string>>()) {
      auto list = parse_list(*spec.scenario, item);
      for (const auto& [name, values] : spec.lists)
        if (name == list.first) throw Error(fmt::format("--set {}: {} is swept twice", item, name), ExitCode::Usage);
      spec.lists.push_back(std::move(list));
    }
  spec.mode = mode_option(vm);
  spec.mode_name = vm["mode"].as<std::string>();
  if (vm.count("gpu-set")) spec.gpu_sets = vm["gpu-set"].as<std::vector<std::string>>();
  const auto gpus = split_list(vm["gpu"].as<std::string>());
  if (spec.mode == sim::Mode::Functional && (gpus.size() > 1 || !spec.gpu_sets.empty()))
    throw Error("--mode functional has no GPU model: give one --gpu and no --gpu-set", ExitCode::Usage);
  for (const auto& name : gpus) {
    if (name.empty())
      throw Error(fmt::format("--gpu {}: an empty name in the list", vm["gpu"].as<std::string>()), ExitCode::Usage);
    sim::GpuPreset preset = sim::load_preset(name);
    for (const auto& item : spec.gpu_sets) {
      const auto [key, value] = split_assignment(item, "--gpu-set");
      sim::apply_override(preset, key, value);
    }
    sim::validate_preset(preset);
    spec.gpus.push_back(spec.mode == sim::Mode::Functional ? "-" : name);
    spec.presets.push_back(std::move(preset));
  }
  spec.seed = parse_u64(vm["seed"].as<std::string>(), "--seed");
  const auto registers = parse_u64(vm["registers"].as<std::string>(), "--registers");
  if (registers > 255) throw Error(fmt::format("--registers: {} is over 255", registers), ExitCode::Usage);
  spec.registers = static_cast<std::uint32_t>(registers);
  return spec;
}

// Every GPU, then the lists' cartesian product with the first --set outermost.
std::vector<Point> make_points(const SweepSpec& spec) {
  std::vector<Point> out;
  for (std::size_t g = 0; g < spec.gpus.size(); ++g) {
    std::vector<std::size_t> at(spec.lists.size(), 0);
    while (true) {
      Point p{g, {}};
      for (std::size_t i = 0; i < spec.lists.size(); ++i) p.sets[spec.lists[i].first] = spec.lists[i].second[at[i]];
      out.push_back(std::move(p));
      std::size_t i = spec.lists.size();
      while (i > 0 && ++at[i - 1] == spec.lists[i - 1].second.size()) at[--i] = 0;
      if (i == 0) break;
    }
  }
  return out;
}

// A row with the point's parameters (the scenario's defaults under the point's values) and no figures.
SweepRow blank_row(const kernels::Scenario* scenario, std::size_t index, const std::string& gpu,
                   const kernels::Params& sets) {
  SweepRow row;
  row.point = index + 1;
  row.gpu = gpu;
  kernels::Params all;
  if (scenario != nullptr)
    for (const auto& p : scenario->params()) all[p.name] = p.default_value;
  for (const auto& [k, v] : sets) all[k] = v;
  for (const auto& [k, v] : all) row.params.emplace_back(k, std::to_string(v));
  return row;
}

SweepRow run_point(const SweepSpec& spec, const Point& point, std::size_t index) {
  SweepRow row = blank_row(spec.scenario, index, spec.gpus[point.gpu], point.sets);
  try {
    sim::Config config;
    config.mode = spec.mode;
    config.gpu = spec.presets[point.gpu];
    config.registers = spec.registers;
    sim::validate_config(config);
    sim::Gpu gpu(config);
    const auto params = kernels::resolve_params(*spec.scenario, point.sets);
    kernels::RunOptions options;
    options.seed = spec.seed;
    const auto outcome = spec.scenario->run(gpu, params, options);
    report::RunReport run;
    run.title = std::string(spec.scenario->name());
    for (const auto& [k, v] : params) run.params.emplace_back(k, std::to_string(v));
    run.backend = "sim";
    run.device = gpu.name();
    run.outcome = &outcome;
    report::fill_row(row, report::to_json(run));
  } catch (const Error& e) {
    row.status = PointStatus::Invalid;
    row.reason = e.what();
  } catch (const std::bad_alloc&) {
    row.status = PointStatus::Invalid;
    row.reason = "out of memory";
  } catch (const std::exception& e) {
    row.status = PointStatus::Failed;
    row.reason = fmt::format("internal error: {}", e.what());
  }
  return row;
}

// Runs the points on `threads` host threads; row k is point k whatever the threads. On a
// terminal, a progress line on standard error once the sweep has taken a second.
std::vector<SweepRow> run_points(const SweepSpec& spec, const std::vector<Point>& points, std::uint32_t threads) {
  std::vector<SweepRow> rows(points.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mutex;
  std::condition_variable changed;
  const auto start = std::chrono::steady_clock::now();
  const bool terminal = isatty(STDERR_FILENO) == 1;
  bool shown = false;
  {
    std::vector<std::jthread> workers;
    for (std::uint32_t t = 0; t < std::min<std::size_t>(threads, points.size()); ++t)
      workers.emplace_back([&] {
        for (std::size_t i = next++; i < points.size(); i = next++) {
          rows[i] = run_point(spec, points[i], i);
          std::lock_guard lock(mutex);
          ++done;
          changed.notify_all();
        }
      });
    std::unique_lock lock(mutex);
    while (done < points.size()) {
      changed.wait_for(lock, std::chrono::milliseconds(250));
      const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
      if (terminal && elapsed.count() > 1.0) {
        std::fprintf(stderr, "\rsweep: %zu of %zu points done, %.0f s", done, points.size(), elapsed.count());
        std::fflush(stderr);
        shown = true;
      }
    }
  }
  if (shown) std::fputs("\r\033[K", stderr);
  return rows;
}

std::string shell_quote(const std::string& text) {
  if (!text.empty() &&
      text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,/:@") ==
          std::string::npos)
    return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// This program, when it is warpsim (the tests run the command line inside another binary).
std::string own_path() {
  std::error_code ec;
  const auto self = fs::read_symlink("/proc/self/exe", ec);
  return !ec && self.filename() == "warpsim" ? self.string() : "warpsim";
}

std::string point_file(std::size_t index, const char* ext) {
  return fmt::format("point-{}.{}", index + 1, ext);
}

// One `warpsim run` per point into FILE, and DIR/sweep.json, which --merge reads.
std::string emit_jobs(const SweepSpec& spec, const std::vector<Point>& points, const std::string& file,
                      const std::string& dir, const std::string& warpsim) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const auto out_dir = fs::absolute(dir, ec);
  if (!fs::is_directory(out_dir)) throw Error(fmt::format("--out: cannot create the folder '{}'", dir));
  std::string jobs;
  nlohmann::json manifest{{"warpsim_sweep", 1}, {"scenario", spec.target}, {"mode", spec.mode_name}};
  auto& list = manifest["points"] = nlohmann::json::array();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    std::string command =
        fmt::format("{} run {}", shell_quote(warpsim), shell_quote(spec.target));
    nlohmann::json sets = nlohmann::json::object();
    for (const auto& [name, values] : spec.lists) {
      command += fmt::format(" --set {}={}", name, p.sets.at(name));
      sets[name] = p.sets.at(name);
    }
    command += " --mode " + spec.mode_name;
    if (spec.mode == sim::Mode::Timing) command += " --gpu " + shell_quote(spec.gpus[p.gpu]);
    for (const auto& item : spec.gpu_sets) command += " --gpu-set " + shell_quote(item);
    if (spec.seed != 1) command += fmt::format(" --seed {}", spec.seed);
    if (spec.registers != 0) command += fmt::format(" --registers {}", spec.registers);
    command += fmt::format(" --format json > {} 2> {}", shell_quote((out_dir / point_file(i, "json")).string()),
                           shell_quote((out_dir / point_file(i, "err")).string()));
    jobs += command + "\n";
    fs::remove(out_dir / point_file(i, "json"), ec);
    fs::remove(out_dir / point_file(i, "err"), ec);
    list.push_back({{"point", i + 1},
                    {"gpu", spec.gpus[p.gpu]},
                    {"set", sets},
                    {"report", point_file(i, "json")},
                    {"log", point_file(i, "err")}});
  }
  std::ofstream(out_dir / "sweep.json") << manifest.dump(2) << "\n";
  std::ofstream out(file);
  out << jobs;
  if (!out || !fs::exists(out_dir / "sweep.json"))
    throw Error(fmt::format("--emit-jobs: cannot write '{}' or '{}'", file, (out_dir / "sweep.json").string()));
  return fmt::format(
      "{} job(s) in {}, one `warpsim run` a line; their reports go to {}/point-K.json.\n"
      "run them (e.g. parallel < {}), then: warpsim sweep --merge {}\n",
      points.size(), file, out_dir.string(), file, out_dir.string());
}

std::string read_text(const fs::path& path, bool& exists) {
  std::ifstream in(path, std::ios::binary);
  exists = static_cast<bool>(in);
  return exists ? std::string(std::istreambuf_iterator<char>(in), {}) : std::string();
}

// The table from the reports of the jobs --emit-jobs wrote.
SweepTable merge(const std::string& dir) {
  bool exists = false;
  const auto text = read_text(fs::path(dir) / "sweep.json", exists);
  if (!exists)
    throw Error(fmt::format("--merge: no {}/sweep.json (the folder --emit-jobs wrote with --out)", dir),
                ExitCode::Usage);
  const auto manifest = nlohmann::json::parse(text, nullptr, false);
  if (manifest.is_discarded() || !manifest.contains("points") || !manifest.contains("scenario"))
    throw Error(fmt::format("--merge: {}/sweep.json is not a sweep manifest", dir), ExitCode::Usage);
  SweepTable table;
  table.scenario = manifest["scenario"].get<std::string>();
  table.mode = manifest.value("mode", "timing");
  std::unique_ptr<kernels::Scenario> holder;
  const auto* scenario = is_scenario_file(table.scenario) ? nullptr : kernels::find_scenario(table.scenario);
  if (is_scenario_file(table.scenario)) {
    try {
      scenario = find_target_scenario(table.scenario, holder, "--merge");
    } catch (const Error&) {
      scenario = nullptr;  // the file moved: the rows show the parameters swept only
    }
  }
  for (const auto& p : manifest["points"]) {
    kernels::Params sets;
    for (const auto& [k, v] : p["set"].items()) sets[k] = v.get<std::uint64_t>();
    const auto index = p["point"].get<std::size_t>() - 1;
    SweepRow row = blank_row(scenario, index, p["gpu"].get<std::string>(), sets);
    bool has_report = false, has_log = false;
    const auto report_file = p["report"].get<std::string>();
    const auto report_text = read_text(fs::path(dir) / report_file, has_report);
    const auto log = read_text(fs::path(dir) / p["log"].get<std::string>(), has_log);
    const auto run = nlohmann::json::parse(report_text, nullptr, false);
    if (!run.is_discarded() && run.is_object() && run.contains("launches")) {
      report::fill_row(row, run);
    } else if (has_log && !log.empty()) {
      row.reason = report::reason_from_stderr(log);
      const bool internal = log.find("warpsim: internal error: ") != std::string::npos;
      row.status = internal ? PointStatus::Failed : PointStatus::Invalid;
      if (internal) row.reason = "internal error: " + row.reason;
    } else {
      row.status = PointStatus::Failed;
      row.reason = has_report ? fmt::format("{} is not a warpsim run report", report_file)
                              : fmt::format("no {}: the job has not run", report_file);
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

int print(const SweepTable& table, const po::variables_map& vm, const std::string& format, Io& io) {
  if (vm.count("plot")) {
    const auto svg = report::format_sweep_svg(table);
    std::ofstream out(vm["plot"].as<std::string>());
    out << svg;
    if (!out) throw Error(fmt::format("--plot: cannot write '{}'", vm["plot"].as<std::string>()));
  }
  if (format == "json")
    io.out += report::sweep_to_json(table).dump(2) + "\n";
  else if (format == "csv")
    io.out += report::format_sweep_csv(table);
  else
    io.out += report::format_sweep_text(table);
  for (const auto& r : table.rows)
    if (r.status != PointStatus::Ok) return static_cast<int>(ExitCode::InvalidInput);
  return 0;
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim sweep SCENARIO --set NAME=V1,V2,... [--set ...] [--gpu h100,a100,v100] [--threads N]\n"
      "warpsim sweep SCENARIO ... --emit-jobs FILE [--out DIR]     (one `warpsim run` a line)\n"
      "warpsim sweep --merge DIR                                    (the table from those jobs' reports)\n"
      "Runs the cartesian product of the lists on each GPU and prints one row per point, then each GPU's best\n"
      "point and why the others lose (docs/sweep.md). Exit 0 when every point ran, 1 when some did not");
  options.add_options()("help,h", "show this help")("target", po::value<std::string>(), "scenario")(
      "set", po::value<std::vector<std::string>>(), "a scenario parameter and its values, NAME=V1,V2,...")(
      "gpu", po::value<std::string>()->default_value("h100"), "GPU presets, comma-separated (warpsim gpus)")(
      "gpu-set", po::value<std::vector<std::string>>()->composing(), "override a preset parameter, KEY=VALUE")(
      "mode", po::value<std::string>()->default_value("timing"), "timing or functional")(
      "threads", po::value<std::string>()->default_value("0"), "host threads running points (0: one per core)")(
      "seed", po::value<std::string>()->default_value("1"), "seed of random inputs")(
      "registers", po::value<std::string>()->default_value("0"), "registers per thread for occupancy (0: the IR's)")(
      "format,f", po::value<std::string>()->default_value("text"), "text, csv or json")(
      "plot", po::value<std::string>(), "write predicted time against the first swept parameter to FILE.svg")(
      "emit-jobs", po::value<std::string>(), "write one `warpsim run` command per point to FILE instead of running")(
      "out", po::value<std::string>()->default_value("sweep-jobs"), "with --emit-jobs: where the jobs write reports")(
      "warpsim", po::value<std::string>()->default_value(own_path()), "with --emit-jobs: the warpsim the jobs run")(
      "merge", po::value<std::string>(), "read the reports of emitted jobs from DIR and print the sweep");
  po::positional_options_description positional;
  positional.add("target", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  const auto format = format_option(vm, {"text", "csv", "json"});
  if (vm.count("merge")) {
    if (vm.count("target") || vm.count("set") || vm.count("emit-jobs"))
      throw Error("--merge reads a finished sweep: give it no scenario, --set or --emit-jobs", ExitCode::Usage);
    return print(merge(vm["merge"].as<std::string>()), vm, format, io);
  }
  if (!vm.count("target"))
    throw Error("sweep: no scenario given (warpsim sweep SCENARIO --set NAME=V1,V2,...)", ExitCode::Usage);
  const auto spec = make_spec(vm);
  const auto points = make_points(spec);
  if (vm.count("plot") && (spec.mode == sim::Mode::Functional || points.size() / spec.gpus.size() < 2))
    throw Error("--plot needs timing mode and a --set list with several values", ExitCode::Usage);
  if (vm.count("emit-jobs")) {
    io.out += emit_jobs(spec, points, vm["emit-jobs"].as<std::string>(), vm["out"].as<std::string>(),
                        vm["warpsim"].as<std::string>());
    return 0;
  }
  auto threads = small_option(vm, "threads");
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  SweepTable table;
  table.scenario = is_scenario_file(spec.target) ? spec.target : std::string(spec.scenario->name());
  table.mode = spec.mode_name;
  table.rows = run_points(spec, points, threads);
  return print(table, vm, format, io);
}

}  // namespace warpsim::cli
