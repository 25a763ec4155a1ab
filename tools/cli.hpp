// Shared pieces of the command line: global options, the command table, argument parsing helpers.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "device/launch.hpp"
#include "isa/module.hpp"

namespace warpsim::cli {

namespace po = boost::program_options;

// Output goes through these so tests can capture it.
struct Io {
  std::string out;  // what the command prints to standard output
  std::string err;  // diagnostics and warnings for standard error
};

using CommandFn = int (*)(const std::vector<std::string>& args, Io& io);

struct Command {
  std::string_view name;
  std::string_view summary;
  CommandFn run;
};

// Runs `warpsim ARGS...` (without the program name) and returns the exit code; never throws.
int run_cli(const std::vector<std::string>& args, Io& io);

// Parses `args` against `options` (with positional names) or throws po::error. `--help` is
// answered by the caller.
po::variables_map parse_args(const std::vector<std::string>& args, const po::options_description& options,
                             const po::positional_options_description& positional);

bool wants_help(const std::vector<std::string>& args);
// The --format value, when it is one of `allowed`; a usage error otherwise.
std::string format_option(const po::variables_map& vm, std::initializer_list<std::string_view> allowed);
std::string help_text(const po::options_description& options);

// The most host threads --threads gives run, compare, validate and bench.
constexpr std::uint32_t kMaxHostThreads = 256;
// One --threads value, 1..kMaxHostThreads; a usage error otherwise.
std::uint32_t parse_threads(std::string_view text);
// --threads and --warp-size in their ranges, as usage errors, before a device is built.
void check_run_options(const po::variables_map& vm);

Dim3 parse_dim3(std::string_view text, std::string_view what);                 // "64", "16,16", "4x8x2"
std::pair<std::string, std::string> split_assignment(std::string_view text, std::string_view what);  // "n=1003"
// "a,b,,c" -> {a, b, "", c}: a comma-separated option value, empty items kept (the caller refuses them).
std::vector<std::string> split_list(const std::string& text);
std::uint64_t parse_u64(std::string_view text, std::string_view what);
WarpSelection parse_warp_selection(std::string_view text);  // default|all|divergent|B0-B1

// The text of a kernel file (of a .cu or .ptx file, the .kir the CUDA front end makes of it), or
// Error with why it cannot be read (directories included).
std::string read_kernel_file(const std::string& path);
// Parses and verifies; appends every diagnostic to io.err; returns whether the module is clean.
bool load_module(const std::string& path, const std::string& text, isa::Module& module, Io& io);

int cmd_check(const std::vector<std::string>& args, Io& io);
int cmd_print(const std::vector<std::string>& args, Io& io);
int cmd_cfg(const std::vector<std::string>& args, Io& io);
int cmd_import(const std::vector<std::string>& args, Io& io);
int cmd_list(const std::vector<std::string>& args, Io& io);
int cmd_run(const std::vector<std::string>& args, Io& io);
int cmd_compare(const std::vector<std::string>& args, Io& io);
int cmd_sweep(const std::vector<std::string>& args, Io& io);
int cmd_bench(const std::vector<std::string>& args, Io& io);
int cmd_emit_cuda(const std::vector<std::string>& args, Io& io);
int cmd_validate(const std::vector<std::string>& args, Io& io);
int cmd_gpus(const std::vector<std::string>& args, Io& io);
int cmd_calibrate(const std::vector<std::string>& args, Io& io);
int cmd_timing_report(const std::vector<std::string>& args, Io& io);
int cmd_rerun(const std::vector<std::string>& args, Io& io);

}  // namespace warpsim::cli
