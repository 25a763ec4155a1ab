// warpsim import FILE.cu|FILE.ptx: the CUDA front end's .kir, printed or written to a file.
#include <fstream>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "tools/cli.hpp"

namespace warpsim::cli {

int cmd_import(const std::vector<std::string>& args, Io& io) {
  po::options_description options("warpsim import FILE.cu|FILE.ptx [--kernel NAME] [-o FILE.kir] [--nvcc-opt OPT]...");
  options.add_options()("help,h", "show this help")("file", po::value<std::string>(), "a .cu or .ptx file")(
      "kernel,k", po::value<std::string>(), "only this kernel (its PTX name or its C++ name)")(
      "output,o", po::value<std::string>(), "write the .kir here instead of printing it")(
      "ptx-out", po::value<std::string>(), "also write the PTX that was read (for a .cu: NVRTC's) to this file")(
      "nvcc-opt", po::value<std::vector<std::string>>(), "an NVRTC option for a .cu file, e.g. -DTILE=16 (repeatable)");
  po::positional_options_description positional;
  positional.add("file", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("file")) throw Error("import: no file given (warpsim import FILE.cu|FILE.ptx)", ExitCode::Usage);
  const auto path = vm["file"].as<std::string>();
  if (!frontend::is_imported_file(path))
    throw Error(fmt::format("import: '{}' is neither a .cu nor a .ptx file", path), ExitCode::Usage);
  frontend::ImportOptions import;
  if (vm.count("kernel")) import.kernel = vm["kernel"].as<std::string>();
  if (vm.count("nvcc-opt")) import.nvrtc_options = vm["nvcc-opt"].as<std::vector<std::string>>();
  const auto imported = frontend::import_file(path, import);
  if (vm.count("ptx-out")) {
    std::ofstream ptx(vm["ptx-out"].as<std::string>(), std::ios::binary);
    ptx << imported.ptx;
    if (!ptx) throw Error(fmt::format("import: cannot write '{}'", vm["ptx-out"].as<std::string>()));
  }
  if (!vm.count("output")) {
    io.out += imported.kir;
    return 0;
  }
  const auto out_path = vm["output"].as<std::string>();
  std::ofstream file(out_path, std::ios::binary);
  file << imported.kir;
  if (!file) throw Error(fmt::format("import: cannot write '{}'", out_path));
  return 0;
}

}  // namespace warpsim::cli
