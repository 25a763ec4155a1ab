#include "tools/file_run.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "isa/source_file.hpp"

namespace warpsim::cli {

using kernels::file_elements;
using kernels::make_contents;
using kernels::parse_value;

namespace {

// A buffer file that cannot be used: invalid input.
[[noreturn]] void bad(const std::string& message) { throw Error(message, ExitCode::InvalidInput); }
// A mistake on the command line (an option's value, a parameter named wrongly, given twice or not
// at all): a usage error.
[[noreturn]] void usage(const std::string& message) { throw Error(message, ExitCode::Usage); }

// Why `path` cannot be written, without creating or truncating it: nullopt when it can.
std::optional<std::string> unwritable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) return "it is a directory";
    if (::access(path.c_str(), W_OK) != 0) return "permission denied";
    return std::nullopt;
  }
  const auto parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  if (!fs::is_directory(folder, ec)) return fmt::format("there is no folder '{}'", folder);
  if (::access(folder.c_str(), W_OK) != 0) return fmt::format("folder '{}' is not writable", folder);
  return std::nullopt;
}

}  // namespace

std::unique_ptr<kernels::LoadedKernel> load_kernel_file(const std::string& path, const std::string& kernel,
                                                        const std::vector<std::string>& nvcc_options) {
  if (!nvcc_options.empty() && !frontend::is_imported_file(path)) usage("--nvcc-opt applies to .cu files");
  if (!nvcc_options.empty() && path.size() > 4 && path.compare(path.size() - 4, 4, ".ptx") == 0)
    usage("--nvcc-opt applies to .cu files; a .ptx file is already compiled");
  return kernels::load_kernel_file(path, kernel, nvcc_options);
}

std::string kernel_file_text(const std::string& path, const std::vector<std::string>& nvcc_options) {
  if (frontend::is_imported_file(path)) return frontend::import_file(path, {"", nvcc_options}).kir;
  std::string why;
  auto text = isa::read_source_file(path, why);
  if (!text) throw Error(fmt::format("{}: {}", path, why));
  return std::move(*text);
}

kernels::Outcome run_file(Device& device, const FileRun& run, const kernels::RunOptions& options) {
  kernels::Outcome out;
  out.kernels.push_back(load_kernel_file(run.path, run.kernel, run.nvcc_options));
  const auto& loaded = *out.kernels.back();
  const auto& k = *loaded.kernel;

  std::map<std::string, std::string> args;
  for (const auto& [name, value] : run.args) {
    if (!args.emplace(name, value).second) usage(fmt::format("--arg {}: given twice", name));
  }
  std::map<std::string, const BufferSpec*> buffers;
  for (const auto& b : run.buffers)
    if (!buffers.emplace(b.name, &b).second) usage(fmt::format("--buffer {}: given twice", b.name));
  // Names first, so that a mistake costs nothing; dump paths before the run, so that its report is
  // not lost to a path that cannot be written.
  auto is_param = [&](const std::string& name) {
    const auto& params = k.params;
    return std::any_of(params.begin(), params.end(), [&](std::uint32_t r) { return k.registers[r].name == name; });
  };
  for (const auto& [name, value] : args)
    if (!is_param(name)) usage(fmt::format("--arg {}: kernel '{}' has no parameter '{}'", name, k.name, name));
  for (const auto& [name, spec] : buffers)
    if (!is_param(name)) usage(fmt::format("--buffer {}: kernel '{}' has no parameter '{}'", name, k.name, name));
  for (const auto& [name, path] : run.dumps) {
    if (!buffers.count(name)) usage(fmt::format("--dump {}: no buffer of that name", name));
    if (const auto why = unwritable(path)) bad(fmt::format("--dump {}: cannot write '{}': {}", name, path, *why));
  }

  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> allocated;  // name -> address, bytes
  std::vector<std::uint64_t> values;
  std::uint64_t seed = options.seed;
  for (auto reg : k.params) {
    const auto& p = k.registers[reg];
    const auto arg = args.find(p.name);
    const auto buf = buffers.find(p.name);
    if (p.pointee != isa::Type::None) {
      if (arg != args.end())
        usage(fmt::format("parameter '{}' of '{}' is a pointer (ptr.{}): give it with --buffer {}=...", p.name, k.name,
                        isa::type_name(p.pointee), p.name));
      if (buf == buffers.end())
        usage(fmt::format("parameter '{}' of '{}' (ptr.{}) has no buffer: add --buffer {}={}[COUNT]:zeros", p.name,
                        k.name, isa::type_name(p.pointee), p.name, isa::type_name(p.pointee)));
      if (buf->second->type != p.pointee)
        usage(fmt::format("--buffer {}: elements are {}, but parameter '{}' of '{}' is ptr.{}", p.name,
                        isa::type_name(buf->second->type), p.name, k.name, isa::type_name(p.pointee)));
      // The device refuses sizes it cannot hold before the host builds the contents.
      const auto& spec = *buf->second;
      const std::uint64_t count = spec.init == BufferSpec::Init::File ? file_elements(spec) : spec.count;
      const std::uint64_t bytes = count * isa::type_bytes(spec.type);
      const bool zeros = spec.init == BufferSpec::Init::Zeros;
      const auto address = zeros ? device.allocate(bytes, p.name) : device.allocate_to_fill(bytes, p.name);
      // Device memory comes zeroed: a zeros buffer needs no host copy (400 MB of it cost seconds).
      // The simulator's memory is filled in place (no host copy of the contents); a GPU's is written.
      if (!zeros) {
        const auto storage = device.host_storage(address, bytes);
        if (storage.size() == bytes) kernels::fill_contents(spec, count, seed, storage);
        else device.write(address, make_contents(spec, count, seed));
      }
      ++seed;
      allocated[p.name] = {address, bytes};
      values.push_back(address);
    } else {
      if (buf != buffers.end())
        usage(fmt::format("--buffer {}: parameter '{}' of '{}' is a {} scalar; give it with --arg {}=VALUE", p.name,
                        p.name, k.name, isa::type_name(p.type), p.name));
      if (arg == args.end())
        usage(fmt::format("parameter '{}' of '{}' ({}) has no value: add --arg {}=VALUE", p.name, k.name,
                        isa::type_name(p.type), p.name));
      values.push_back(parse_value(arg->second, p.type, "--arg " + p.name));
    }
  }
  kernels::Session session(device, options, out);
  session.launch(loaded, run.grid, run.block, std::move(values));

  // Only the buffers something looks at are read back: every one for validate (it compares them
  // between devices), else those dumped, each once.
  for (auto reg : k.params) {
    const auto& p = k.registers[reg];
    if (p.pointee == isa::Type::None) continue;
    const bool dumped = std::any_of(run.dumps.begin(), run.dumps.end(), [&](const auto& d) { return d.first == p.name; });
    if (!options.read_all_buffers && !dumped) continue;
    const auto [address, size] = allocated.at(p.name);
    kernels::OutputBuffer output{p.name, std::vector<std::byte>(size), p.pointee == isa::Type::F32};
    device.read(address, output.bytes);
    out.outputs.push_back(std::move(output));
  }
  for (const auto& [name, path] : run.dumps) {
    const auto& bytes =
        std::find_if(out.outputs.begin(), out.outputs.end(), [&](const auto& o) { return o.label == name; })->bytes;
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!file) bad(fmt::format("--dump {}: cannot write '{}'", name, path));
  }
  return out;
}

}  // namespace warpsim::cli
