#include "frontend/import.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "cuda/nvrtc.hpp"
#include "device/errors.hpp"
#include "frontend/ptx_reader.hpp"
#include "frontend/ptx_translate.hpp"
#include "isa/parser.hpp"
#include "isa/source_file.hpp"
#include "isa/verifier.hpp"

namespace warpsim::frontend {

namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The parameters of the kernel defined at `line` (1-based) of CUDA source `text`: the first
// parenthesised list after `name` at or after that line, split at top-level commas; each
// parameter's last identifier is its name, the rest its type.
std::vector<CudaParam> cuda_params(const std::string& text, std::uint32_t line, const std::string& name) {
  std::size_t at = 0;
  for (std::uint32_t l = 1; l < line && at != std::string::npos; ++l) {
    at = text.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  if (at == std::string::npos || name.empty()) return {};
  // The kernel's name followed by '(' (template arguments may stand between them).
  std::size_t open = std::string::npos;
  for (std::size_t pos = text.find(name, at); pos != std::string::npos; pos = text.find(name, pos + 1)) {
    if (pos > 0 && (std::isalnum(static_cast<unsigned char>(text[pos - 1])) || text[pos - 1] == '_')) continue;
    std::size_t j = pos + name.size();
    while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    if (j < text.size() && text[j] == '(') {
      open = j;
      break;
    }
  }
  if (open == std::string::npos) return {};
  std::vector<CudaParam> out;
  std::string current;
  int depth = 0;
  auto finish = [&]() {
    std::string p = current.substr(0, current.find('='));
    if (const auto bracket = p.find('['); bracket != std::string::npos) p = p.substr(0, bracket) + "*";
    std::size_t end = p.find_last_not_of(" \t\n*&");
    if (end == std::string::npos) return;
    std::size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(p[begin - 1])) || p[begin - 1] == '_')) --begin;
    CudaParam c{p.substr(begin, end - begin + 1), p.substr(0, begin) + p.substr(end + 1)};
    out.push_back(std::move(c));
  };
  for (std::size_t j = open + 1; j < text.size(); ++j) {
    const char c = text[j];
    if (c == '(' || c == '<' || c == '[') ++depth;
    if ((c == ')' || c == '>' || c == ']') && depth > 0) {
      --depth;
    } else if (c == ')') {
      if (current.find_first_not_of(" \t\n") != std::string::npos && current.find("void") == std::string::npos) finish();
      return out;
    }
    if (c == ',' && depth == 0) {
      finish();
      current.clear();
    } else {
      current += c;
    }
  }
  return {};
}

// The function name of a demangled C++ signature: "void ns::addk<float>(float*, float)" -> "addk".
std::string base_name(const std::string& demangled) {
  std::string s = demangled.substr(0, demangled.find('('));
  if (const auto lt = s.find('<'); lt != std::string::npos) s = s.substr(0, lt);
  if (const auto colon = s.rfind("::"); colon != std::string::npos) s = s.substr(colon + 2);
  if (const auto space = s.rfind(' '); space != std::string::npos) s = s.substr(space + 1);
  return s;
}

// "addk<float>" from "void addk<float>(float*, float)"
std::string without_signature(const std::string& demangled) {
  std::string s = demangled.substr(0, demangled.find('('));
  // a leading return type: the last space outside template brackets
  int depth = 0;
  std::size_t cut = std::string::npos;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>') --depth;
    if (s[i] == ' ' && depth == 0) cut = i;
  }
  return cut == std::string::npos ? s : s.substr(cut + 1);
}

}  // namespace

