// The real-hardware Device: kernels emitted as CUDA C++, compiled with NVRTC for the GPU's own
// architecture and launched with the driver API (an imported kernel's timed launches run its own
// PTX instead, loaded by the driver: GpuOptions::native_build); libcuda and libnvrtc are opened at
// run time, so the same binary runs (and reports why it cannot) on a machine without a GPU.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuda/emitter.hpp"
#include "device/device.hpp"

namespace warpsim::cuda {

struct GpuOptions {
  int device = 0;                       // CUDA device ordinal
  unsigned warmups = 3;                 // untimed plain launches before the timed ones
  unsigned repeats = 10;                // timed plain launches; kernel_ms is their median; 0: no timing
  std::uint32_t trace_capacity = 1024;  // first guess of records per warp (grown and rerun on overflow)
  std::uint64_t max_trace_bytes = 1ull << 30;
  std::vector<std::string> instrumented_options;  // extra NVRTC options for instrumented mode (e.g. "-G")
  // false: no instrumented run; memory afterwards is the last timed plain run's (restored before it),
  // and the stats hold kernel_ms only. Microbenchmarks that read %clock64 need the plain build.
  bool instrumented = true;
  // true: an imported kernel's timed launches run its own build (LaunchSpec::native_ptx, loaded by
  // the driver); false, or a .kir kernel: the CUDA the emitter writes from the IR. The instrumented
  // run that records the masks is always the emitted one.
  bool native_build = true;
};

class Gpu final : public Device {
 public:
  // Why no Gpu can be made here, in one line (no driver, no GPU, no NVRTC); nullopt when one can.
  static std::optional<std::string> unavailable_reason(int device = 0);

  // Throws Error (ExitCode::NoDevice) with unavailable_reason() when there is no usable GPU.
  explicit Gpu(GpuOptions options = {});
  ~Gpu() override;

  std::string name() const override;
  const DeviceLimits& limits() const override;
  std::uint64_t allocate(std::size_t bytes, const std::string& label) override;
  void write(std::uint64_t address, std::span<const std::byte> data) override;
  void read(std::uint64_t address, std::span<std::byte> out) override;
  // Runs the kernel: warm-ups and timed repeats of the plain build (device memory restored before
  // each, so the launch's effect on memory is that of one run; each then queued behind a kernel
  // that evicts the L2, so it starts cold and its time excludes the launch overhead), then one
  // instrumented run whose
  // trace gives the stats (and the Trace when spec.record_trace).
  LaunchResult launch(const LaunchSpec& spec) override;

  std::string arch() const;  // "sm_90"

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warpsim::cuda
