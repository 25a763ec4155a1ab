// warpsim bench: simulated thread instructions per second on a fixed set of cases. Each case and
// variant runs in a child process so its peak memory is its own.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "device/errors.hpp"
#include "tools/backend.hpp"
#include "kernels/scenario.hpp"
#include "sim/gpu.hpp"
#include "sim/reconvergence.hpp"
#include "tools/cli.hpp"
#include "tools/targets.hpp"

namespace warpsim::cli {

namespace {

struct BenchCase {
  std::string name;
  std::string scenario;
  kernels::Params params;
};

std::vector<BenchCase> bench_cases(bool small) {
  const std::uint64_t n = small ? (1u << 16) : (1u << 24);
  return {
      {"vecadd-2^" + std::to_string(small ? 16 : 24), "vecadd", {{"n", n}, {"block", 256}}},
      {"reduce-fig5-15-2^" + std::to_string(small ? 16 : 24), "reduce-fig5-15", {{"n", n}, {"block", 512}}},
      {small ? "gray-192x108" : "gray-1920x1080", "gray",
       {{"width", small ? 192 : 1920}, {"height", small ? 108 : 1080}, {"block_x", 16}, {"block_y", 16}}},
  };
}

// Runs one case in this process and returns its figures.
// `setting`: one preset value, KEY=VALUE, or empty for the preset as it is.
nlohmann::json measure(const BenchCase& c, std::uint32_t threads, sim::Mode mode, sim::ReconvergenceModel model,
                       const std::string& setting) {
  sim::Config config;
  config.threads = threads;
  config.mode = mode;
  config.reconvergence = model;
  if (!setting.empty()) {
    const auto [key, value] = split_assignment(setting, "--compare-set");
    sim::apply_override(config.gpu, key, value);
  }
  sim::Gpu gpu(config);
  std::unique_ptr<kernels::Scenario> holder;
  const auto* scenario = find_target_scenario(c.scenario, holder, "bench");
  kernels::RunOptions options;
  const auto outcome = scenario->run(gpu, kernels::resolve_params(*scenario, c.params), options);
  std::uint64_t thread_instructions = 0, warp_instructions = 0;
  double seconds = 0;
  for (const auto& l : outcome.launches) {
    thread_instructions += l.result.stats.thread_instructions;
    warp_instructions += l.result.stats.warp_instructions;
    seconds += l.seconds;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::uint64_t cycles = 0;
  for (const auto& l : outcome.launches) cycles += l.result.stats.timed ? l.result.stats.timing.cycles : 0;
  return {{"name", c.name},
          {"mode", mode == sim::Mode::Timing ? "timing" : "functional"},
          {"threads", threads},
          {"reconvergence", sim::reconvergence_name(model)},
          {"setting", setting},
          {"simulated_cycles", cycles},
          {"warp_instructions", warp_instructions},
          {"thread_instructions", thread_instructions},
          {"seconds", seconds},
          {"thread_instructions_per_second", seconds > 0 ? double(thread_instructions) / seconds : 0.0},
          {"peak_rss_bytes", static_cast<std::uint64_t>(usage.ru_maxrss) * 1024},
          {"check_passed", outcome.checked && outcome.passed}};
}

// Forks, measures in the child, reads its JSON back through a pipe.
nlohmann::json measure_isolated(const BenchCase& c, std::uint32_t threads, sim::Mode mode, sim::ReconvergenceModel model,
                                const std::string& setting) {
  int fds[2];
  if (pipe(fds) != 0) return measure(c, threads, mode, model, setting);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return measure(c, threads, mode, model, setting);
  }
  if (pid == 0) {
    close(fds[0]);
    std::string text;
    try {
      text = measure(c, threads, mode, model, setting).dump();
    } catch (const std::exception& e) {
      text = nlohmann::json{{"error", e.what()}}.dump();
    }
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
      const auto n = write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw Error(fmt::format("bench: case {} did not report (status {})", c.name, status), ExitCode::Internal);
  if (j.contains("error")) throw Error(fmt::format("bench: case {}: {}", c.name, j["error"].get<std::string>()));
  return j;
}

}  // namespace

int cmd_bench(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim bench [TARGET...] : simulated thread instructions per second (by default vector add and the Fig 5.15 reduction on\n"
      "2^24 elements, the grey kernel on 1920x1080); each variant runs in its own process");
  options.add_options()("help,h", "show this help")(
      "threads", po::value<std::string>()->default_value("1"), "host thread counts to compare, e.g. 1,2")(
      "small", po::bool_switch(), "small inputs (2^16 elements, 192x108) for a quick look")(
      "mode", po::value<std::string>()->default_value("timing,functional"), "modes to compare: timing, functional or both")(
      "reconvergence", po::value<std::string>()->default_value("volta"),
      "reconvergence models to compare, e.g. volta,ipdom (each case runs under each, side by side)")(
      "format,f", po::value<std::string>()->default_value("text"), "text or json")(
      "target", po::value<std::vector<std::string>>(),
      "scenarios (built-in names or .json files) to measure at their defaults instead of the fixed cases")(
      "set", po::value<std::vector<std::string>>(), "with targets: a parameter NAME=VALUE for every target")(
      "compare-set", po::value<std::string>(),
      "one preset parameter's values to compare, KEY=V1,V2,... (each case runs under each, side by side, in timing "
      "mode unless --mode says otherwise; values are split at commas, so a list-valued key takes one value; warpsim "
      "gpus --params lists the keys)");
  po::positional_options_description positional;
  positional.add("target", -1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  const auto format = format_option(vm, {"text", "json"});
  std::vector<std::uint32_t> thread_counts;
  for (const auto& item : split_list(vm["threads"].as<std::string>())) thread_counts.push_back(parse_threads(item));
  std::vector<sim::Mode> modes;
  for (const auto& m : split_list(vm["mode"].as<std::string>())) {
    if (m == "timing") modes.push_back(sim::Mode::Timing);
    else if (m == "functional") modes.push_back(sim::Mode::Functional);
    else throw Error(fmt::format("--mode: unknown mode '{}' (timing or functional)", m), ExitCode::Usage);
  }
  std::vector<sim::ReconvergenceModel> models;
  for (const auto& item : split_list(vm["reconvergence"].as<std::string>())) models.push_back(reconvergence_option(item));
  std::vector<std::string> settings{""};
  if (vm.count("compare-set")) {
    if (vm["mode"].defaulted()) modes = {sim::Mode::Timing};  // a preset changes nothing in functional mode
    const auto [key, values] = split_assignment(vm["compare-set"].as<std::string>(), "--compare-set");
    settings.clear();
    for (const auto& value : split_list(values)) {
      sim::GpuPreset check = sim::default_preset();  // refused here, before any child runs (exit 2)
      try {
        sim::apply_override(check, key, value);
        sim::validate_preset(check);
      } catch (const Error& e) {
        std::string_view said = e.what();  // apply_override names --gpu-set, the option run takes
        if (said.starts_with("--gpu-set: ")) said.remove_prefix(11);
        throw Error(fmt::format("--compare-set: {}", said), e.code());
      }
      settings.push_back(key + "=" + value);
    }
  }
  auto cases = bench_cases(vm["small"].as<bool>());
  if (vm.count("target")) {
    // Named targets replace the fixed cases; each is checked here, before any child runs it.
    cases.clear();
    const auto sets = parse_sets(vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{});
    for (const auto& target : vm["target"].as<std::vector<std::string>>()) {
      std::unique_ptr<kernels::Scenario> holder;
      kernels::resolve_params(*find_target_scenario(target, holder, "bench"), sets);
      cases.push_back({target, target, sets});
    }
  } else if (vm.count("set")) {
    throw Error("bench: --set applies to named targets (warpsim bench TARGET... --set NAME=VALUE)", ExitCode::Usage);
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& c : cases)
    for (const auto mode : modes)
      for (auto threads : thread_counts)
        for (const auto model : models)
          for (const auto& setting : settings) results.push_back(measure_isolated(c, threads, mode, model, setting));
  if (format == "json") {
    io.out += results.dump(2) + "\n";
    return 0;
  }
  io.out += fmt::format("{:<24} {:<10} {:<9} {:>7} {:>16} {:>9} {:>22} {:>12}{}\n", "case", "mode", "model", "threads",
                        "thread instr", "seconds", "thread instr / second", "peak RSS", vm.count("compare-set") ? "  setting" : "");
  for (const auto& r : results)
    io.out += fmt::format("{:<24} {:<10} {:<9} {:>7} {:>16} {:>9.3f} {:>22} {:>8.1f} MiB{}\n", r["name"].get<std::string>(),
                          r["mode"].get<std::string>(), r["reconvergence"].get<std::string>(), r["threads"].get<std::uint32_t>(),
                          r["thread_instructions"].get<std::uint64_t>(),
                          r["seconds"].get<double>(),
                          fmt::format("{:.1f} M", r["thread_instructions_per_second"].get<double>() / 1e6),
                          double(r["peak_rss_bytes"].get<std::uint64_t>()) / (1 << 20),
                          r["setting"].get<std::string>().empty() ? "" : "  " + r["setting"].get<std::string>());
  return 0;
}

}  // namespace warpsim::cli
