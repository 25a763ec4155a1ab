// warpsim gpus: the built-in GPU presets, and every parameter of one of them.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/timing/preset.hpp"
#include "tools/cli.hpp"

namespace warpsim::cli {

int cmd_gpus(const std::vector<std::string>& args, Io& io) {
  po::options_description options("warpsim gpus [--params [--gpu NAME|FILE]] : the GPU presets of the timing model");
  options.add_options()("help,h", "show this help")("params", po::bool_switch(), "every parameter, its value and meaning")(
      "gpu", po::value<std::string>()->default_value("h100"), "the preset whose parameters --params shows")(
      "format,f", po::value<std::string>()->default_value("text"), "text or json");
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, {});
  const auto format = format_option(vm, {"text", "json"});
  if (vm["params"].as<bool>()) {
    const auto preset = sim::load_preset(vm["gpu"].as<std::string>());
    const auto params = sim::preset_parameters(preset);
    if (format == "json") {
      nlohmann::json j = nlohmann::json::object();
      for (const auto& p : params) j[p.key] = p.value;
      io.out += j.dump(2) + "\n";
      return 0;
    }
    for (const auto& p : params) io.out += fmt::format("{:<34} {:<24} {}\n", p.key, p.value, p.help);
    return 0;
  }
  nlohmann::json list = nlohmann::json::array();
  for (const auto& name : sim::builtin_presets()) {
    const auto p = sim::load_preset(name);
    list.push_back({{"name", p.name}, {"description", p.description}, {"sms", p.sms}, {"clock_mhz", p.clock_mhz}});
    if (format != "json") io.out += fmt::format("{:<8} {}{}\n", p.name, p.description, name == "h100" ? " (default)" : "");
  }
  if (format == "json") io.out += list.dump(2) + "\n";
  return 0;
}

}  // namespace warpsim::cli
