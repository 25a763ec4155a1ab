#include "tools/cli.hpp"

#include <charconv>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "device/errors.hpp"

namespace warpsim::cli {

namespace {

constexpr Command kCommands[] = {
    {"check", "parse and verify .kir files; exit 0 only when clean", cmd_check},
    {"print", "print a .kir file in canonical form", cmd_print},
    {"import", "translate a .cu or .ptx file to the IR (.kir), keeping each instruction's CUDA line", cmd_import},
    {"cfg", "basic blocks, edges and each branch's reconvergence point (text or Graphviz dot)", cmd_cfg},
    {"list", "the built-in scenarios and their parameters", cmd_list},
    {"run", "run a scenario or a kernel file and print its divergence report", cmd_run},
    {"rerun", "run a JSON report's command again and say whether its figures are identical", cmd_rerun},
    {"compare", "run several scenarios and put their summaries side by side", cmd_compare},
    {"sweep", "run a scenario over lists of parameters and GPUs: one row per point, the best and why", cmd_sweep},
    {"bench", "measure simulated thread instructions per second on a fixed set of cases", cmd_bench},
    {"emit-cuda", "print the CUDA C++ the backend generates for a .kir file", cmd_emit_cuda},
    {"validate", "run on the simulator and on a real GPU and compare what each warp did", cmd_validate},
    {"gpus", "the GPU presets of the timing model and their parameters", cmd_gpus},
    {"calibrate", "fit a GPU preset to microbenchmarks run on the GPU; measured against predicted", cmd_calibrate},
    {"timing-report", "predicted against measured kernel time over a saved validation set; table and SVG plot",
     cmd_timing_report},
};

std::string usage() {
  std::string out =
      "usage: warpsim [--help] [--version] [-v | --log-level LEVEL] COMMAND [ARGS...]\n\n"
      "warpsim simulates how GPU kernels map onto warps (SIMT) and checks the predictions on a real GPU.\n\n"
      "commands:\n";
  for (const auto& c : kCommands) out += fmt::format("  {:<10} {}\n", c.name, c.summary);
  out +=
      "\n`warpsim COMMAND --help` shows a command's options.\n"
      "exit codes: 0 ok, 1 invalid input or kernel fault, 2 usage error, 3 check failed, 4 no GPU,\n"
      "            5 internal error, 6 validation mismatch, 7 rerun: figures differ\n";
  return out;
}

}  // namespace

po::variables_map parse_args(const std::vector<std::string>& args, const po::options_description& options,
                             const po::positional_options_description& positional) {
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
  po::notify(vm);
  return vm;
}

bool wants_help(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

std::string format_option(const po::variables_map& vm, std::initializer_list<std::string_view> allowed) {
  const auto format = vm["format"].as<std::string>();
  std::string names;
  for (auto a : allowed) {
    if (a == format) return format;
    names += (names.empty() ? "" : ", ") + std::string(a);
  }
  throw Error(fmt::format("--format: unknown format '{}' ({})", format, names), ExitCode::Usage);
}

std::string help_text(const po::options_description& options) {
  std::ostringstream out;
  out << options;
  return out.str();
}

std::uint64_t parse_u64(std::string_view text, std::string_view what) {
  std::uint64_t value = 0;
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw Error(fmt::format("{}: '{}' is not a non-negative integer", what, text), ExitCode::Usage);
  return value;
}

std::uint32_t parse_threads(std::string_view text) {
  const auto v = parse_u64(text, "--threads");
  if (v == 0 || v > kMaxHostThreads)
    throw Error(fmt::format("--threads: {} is not between 1 and {}", v, kMaxHostThreads), ExitCode::Usage);
  return static_cast<std::uint32_t>(v);
}

void check_run_options(const po::variables_map& vm) {
  parse_threads(vm["threads"].as<std::string>());
  const auto warp_size = parse_u64(vm["warp-size"].as<std::string>(), "--warp-size");
  if (warp_size == 0 || warp_size > 64)
    throw Error(fmt::format("--warp-size: {} is not between 1 and 64", warp_size), ExitCode::Usage);
}

Dim3 parse_dim3(std::string_view text, std::string_view what) {
  // "0x10" would read as 0 by 10: say that sizes are decimal rather than that one of them is zero.
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    throw Error(fmt::format("{}: '{}' is not a size: sizes are decimal numbers of at least 1, as X, X,Y,Z or XxYxZ",
                            what, text),
                ExitCode::Usage);
  std::uint32_t parts[3] = {1, 1, 1};
  int count = 0;
  std::size_t start = 0;
  while (true) {
    const auto sep = text.find_first_of(",x", start);
    const auto piece = text.substr(start, sep == std::string_view::npos ? std::string_view::npos : sep - start);
    if (count == 3) throw Error(fmt::format("{}: '{}' has more than 3 sizes", what, text), ExitCode::Usage);
    if (!piece.empty() && piece[0] == '-')
      throw Error(fmt::format("{}: '{}' has a negative size", what, text), ExitCode::Usage);
    const auto v = parse_u64(piece, what);
    if (v > 0xffffffffull) throw Error(fmt::format("{}: {} is too large", what, v), ExitCode::Usage);
    if (v == 0) throw Error(fmt::format("{}: '{}' has a size of 0; every size is at least 1", what, text), ExitCode::Usage);
    parts[count++] = static_cast<std::uint32_t>(v);
    if (sep == std::string_view::npos) break;
    start = sep + 1;
  }
  return Dim3{parts[0], parts[1], parts[2]};
}

std::pair<std::string, std::string> split_assignment(std::string_view text, std::string_view what) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw Error(fmt::format("{}: expected NAME=VALUE, found '{}'", what, text), ExitCode::Usage);
  return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t start = 0;;) {
    const auto comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

WarpSelection parse_warp_selection(std::string_view text) {
  WarpSelection s;
  if (text == "default") return s;
  if (text == "all") {
    s.mode = WarpSelection::Mode::All;
    return s;
  }
  if (text == "divergent") {
    s.mode = WarpSelection::Mode::Divergent;
    return s;
  }
  const auto dash = text.find('-');
  if (dash == 0)
    throw Error(fmt::format("--warps: '{}' is not default, all, divergent or a block range B0-B1", text),
                ExitCode::Usage);
  s.mode = WarpSelection::Mode::BlockRange;
  s.first_block = parse_u64(text.substr(0, dash), "--warps");
  s.last_block = dash == std::string_view::npos ? s.first_block : parse_u64(text.substr(dash + 1), "--warps");
  if (s.last_block < s.first_block)
    throw Error(fmt::format("--warps: block range '{}' ends before it starts", text), ExitCode::Usage);
  return s;
}

int run_cli(const std::vector<std::string>& args, Io& io) {
  // One logger for the command line, writing to the captured error stream's backing stringstream.
  std::ostringstream log_stream;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log_stream);
  auto logger = std::make_shared<spdlog::logger>("warpsim", sink);
  logger->set_pattern("[%l] %v");
  logger->set_level(spdlog::level::warn);
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(logger);
  struct Restore {
    std::shared_ptr<spdlog::logger> previous;
    ~Restore() { spdlog::set_default_logger(previous); }
  } restore{previous};

  int code = 0;
  try {
    std::size_t i = 0;
    for (; i < args.size() && !args[i].empty() && args[i][0] == '-'; ++i) {
      const auto& a = args[i];
      if (a == "--help" || a == "-h") {
        io.out += usage();
        return 0;
      }
      if (a == "--version") {
        io.out += "warpsim " WARPSIM_VERSION "\n";
        return 0;
      }
      if (a == "-v" || a == "--verbose") {
        logger->set_level(spdlog::level::debug);
      } else if (a == "--log-level" && i + 1 == args.size()) {
        throw Error("--log-level needs a level (trace, debug, info, warn, error, off)", ExitCode::Usage);
      } else if (a == "--log-level") {
        const auto level = spdlog::level::from_str(args[++i]);
        if (level == spdlog::level::off && args[i] != "off")
          throw Error(fmt::format("--log-level: unknown level '{}' (trace, debug, info, warn, error, off)", args[i]),
                      ExitCode::Usage);
        logger->set_level(level);
      } else {
        throw Error(fmt::format("unknown option '{}'", a), ExitCode::Usage);
      }
    }
    if (i == args.size()) {
      io.err += usage();
      return static_cast<int>(ExitCode::Usage);
    }
    const std::string name = args[i];
    const std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
    const Command* command = nullptr;
    for (const auto& c : kCommands)
      if (c.name == name) command = &c;
    if (command == nullptr)
      throw Error(fmt::format("unknown command '{}' (see warpsim --help)", name), ExitCode::Usage);
    code = command->run(rest, io);
  } catch (const Error& e) {
    io.err += fmt::format("warpsim: error: {}\n", e.what());
    code = static_cast<int>(e.code());
  } catch (const po::error& e) {
    io.err += fmt::format("warpsim: usage error: {}\n", e.what());
    code = static_cast<int>(ExitCode::Usage);
  } catch (const std::bad_alloc&) {
    io.err += "warpsim: error: out of memory\n";
    code = static_cast<int>(ExitCode::InvalidInput);
  } catch (const std::exception& e) {
    io.err += fmt::format("warpsim: internal error: {}\n", e.what());
    code = static_cast<int>(ExitCode::Internal);
  }
  logger->flush();
  io.err = log_stream.str() + io.err;
  return code;
}

}  // namespace warpsim::cli
