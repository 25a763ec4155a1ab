// warpsim check | print | cfg: the IR at work without running anything.
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "device/errors.hpp"
#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "isa/printer.hpp"
#include "isa/source_file.hpp"
#include "isa/verifier.hpp"
#include "frontend/import.hpp"
#include "tools/cli.hpp"
#include "tools/file_run.hpp"

namespace warpsim::cli {

// Parses and verifies; appends every diagnostic to io.err; returns whether the module is clean.
bool load_module(const std::string& path, const std::string& text, isa::Module& module, Io& io) {
  auto parsed = isa::parse(text, path);
  for (const auto& d : parsed.diagnostics) io.err += d.format();
  if (!parsed.ok()) return false;
  module = std::move(parsed.module);
  const auto diagnostics = isa::verify(module, text);
  for (const auto& d : diagnostics) io.err += d.format();
  return !isa::has_errors(diagnostics);
}

std::string read_kernel_file(const std::string& path) {
  if (frontend::is_imported_file(path)) return kernel_file_text(path, {});  // the IR the front end makes of it
  std::string why;
  auto text = isa::read_source_file(path, why);
  if (!text) throw Error(fmt::format("{}: {}", path, why));
  return std::move(*text);
}

int cmd_check(const std::vector<std::string>& args, Io& io) {
  po::options_description options("warpsim check FILE... : parse and verify kernel files");
  options.add_options()("help,h", "show this help")("file", po::value<std::vector<std::string>>(),
                                                    "a .kir, .cu or .ptx file");
  po::positional_options_description positional;
  positional.add("file", -1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("file")) throw Error("check: no file given (warpsim check FILE...)", ExitCode::Usage);
  bool clean = true;
  std::size_t kernels = 0;
  const auto files = vm["file"].as<std::vector<std::string>>();
  for (const auto& path : files) {
    std::string text;
    try {
      text = read_kernel_file(path);
    } catch (const Error& e) {
      io.err += fmt::format("{}\n", e.what());
      clean = false;
      continue;
    }
    isa::Module module;
    if (load_module(path, text, module, io)) {
      if (module.kernels.empty()) {
        io.err += fmt::format("{}: error: no kernel in this file\n", path);
        clean = false;
        continue;
      }
      kernels += module.kernels.size();
      spdlog::debug("{}: {} kernel(s) clean", path, module.kernels.size());
    } else {
      clean = false;
    }
  }
  if (clean) io.out += fmt::format("{} file(s), {} kernel(s): no errors\n", files.size(), kernels);
  return clean ? 0 : static_cast<int>(ExitCode::InvalidInput);
}

int cmd_print(const std::vector<std::string>& args, Io& io) {
  po::options_description options("warpsim print FILE : the canonical form of a kernel file");
  options.add_options()("help,h", "show this help")("file", po::value<std::string>(), "a .kir, .cu or .ptx file");
  po::positional_options_description positional;
  positional.add("file", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("file")) throw Error("print: no file given (warpsim print FILE)", ExitCode::Usage);
  const auto path = vm["file"].as<std::string>();
  auto parsed = isa::parse(read_kernel_file(path), path);
  for (const auto& d : parsed.diagnostics) io.err += d.format();
  if (!parsed.ok()) return static_cast<int>(ExitCode::InvalidInput);
  io.out += isa::print(parsed.module);
  return 0;
}

namespace {

std::string block_name(const isa::Kernel& k, const isa::Cfg& cfg, std::uint32_t b) {
  if (b == isa::kVirtualExit) return "EXIT";
  if (b == isa::kNoBlock) return "-";
  const auto& block = cfg.blocks[b];
  return block.label >= 0 ? fmt::format("B{} ({})", b, k.labels[static_cast<std::size_t>(block.label)].name)
                          : fmt::format("B{}", b);
}

std::uint32_t line_of(const isa::Kernel& k, std::uint32_t pc) { return pc < k.code.size() ? k.code[pc].loc.line : 0; }
// " (saxpy.cu:4)" for an imported kernel's instruction, "" otherwise.
std::string origin_of(const isa::Kernel& k, std::uint32_t pc) {
  const std::string o = pc < k.code.size() ? k.origin_text(k.code[pc]) : "";
  return o.empty() ? o : " (" + o + ")";
}

std::string cfg_text(const isa::Kernel& k, const isa::KernelAnalysis& a) {
  std::string out = fmt::format("kernel {}: {} instructions, {} basic blocks, {} registers per thread\n", k.name,
                                k.code.size(), a.cfg.blocks.size(), a.registers_per_thread);
  for (std::uint32_t b = 0; b < a.cfg.blocks.size(); ++b) {
    const auto& block = a.cfg.blocks[b];
    std::string succ;
    for (auto s : block.successors) succ += (succ.empty() ? "" : ", ") + block_name(k, a.cfg, s);
    if (block.exits) succ += (succ.empty() ? "" : ", ") + std::string("EXIT");
    out += fmt::format("  {:<18} pc {:>3}-{:<3} lines {}-{}  -> {}   ipdom {}\n", block_name(k, a.cfg, b), block.begin,
                       block.end - 1, line_of(k, block.begin), line_of(k, block.end - 1), succ.empty() ? "-" : succ,
                       block_name(k, a.cfg, a.postdominators.idom[b]));
  }
  out += "  conditional branches and where they reconverge (immediate post-dominator):\n";
  bool any = false;
  for (std::uint32_t pc = 0; pc < k.code.size(); ++pc) {
    const auto rpc = a.reconvergence_pc[pc];
    if (rpc == isa::kNoBlock) continue;
    any = true;
    const auto& in = k.code[pc];
    const std::string where = rpc == isa::kExitPc ? std::string("kernel exit (paths meet only when their lanes exit)")
                                                   : fmt::format("pc {} (line {}, {})", rpc, line_of(k, rpc),
                                                                 block_name(k, a.cfg, a.cfg.block_of[rpc]));
    out += fmt::format("    pc {:>3} line {:>3}{}  {:<28} reconverges at {}\n", pc, in.loc.line, origin_of(k, pc), isa::print(k, in), where);
  }
  if (!any) out += "    (none)\n";
  for (const auto& loop : a.loops) {
    std::string blocks;
    for (auto b : loop.blocks) blocks += (blocks.empty() ? "" : ", ") + fmt::format("B{}", b);
    out += fmt::format("  loop with header {}: blocks {}\n", block_name(k, a.cfg, loop.header), blocks);
  }
  return out;
}

std::string dot_escape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\' || c == '{' || c == '}' || c == '<' || c == '>' || c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string cfg_dot(const isa::Kernel& k, const isa::KernelAnalysis& a) {
  std::string out = fmt::format("digraph \"{}\" {{\n  node [shape=box, fontname=\"monospace\"];\n", dot_escape(k.name));
  for (std::uint32_t b = 0; b < a.cfg.blocks.size(); ++b) {
    const auto& block = a.cfg.blocks[b];
    std::string body = dot_escape(block_name(k, a.cfg, b)) + "\\l";
    for (auto pc = block.begin; pc < block.end; ++pc)
      body += fmt::format("{:>3}: {}\\l", pc, dot_escape(isa::print(k, k.code[pc])));
    out += fmt::format("  B{} [label=\"{}\"];\n", b, body);
    for (std::size_t i = 0; i < block.successors.size(); ++i) {
      const char* style = block.successors.size() == 2 ? (i == 0 ? " [label=\"taken\"]" : " [label=\"fall\"]") : "";
      out += fmt::format("  B{} -> B{}{};\n", b, block.successors[i], style);
    }
    if (block.exits) out += fmt::format("  B{} -> EXIT;\n", b);
  }
  out += "  EXIT [shape=oval];\n";
  for (std::uint32_t pc = 0; pc < k.code.size(); ++pc) {
    const auto rpc = a.reconvergence_pc[pc];
    if (rpc == isa::kNoBlock) continue;
    const auto from = a.cfg.block_of[pc];
    const std::string to = rpc == isa::kExitPc ? "EXIT" : fmt::format("B{}", a.cfg.block_of[rpc]);
    out += fmt::format("  B{} -> {} [style=dashed, color=blue, constraint=false, label=\"reconverge\"];\n", from, to);
  }
  out += "}\n";
  return out;
}

}  // namespace

