#include "kernels/library.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "isa/parser.hpp"
#include "isa/source_file.hpp"
#include "isa/verifier.hpp"

namespace warpsim::kernels {

std::unique_ptr<LoadedKernel> load_kernel(std::string text, std::string file, std::string_view kernel_name) {
  auto loaded = std::make_unique<LoadedKernel>();
  loaded->file = std::move(file);
  loaded->text = std::move(text);
  auto parsed = isa::parse(loaded->text, loaded->file);
  std::string messages;
  for (const auto& d : parsed.diagnostics) messages += d.format();
  if (!parsed.ok()) throw Error(messages.empty() ? "parse failed" : messages.substr(0, messages.size() - 1));
  loaded->module = std::move(parsed.module);
  auto diagnostics = isa::verify(loaded->module, loaded->text);
  if (isa::has_errors(diagnostics)) {
    messages.clear();
    for (const auto& d : diagnostics) messages += d.format();
    throw Error(messages.substr(0, messages.size() - 1));
  }
  if (loaded->module.kernels.empty()) throw Error(fmt::format("{}: no kernel in this file", loaded->file));
  if (kernel_name.empty()) {
    if (loaded->module.kernels.size() > 1) {
      std::string names;
      for (const auto& k : loaded->module.kernels) names += (names.empty() ? "" : ", ") + k.name;
      throw Error(fmt::format("{}: holds several kernels ({}); choose one with --kernel", loaded->file, names));
    }
    loaded->kernel = &loaded->module.kernels.front();
  } else {
    loaded->kernel = loaded->module.find_kernel(kernel_name);
    if (loaded->kernel == nullptr)
      throw Error(fmt::format("{}: no kernel named '{}'", loaded->file, kernel_name));
  }
  loaded->analysis = isa::analyze(*loaded->kernel);
  return loaded;
}

std::unique_ptr<LoadedKernel> load_kernel_file(const std::string& path, std::string_view kernel_name,
                                               const std::vector<std::string>& nvrtc_options) {
  if (frontend::is_imported_file(path)) {
    auto imported = frontend::import_file(path, {std::string(kernel_name), nvrtc_options});
    auto loaded = load_kernel(std::move(imported.kir), path, imported.kernel);
    // A .cu kernel's registers are ptxas's where NVRTC could tell (docs/cuda-frontend.md, "Timing");
    // --registers still overrides them.
    if (const auto it = imported.ptxas_registers.find(loaded->kernel->name); it != imported.ptxas_registers.end())
      loaded->analysis.registers_per_thread = it->second;
    if (const auto it = imported.ptx_entries.find(loaded->kernel->name); it != imported.ptx_entries.end()) {
      loaded->native_ptx = std::move(imported.ptx);
      loaded->native_entry = it->second;
    }
    return loaded;
  }
  std::string why;
  auto text = isa::read_source_file(path, why);
  if (!text) throw Error(fmt::format("{}: {}", path, why));
  return load_kernel(std::move(*text), path, kernel_name);
}

std::unique_ptr<LoadedKernel> load_embedded(std::string_view name, std::string_view kernel_name) {
  for (const auto& f : embedded_files())
    if (f.name == name) return load_kernel(std::string(f.text), "kernels/" + std::string(f.name), kernel_name);
  throw Error(fmt::format("no built-in kernel file '{}'", name), ExitCode::Internal);
}

}  // namespace warpsim::kernels
