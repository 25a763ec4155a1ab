// A scenario is a kernel plus its launches, input buffers and a host reference that checks the
// output. The same scenario runs on any Device (simulator or GPU).
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "device/device.hpp"
#include "device/errors.hpp"
#include "kernels/library.hpp"

namespace warpsim::kernels {

struct ParamSpec {
  std::string name;
  std::uint64_t default_value = 0;
  std::string help;
  std::uint64_t min = 1;  // values outside [min, max] are refused before anything runs
  std::uint64_t max = 0xffffffffu;
};
// Ranges every scenario uses for its launch shapes and sizes.
constexpr std::uint64_t kMaxBlockDim = 1024, kMaxBlockZ = 64, kMaxGrid = 65535;
constexpr std::uint64_t kMaxElements = 1ull << 28;  // 1 GiB of f32 per buffer
using Params = std::map<std::string, std::uint64_t>;

// What a progress line reads while a run goes on (written by the Session and the device).
struct ProgressCounters {
  std::atomic<std::uint64_t> launch{0};        // 1-based launch now running, 0 before the first
  std::atomic<std::uint64_t> blocks_total{0};  // blocks of that launch
  std::atomic<std::uint64_t> blocks_done{0};   // finished (functional) or dispatched (timing)
};

struct RunOptions {
  WarpSelection warps;
  bool record_trace = false;
  bool read_all_buffers = false;  // kernel files: read every buffer back (validate compares them), not only --dump ones
  std::uint64_t seed = 1;
  ProgressCounters* progress = nullptr;  // null: nobody watches
};

struct LaunchRecord {
  std::string kernel_file;
  const LoadedKernel* kernel = nullptr;  // owned by the Outcome
  LaunchResult result;
  double seconds = 0;  // host wall time of the launch (device.launch), for benchmarks
};

// A buffer the host read back after the launches, as the device left it.
struct OutputBuffer {
  std::string label;
  std::vector<std::byte> bytes;
  bool is_float = false;         // f32 elements: compared within a tolerance between devices
  bool device_specific = false;  // differs by device on purpose (clock values): not compared
};

// The launch that faulted: what the device said and, when one lane caused it, where.
struct FaultInfo {
  std::string message;
  std::size_t launch = 0;  // 1-based; the launches before it completed and are in the Outcome
  std::string kernel, kernel_file;
  Dim3 grid, block;
  std::optional<FaultSite> site;
};

struct Outcome {
  std::vector<std::unique_ptr<LoadedKernel>> kernels;
  std::vector<LaunchRecord> launches;
  std::vector<OutputBuffer> outputs;  // every download, in order
  bool checked = false;  // a host reference ran
  bool passed = false;
  std::string check;     // what the reference compared, and the first difference when it failed
  std::optional<FaultInfo> fault;  // set when a launch faulted: the report shows what ran before it
};

// Thrown by Session::launch when the device faults: the fault, and the Outcome of everything that
// ran before it (the scenario's own Outcome is moved into it), so the report can still be printed.
class FaultedRun : public KernelFault {
 public:
  FaultedRun(const KernelFault& fault, std::shared_ptr<Outcome> partial)
      : KernelFault(fault), outcome(std::move(partial)) {}
  std::shared_ptr<Outcome> outcome;
};

class Scenario {
 public:
  virtual ~Scenario() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  virtual std::string_view kernel_file() const = 0;  // the embedded .kir it runs
  virtual std::vector<ParamSpec> params() const = 0;
  // Runs on `device`; `params` holds every parameter (defaults filled in by resolve_params).
  virtual Outcome run(Device& device, const Params& params, const RunOptions& options) const = 0;
};

// Every built-in scenario, in the order `warpsim list` shows them.
std::span<const std::unique_ptr<Scenario>> all_scenarios();
const Scenario* find_scenario(std::string_view name);
// Fills in defaults; throws Error for a parameter the scenario does not have (exit 2) or a value
// outside its range (exit 1).
Params resolve_params(const Scenario& scenario, const Params& given);

// Deterministic inputs: the same seed gives the same bytes on every machine.
std::vector<float> random_floats(std::size_t count, std::uint64_t seed);     // in [0, 1)
std::vector<std::uint32_t> random_u32(std::size_t count, std::uint64_t seed, std::uint32_t bound);
// The same sequences one value at a time (splitmix64 from the seed): random_floats(n, seed)[i] is
// the i-th next_float() of RandomStream{seed}, random_u32(n, seed, bound)[i] the i-th next_u32(bound).
struct RandomStream {
  std::uint64_t state = 0;
  std::uint64_t next();
  float next_float() { return static_cast<float>(next() >> 40) * 0x1p-24f; }  // in [0, 1)
  // Below `bound`, or any 32-bit value when it is 0.
  std::uint32_t next_u32(std::uint32_t bound) {
    return bound ? static_cast<std::uint32_t>(next() % bound) : static_cast<std::uint32_t>(next());
  }
};

// Allocations, uploads and launches of one scenario run, recorded into an Outcome.
class Session {
 public:
  Session(Device& device, const RunOptions& options, Outcome& outcome) : device_(device), options_(options), outcome_(outcome) {}
  const LoadedKernel& kernel(std::string_view file, std::string_view name = {});  // embedded
  const LoadedKernel& kernel_at(const std::string& path, std::string_view name = {});  // on disk
  template <typename T>
  std::uint64_t upload(const std::string& label, const std::vector<T>& data) {
    auto address = device_.allocate(data.size() * sizeof(T), label);
    device_.write(address, std::as_bytes(std::span(data)));
    labels_.emplace_back(address, label);
    return address;
  }
  std::uint64_t zeros(const std::string& label, std::size_t bytes) {
    auto address = device_.allocate(bytes, label);
    labels_.emplace_back(address, label);
    return address;
  }
  template <typename T>
  std::vector<T> download(std::uint64_t address, std::size_t count) {
    std::vector<T> out(count);
    device_.read(address, std::as_writable_bytes(std::span(out)));
    record_output(address, std::as_bytes(std::span(out)), std::is_floating_point_v<T>);
    return out;
  }
  // Reads back `bytes` bytes and records them as an output (the label is the allocation's).
  void download_bytes(std::uint64_t address, std::size_t bytes, bool is_float) {
    std::vector<std::byte> out(bytes);
    device_.read(address, out);
    record_output(address, out, is_float);
  }
  // Runs and records one launch (the record is in the Outcome; references to it would dangle as
  // more launches are added, so none is returned).
  void launch(const LoadedKernel& kernel, Dim3 grid, Dim3 block, std::vector<std::uint64_t> args);
  Device& device() { return device_; }

 private:
  void record_output(std::uint64_t address, std::span<const std::byte> bytes, bool is_float);
  Device& device_;
  const RunOptions& options_;
  Outcome& outcome_;
  std::vector<std::pair<std::uint64_t, std::string>> labels_;
};

std::uint64_t float_bits(float f);
std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b);

}  // namespace warpsim::kernels
