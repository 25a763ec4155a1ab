// warpsim rerun REPORT.json: runs the command a JSON report records ("reproduce") again and says
// whether the new report is identical to the saved one, byte for byte and figure for figure.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "device/errors.hpp"
#include "isa/source_file.hpp"
#include "tools/cli.hpp"

namespace warpsim::cli {

int cmd_rerun(const std::vector<std::string>& args, Io& io) {
  po::options_description options(
      "warpsim rerun REPORT.json : run the command a JSON report of `warpsim run` or `compare` records again, from the\n"
      "current folder (relative paths in it start here), and compare the new report with the saved one.\n"
      "Exit 0 when identical, 7 when the figures differ (the first differences are listed)");
  options.add_options()("help,h", "show this help")("report", po::value<std::string>(), "a JSON report")(
      "max-differences", po::value<std::size_t>()->default_value(10), "differences listed");
  po::positional_options_description positional;
  positional.add("report", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("report")) throw Error("rerun: no report given (warpsim rerun REPORT.json)", ExitCode::Usage);
  const auto path = vm["report"].as<std::string>();
  std::string why;
  const auto text = isa::read_source_file(path, why);
  if (!text) throw Error(fmt::format("rerun: '{}' {}", path, why));
  const auto saved = nlohmann::json::parse(*text, nullptr, false);
  if (saved.is_discarded() || !saved.is_object())
    throw Error(fmt::format("rerun: '{}' is not a JSON report (warpsim run --format json)", path));
  if (!saved.contains("reproduce") || !saved["reproduce"].is_object() || !saved["reproduce"].contains("argv") ||
      !saved["reproduce"]["argv"].is_array())
    throw Error(fmt::format("rerun: '{}' records no command to rerun (no \"reproduce\": a report of an older warpsim, "
                            "or not one of `warpsim run|compare --format json`)",
                            path));
  std::vector<std::string> argv;
  for (const auto& a : saved["reproduce"]["argv"]) {
    if (!a.is_string()) throw Error(fmt::format("rerun: '{}': reproduce.argv holds a non-string", path));
    argv.push_back(a.get<std::string>());
  }
  if (argv.empty() || (argv.front() != "run" && argv.front() != "compare"))
    throw Error(fmt::format("rerun: '{}' records '{}', not a `warpsim run` or `warpsim compare`", path,
                            argv.empty() ? "" : argv.front()));
  const std::string version = saved["reproduce"].value("version", "");
  if (version != WARPSIM_VERSION)
    io.err += fmt::format("warpsim: warning: the report was made by warpsim {}, this is {}\n", version, WARPSIM_VERSION);

  Io again;
  const int code = run_cli(argv, again);
  io.err += again.err;
  io.out += fmt::format("rerun: warpsim {}\n", fmt::join(argv, " "));
  const auto fresh = nlohmann::json::parse(again.out, nullptr, false);
  if (fresh.is_discarded() || !fresh.is_object()) {
    io.out += fmt::format("the command printed no JSON report (exit {})\n", code);
    return static_cast<int>(ExitCode::Differs);
  }
  if (again.out == *text) {
    io.out += "identical: the new report equals the saved one byte for byte\n";
    return 0;
  }
  if (fresh == saved) {
    io.out += "identical figures (the saved file is laid out differently)\n";
    return 0;
  }
  const auto patch = nlohmann::json::diff(saved, fresh);
  const auto limit = vm["max-differences"].as<std::size_t>();
  io.out += fmt::format("DIFFERENT: {} difference(s) between the saved report and the new one\n", patch.size());
  for (std::size_t i = 0; i < patch.size() && i < limit; ++i) {
    const auto& p = patch[i];
    const auto pointer = p["path"].get<std::string>();
    const nlohmann::json::json_pointer at(pointer);
    const std::string before = saved.contains(at) ? saved[at].dump() : "(absent)";
    const std::string after = fresh.contains(at) ? fresh[at].dump() : "(absent)";
    io.out += fmt::format("  {}: saved {}, now {}\n", pointer, before.substr(0, 120), after.substr(0, 120));
  }
  return static_cast<int>(ExitCode::Differs);
}

}  // namespace warpsim::cli
