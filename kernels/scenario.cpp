#include "kernels/scenario.hpp"

#include <bit>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

#include "device/errors.hpp"

namespace warpsim::kernels {

namespace {
// splitmix64: tiny, well known, and identical on every platform (std distributions are not).
std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

std::uint64_t RandomStream::next() { return splitmix(state); }

std::vector<float> random_floats(std::size_t count, std::uint64_t seed) {
  std::vector<float> out(count);
  RandomStream r{seed};
  for (auto& v : out) v = r.next_float();
  return out;
}

std::vector<std::uint32_t> random_u32(std::size_t count, std::uint64_t seed, std::uint32_t bound) {
  std::vector<std::uint32_t> out(count);
  RandomStream r{seed};
  for (auto& v : out) v = r.next_u32(bound);
  return out;
}

std::uint64_t float_bits(float f) { return std::bit_cast<std::uint32_t>(f); }

std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) {
  if (b == 0) throw Error(fmt::format("{} elements cannot be split into blocks of 0", a));
  const auto q = (a + b - 1) / b;
  if (q > 0xffffffffull) throw Error(fmt::format("{} / {} gives more blocks than a grid can hold", a, b));
  return static_cast<std::uint32_t>(q);
}

const LoadedKernel& Session::kernel(std::string_view file, std::string_view name) {
  for (const auto& k : outcome_.kernels)
    if (k->file == "kernels/" + std::string(file) && (name.empty() || k->kernel->name == name)) return *k;
  outcome_.kernels.push_back(load_embedded(file, name));
  return *outcome_.kernels.back();
}

const LoadedKernel& Session::kernel_at(const std::string& path, std::string_view name) {
  for (const auto& k : outcome_.kernels)
    if (k->file == path && (name.empty() || k->kernel->name == name)) return *k;
  outcome_.kernels.push_back(load_kernel_file(path, name));
  return *outcome_.kernels.back();
}

void Session::launch(const LoadedKernel& kernel, Dim3 grid, Dim3 block, std::vector<std::uint64_t> args) {
  LaunchSpec spec;
  spec.kernel = kernel.kernel;
  spec.analysis = &kernel.analysis;
  spec.file = kernel.file;
  spec.source_text = kernel.text;
  if (!kernel.native_ptx.empty()) {
    spec.native_ptx = &kernel.native_ptx;
    spec.native_entry = kernel.native_entry;
  }
  spec.grid = grid;
  spec.block = block;
  spec.args = std::move(args);
  spec.warps = options_.warps;
  spec.record_trace = options_.record_trace;
  if (options_.progress != nullptr) {
    options_.progress->blocks_done = 0;
    options_.progress->blocks_total = grid.count();
    options_.progress->launch = outcome_.launches.size() + 1;
    spec.progress = &options_.progress->blocks_done;
  }
  LaunchRecord record;
  record.kernel_file = kernel.file;
  record.kernel = &kernel;
  const auto start = std::chrono::steady_clock::now();
  try {
    record.result = device_.launch(spec);
  } catch (const KernelFault& fault) {
    if (fault.code() == ExitCode::Internal) throw;
    outcome_.fault = FaultInfo{fault.what(), outcome_.launches.size() + 1, kernel.kernel->name, kernel.file, grid,
                               block, fault.site};
    throw FaultedRun(fault, std::make_shared<Outcome>(std::move(outcome_)));
  }
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome_.launches.push_back(std::move(record));
}

void Session::record_output(std::uint64_t address, std::span<const std::byte> bytes, bool is_float) {
  std::string label = "buffer";
  for (const auto& [a, l] : labels_)
    if (a == address) label = l;
  outcome_.outputs.push_back({label, std::vector<std::byte>(bytes.begin(), bytes.end()), is_float});
}

Params resolve_params(const Scenario& scenario, const Params& given) {
  Params out;
  const auto specs = scenario.params();
  for (const auto& p : specs) out[p.name] = p.default_value;
  for (const auto& [name, value] : given) {
    if (!out.count(name)) {
      std::string names;
      for (const auto& p : specs) names += (names.empty() ? "" : ", ") + p.name;
      throw Error(fmt::format("scenario '{}' has no parameter '{}' (it has: {})", scenario.name(), name,
                              names.empty() ? "none" : names),
                  ExitCode::Usage);
    }
    out[name] = value;
  }
  for (const auto& p : specs) {
    const auto v = out[p.name];
    if (v < p.min || v > p.max)
      throw Error(fmt::format("scenario '{}': {} = {} is out of range ({}..{})", scenario.name(), p.name, v, p.min, p.max),
                  ExitCode::Usage);
  }
  return out;
}

}  // namespace warpsim::kernels