std::string demangle(const std::string& name) {
  if (!name.starts_with("_Z")) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

bool is_imported_file(const std::string& path) { return ends_with(path, ".cu") || ends_with(path, ".ptx"); }

std::string compile_cuda(const std::string& source, const std::string& name, const std::vector<std::string>& options) {
  cuda::Nvrtc nvrtc;
  if (const auto why = nvrtc.unavailable_reason())
    throw Error(fmt::format("{}: cannot compile CUDA C: {}", name, *why), ExitCode::NoDevice);
  auto all = cuda::default_nvrtc_options();
  all.push_back("--generate-line-info");
  all.insert(all.end(), options.begin(), options.end());
  const auto result = nvrtc.compile_ptx(source, "sm_90", all, name);
  if (!result.ok) throw Error(fmt::format("{}: NVRTC could not compile it:\n{}", name, result.log));
  // NVRTC's .file is the working folder plus the name; keep the name alone, so the PTX does not
  // depend on where warpsim ran.
  std::string ptx = result.image;
  std::error_code ec;
  const std::string absolute = "\"" + (std::filesystem::current_path(ec) / name).string() + "\"";
  for (std::size_t at; !ec && (at = ptx.find(absolute)) != std::string::npos;)
    ptx.replace(at, absolute.size(), "\"" + name + "\"");
  return ptx;
}

Imported import_ptx(const std::string& ptx, const std::string& ptx_name, const std::string& cuda_source,
                    const ImportOptions& options) {
  PtxModule module;
  try {
    module = read_ptx(ptx);
  } catch (const PtxError& e) {
    throw Error(fmt::format("{}:{}: error: {}", ptx_name, e.line(), e.what()));
  }
  if (module.kernels.empty()) throw Error(fmt::format("{}: no kernel (.entry) in this PTX", ptx_name));
  auto names = [&]() {
    std::string list;
    for (const auto& k : module.kernels) {
      const auto d = demangle(k.name);
      list += (list.empty() ? "" : ", ") + (d == k.name ? k.name : fmt::format("{} ({})", without_signature(d), k.name));
    }
    return list;
  };
  std::vector<std::size_t> chosen;
  if (!options.kernel.empty()) {
    for (std::size_t i = 0; i < module.kernels.size(); ++i) {
      const auto& n = module.kernels[i].name;
      const auto d = demangle(n);
      if (n == options.kernel || d == options.kernel || without_signature(d) == options.kernel) chosen = {i};
    }
    if (chosen.empty())  // the plain function name, when only one kernel has it
      for (std::size_t i = 0; i < module.kernels.size(); ++i)
        if (base_name(demangle(module.kernels[i].name)) == options.kernel) chosen.push_back(i);
    if (chosen.size() > 1)
      throw Error(fmt::format("{}: several kernels are named '{}': {}; give the template arguments or the mangled name",
                              ptx_name, options.kernel, names()), ExitCode::Usage);
    if (chosen.empty())
      throw Error(fmt::format("{}: no kernel named '{}'; the file holds: {}", ptx_name, options.kernel, names()),
                  ExitCode::Usage);
  } else {
    for (std::size_t i = 0; i < module.kernels.size(); ++i) chosen.push_back(i);
  }
  std::vector<std::vector<CudaParam>> params;
  for (auto i : chosen) {
    const auto& k = module.kernels[i];
    std::vector<CudaParam> p;
    if (!cuda_source.empty() && k.source_line > 0) p = cuda_params(cuda_source, k.source_line, base_name(demangle(k.name)));
    if (p.size() != k.params.size()) p.clear();  // not found or not understood: PTX's names
    params.push_back(std::move(p));
  }
  KirText kir;
  try {
    kir = translate_ptx(module, chosen, params, ptx_name);
  } catch (const PtxError& e) {
    throw Error(fmt::format("{}:{}: error: {}", ptx_name, e.line(), e.what()));
  }
  // The verifier reads the result like any kernel file; what it refuses is the importer's bug or
  // a construct it let through: name the PTX line.
  auto parsed = isa::parse(kir.text, ptx_name + " (imported)");
  std::vector<isa::Diagnostic> diagnostics = parsed.diagnostics;
  if (parsed.ok()) diagnostics = isa::verify(parsed.module, kir.text);
  for (const auto& d : diagnostics) {
    if (d.severity != isa::Severity::Error) continue;
    const auto ptx_line = d.loc.line > 0 && d.loc.line <= kir.ptx_line.size() ? kir.ptx_line[d.loc.line - 1] : 0;
    throw Error(fmt::format("{}:{}: error: unsupported PTX: the imported instruction `{}` is refused: {}", ptx_name,
                            ptx_line, d.source_line, d.message));
  }
  Imported out;
  out.kir = std::move(kir.text);
  out.ptx = ptx;
  for (auto i : chosen) out.ptx_entries[ir_name(module.kernels[i].name)] = module.kernels[i].name;
  if (chosen.size() == 1) out.kernel = parsed.module.kernels.front().name;
  else if (options.kernel.empty() && chosen.size() > 1) out.kernel = "";
  return out;
}

std::map<std::string, std::uint32_t> parse_ptxas_registers(const std::string& log) {
  // ptxas info    : Compiling entry function 'saxpy' for 'sm_90'
  // ptxas info    : Used 10 registers, used 0 barriers, 380 bytes cmem[0]
  std::map<std::string, std::uint32_t> out;
  std::string current;
  std::size_t start = 0;
  while (start < log.size()) {
    const auto end = std::min(log.find('\n', start), log.size());
    const std::string line = log.substr(start, end - start);
    start = end + 1;
    if (const auto at = line.find("Compiling entry function '"); at != std::string::npos) {
      const auto from = at + std::string_view("Compiling entry function '").size();
      const auto to = line.find('\'', from);
      current = to == std::string::npos ? std::string() : line.substr(from, to - from);
    } else if (const auto used = line.find("Used "); used != std::string::npos && !current.empty()) {
      const auto word = line.find(" register", used);
      if (word == std::string::npos) continue;
      try {
        out[current] = static_cast<std::uint32_t>(std::stoul(line.substr(used + 5, word - used - 5)));
      } catch (const std::exception&) {
        // not a count: leave this kernel to the IR's analysis
      }
      current.clear();
    }
  }
  return out;
}

namespace {
// The same source compiled for sm_90 SASS with ptxas's -v: its register counts, by IR kernel name;
// empty when NVRTC cannot (the IR's analysis counts then).
std::map<std::string, std::uint32_t> ptxas_registers(const std::string& source, const std::string& name,
                                                     const std::vector<std::string>& options) {
  cuda::Nvrtc nvrtc;
  if (nvrtc.unavailable_reason()) return {};
  auto all = cuda::default_nvrtc_options();
  all.insert(all.end(), options.begin(), options.end());
  all.push_back("--ptxas-options=-v");
  const auto result = nvrtc.compile(source, "sm_90", all, name);
  if (!result.ok) return {};
  std::map<std::string, std::uint32_t> out;
  for (const auto& [ptx_name, count] : parse_ptxas_registers(result.log)) out[ir_name(ptx_name)] = count;
  return out;
}
}  // namespace

Imported import_file(const std::string& path, const ImportOptions& options) {
  std::string why;
  const auto text = isa::read_source_file(path, why);
  if (!text) throw Error(fmt::format("{}: {}", path, why));
  if (ends_with(path, ".cu")) {
    const std::string name = std::filesystem::path(path).filename().string();
    // NVRTC names the program's file in .file; keep the name the user gave for reports.
    auto imported = import_ptx(compile_cuda(*text, name, options.nvrtc_options), path + " (PTX from NVRTC)", *text, options);
    imported.ptxas_registers = ptxas_registers(*text, name, options.nvrtc_options);
    return imported;
  }
  // A .ptx file: its .file names the CUDA source; read it when it is there, for parameter names.
  std::string cuda_source;
  try {
    const auto module = read_ptx(*text);
    for (const auto& f : module.files) {
      if (!ends_with(f.path, ".cu")) continue;
      std::filesystem::path p(f.path);
      if (p.is_relative()) p = std::filesystem::path(path).parent_path() / p;
      std::string ignored;
      if (auto source = isa::read_source_file(p.string(), ignored)) cuda_source = std::move(*source);
      break;
    }
  } catch (const PtxError&) {
    // import_ptx reports it with the line
  }
  return import_ptx(*text, path, cuda_source, options);
}

}  // namespace warpsim::frontend