int cmd_cfg(const std::vector<std::string>& args, Io& io) {
  po::options_description options("warpsim cfg FILE [--kernel NAME] [--format text|dot]");
  options.add_options()("help,h", "show this help")("file", po::value<std::string>(), "a .kir, .cu or .ptx file")(
      "kernel,k", po::value<std::string>(), "only this kernel")(
      "format,f", po::value<std::string>()->default_value("text"), "text or dot (Graphviz)")(
      "nvcc-opt", po::value<std::vector<std::string>>(), "an NVRTC option for a .cu file (repeatable)");
  po::positional_options_description positional;
  positional.add("file", 1);
  if (wants_help(args)) {
    io.out += help_text(options);
    return 0;
  }
  const auto vm = parse_args(args, options, positional);
  if (!vm.count("file")) throw Error("cfg: no file given (warpsim cfg FILE)", ExitCode::Usage);
  const auto format = format_option(vm, {"text", "dot"});
  const auto path = vm["file"].as<std::string>();
  isa::Module module;
  const auto nvcc = vm.count("nvcc-opt") ? vm["nvcc-opt"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (!load_module(path, kernel_file_text(path, nvcc), module, io)) return static_cast<int>(ExitCode::InvalidInput);
  bool found = false;
  for (const auto& k : module.kernels) {
    if (vm.count("kernel") && k.name != vm["kernel"].as<std::string>() &&
        frontend::demangle(k.name).find(vm["kernel"].as<std::string>()) == std::string::npos)
      continue;
    found = true;
    const auto analysis = isa::analyze(k);
    io.out += format == "dot" ? cfg_dot(k, analysis) : cfg_text(k, analysis);
  }
  if (!found && !vm.count("kernel")) throw Error(fmt::format("{}: no kernel in this file", path));
  if (!found) throw Error(fmt::format("{}: no kernel named '{}'", path, vm["kernel"].as<std::string>()));
  return 0;
}

}  // namespace warpsim::cli
