// Kernel files run in-process on the simulator, as the CUDA front end's tests do.
#pragma once
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/gpu.hpp"
#include "tools/file_run.hpp"

namespace warpsim::test {

// A file of tests/data/cuda/.
inline std::string cuda_data(const std::string& name) { return std::string(WARPSIM_TEST_DATA_DIR) + "/cuda/" + name; }

// The simulator behind the Device interface, for tests that watch what passes through it: a
// subclass overrides the calls it watches (read, launch) and calls these.
class SimDevice : public Device {
 public:
  std::string name() const override { return gpu_.name(); }
  const DeviceLimits& limits() const override { return gpu_.limits(); }
  std::uint64_t allocate(std::size_t bytes, const std::string& label) override { return gpu_.allocate(bytes, label); }
  void write(std::uint64_t address, std::span<const std::byte> data) override { gpu_.write(address, data); }
  void read(std::uint64_t address, std::span<std::byte> out) override { gpu_.read(address, out); }
  LaunchResult launch(const LaunchSpec& spec) override { return gpu_.launch(spec); }

 private:
  sim::Gpu gpu_;
};

// Runs `file` (.kir, .cu or .ptx) once with every buffer read back.
inline kernels::Outcome run_file(const std::string& file, Dim3 grid, Dim3 block,
                                 std::vector<std::pair<std::string, std::string>> args, std::vector<std::string> buffers) {
  cli::FileRun r;
  r.path = file;
  r.grid = grid;
  r.block = block;
  r.args = std::move(args);
  for (const auto& b : buffers) r.buffers.push_back(cli::parse_buffer_spec(b));
  sim::Gpu gpu;
  kernels::RunOptions options;
  options.read_all_buffers = true;
  return cli::run_file(gpu, r, options);
}

}  // namespace warpsim::test
