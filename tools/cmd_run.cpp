// warpsim list | run | compare: scenarios and kernel files on a device, and their reports.
#include <fmt/format.h>

#include "device/errors.hpp"
#include "kernels/scenario.hpp"
#include "tools/backend.hpp"
#include "tools/file_run.hpp"
#include "tools/progress.hpp"
#include "tools/targets.hpp"
#include "tools/report/report.hpp"

namespace warpsim::cli {

int cmd_list(const std::vector<std::string>& args, Io& io) {
  po::options_description options("warpsim list : the built-in scenarios");
  options.add_options()("help,h", "show this help");
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  parse_args(args, options, {});
  for (const auto& s : kernels::all_scenarios()) {
    io.out += fmt::format("{:<24} {}\n", s->name(), s->description());
    std::string params;
    for (const auto& p : s->params()) params += fmt::format("{}{}={} ({})", params.empty() ? "" : ", ", p.name, p.default_value, p.help);
    io.out += fmt::format("{:<24} kernel {}; parameters: {}\n", "", s->kernel_file(), params.empty() ? "none" : params);
  }
  return 0;
}

int cmd_run(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim run SCENARIO|SCENARIO.json [--set NAME=VALUE]...\n"
      "warpsim run FILE.kir [--kernel NAME] --grid X[,Y,Z] --block X[,Y,Z] [--arg N=V]... [--buffer ...]... [--dump N=PATH]...");
  options.add_options()("help,h", "show this help")("target", po::value<std::string>(), "scenario name or .kir file")(
      "format,f", po::value<std::string>()->default_value("text"), "text, json or csv (per-warp table)");
  add_launch_options(options);
  add_run_options(options);
  po::positional_options_description positional;
  positional.add("target", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("target")) throw Error("run: no scenario or file given (warpsim run SCENARIO|FILE.kir)", ExitCode::Usage);
  const auto format = format_option(vm, {"text", "json", "csv"});
  const auto sets = parse_sets(vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{});
  check_run_options(vm);
  auto device = make_device(vm);
  auto options_run = run_options(vm);
  Progress progress(vm["target"].as<std::string>());
  options_run.progress = progress.counters();
  auto ran = run_target(*device, vm["target"].as<std::string>(), vm, sets, options_run);
  progress.stop();
  ran.report.outcome = &ran.outcome;
  std::vector<std::string> argv{"run"};
  argv.insert(argv.end(), args.begin(), args.end());
  ran.report.reproduce = reproduction(vm, argv);
  if (format == "json")
    io.out += report::to_json(ran.report).dump(2) + "\n";
  else if (format == "csv")
    io.out += report::format_csv(ran.report);
  else
    io.out += report::format_text(ran.report);
  if (ran.outcome.fault) {
    io.err += fmt::format("warpsim: error: {}\n", ran.outcome.fault->message);
    return static_cast<int>(ExitCode::InvalidInput);
  }
  if (ran.outcome.checked && !ran.outcome.passed) {
    io.err += fmt::format("warpsim: check failed: {}\n", ran.outcome.check);
    return static_cast<int>(ExitCode::CheckFailed);
  }
  return 0;
}

int cmd_compare(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim compare TARGET TARGET... : summaries side by side; a TARGET is a scenario, optionally with\n"
      "its own parameters (reduce-fig5-15:n=2048,block=1024), or a .kir file run with the launch options");
  options.add_options()("help,h", "show this help")("target", po::value<std::vector<std::string>>(), "scenarios")(
      "format,f", po::value<std::string>()->default_value("text"), "text or json");
  add_launch_options(options);
  add_run_options(options);
  po::positional_options_description positional;
  positional.add("target", -1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("target")) throw Error("compare: give at least one scenario", ExitCode::Usage);
  const auto format = format_option(vm, {"text", "json"});
  check_run_options(vm);
  std::vector<Ran> runs;
  bool all_passed = true;
  for (const auto& target : vm["target"].as<std::vector<std::string>>()) {
    const auto colon = target.find(':');
    const std::string name = target.substr(0, colon);
    kernels::Params sets =
        parse_sets(vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{});
    if (is_kernel_file(name)) sets.clear();
    if (colon != std::string::npos) {
      std::vector<std::string> parts;
      std::string rest = target.substr(colon + 1);
      for (std::size_t start = 0; start <= rest.size();) {
        const auto comma = rest.find(',', start);
        parts.push_back(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      for (const auto& [k, v] : parse_sets(parts)) sets[k] = v;
    }
    auto device = make_device(vm);
    // A fault ends that target's run, not the comparison: the report shows its launches up to the
    // fault (and a FAULT line), the other targets in full, and the exit code is the fault's.
    runs.push_back(run_target(*device, name, vm, sets, run_options(vm)));
    runs.back().report.title = target;
    all_passed = all_passed && (!runs.back().outcome.checked || runs.back().outcome.passed);
  }
  std::vector<std::string> argv{"compare"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto reproduce = reproduction(vm, argv);  // one command made every run
  for (auto& r : runs) {
    r.report.outcome = &r.outcome;
    r.report.reproduce = reproduce;
  }
  if (format == "json") {
    nlohmann::json j;
    auto& list = j["runs"] = nlohmann::json::array();
    for (const auto& r : runs) list.push_back(report::to_json(r.report));
    // The command for `warpsim rerun`: each run's "reproduce" less what is its own.
    j["reproduce"] = list.front()["reproduce"];
    for (const char* own : {"target", "params", "buffers"}) j["reproduce"].erase(own);
    io.out += j.dump(2) + "\n";
  } else {
    std::vector<const report::RunReport*> reports;
    for (const auto& r : runs) reports.push_back(&r.report);
    io.out += report::format_comparison(reports);
  }
  bool faulted = false;
  for (const auto& r : runs) {
    if (!r.outcome.fault) continue;
    io.err += fmt::format("warpsim: error: {}: {}\n", r.report.title, r.outcome.fault->message);
    faulted = true;
  }
  if (faulted) return static_cast<int>(ExitCode::InvalidInput);
  return all_passed ? 0 : static_cast<int>(ExitCode::CheckFailed);
}

}  // namespace warpsim::cli
