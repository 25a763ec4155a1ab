// warpsim emit-cuda: the CUDA C++ the backend generates, to read or to compile by hand.
#include <fmt/format.h>

#include "cuda/emitter.hpp"
#include "device/errors.hpp"
#include "isa/analysis.hpp"
#include "kernels/library.hpp"
#include "tools/cli.hpp"

namespace warpsim::cli {

int cmd_emit_cuda(const std::vector<std::string>& args, Io& io) {
  po::options_description options("warpsim emit-cuda FILE.kir [--kernel NAME] [--mode plain|instrumented]");
  options.add_options()("help,h", "show this help")("file", po::value<std::string>(), "a .kir, .cu or .ptx file")(
      "kernel,k", po::value<std::string>(), "only this kernel")(
      "mode", po::value<std::string>()->default_value("plain"),
      "plain (as a CUDA programmer writes it) or instrumented (records every warp's path)");
  po::positional_options_description positional;
  positional.add("file", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("file")) throw Error("emit-cuda: no file given (warpsim emit-cuda FILE.kir)", ExitCode::Usage);
  const auto mode_name = vm["mode"].as<std::string>();
  if (mode_name != "plain" && mode_name != "instrumented")
    throw Error(fmt::format("--mode: unknown mode '{}' (plain or instrumented)", mode_name), ExitCode::Usage);
  const auto mode = mode_name == "plain" ? cuda::EmitMode::Plain : cuda::EmitMode::Instrumented;
  const auto path = vm["file"].as<std::string>();
  if (vm.count("kernel")) {
    const auto loaded = kernels::load_kernel_file(path, vm["kernel"].as<std::string>());
    io.out += cuda::emit_cuda(*loaded->kernel, loaded->analysis, mode);
    return 0;
  }
  // Every kernel of the file in one translation unit.
  isa::Module module;
  if (!load_module(path, read_kernel_file(path), module, io)) return static_cast<int>(ExitCode::InvalidInput);
  std::vector<isa::KernelAnalysis> analyses;
  for (const auto& k : module.kernels) analyses.push_back(isa::analyze(k));
  io.out += cuda::emit_cuda(module, analyses, mode);
  return 0;
}

}  // namespace warpsim::cli
