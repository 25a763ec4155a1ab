// The simulated GPU: a Device that runs verified kernels, through the cycle-approximate timing model
// (sim/timing/) or functionally, and measures warp formation, SIMT efficiency, divergence per branch
// and per warp, cycles, occupancy, stalls and memory figures, and optionally a trace.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "device/device.hpp"
#include "sim/config.hpp"
#include "sim/decode.hpp"
#include "sim/global_memory.hpp"
#include "sim/timing/sector_cache.hpp"

namespace warpsim::sim {

class Gpu final : public Device {
 public:
  // Throws warpsim::Error when the config is unusable (validate_config).
  explicit Gpu(Config config = {});

  std::string name() const override;
  const DeviceLimits& limits() const override { return config_.limits; }
  std::uint64_t allocate(std::size_t bytes, const std::string& label) override;
  std::uint64_t allocate_to_fill(std::size_t bytes, const std::string& label) override {
    return memory_.allocate(bytes, label, false);
  }
  void write(std::uint64_t address, std::span<const std::byte> data) override;
  void read(std::uint64_t address, std::span<std::byte> out) override;
  std::span<std::byte> host_storage(std::uint64_t address, std::size_t bytes) override {
    return memory_.storage(address, bytes);
  }
  LaunchResult launch(const LaunchSpec& spec) override;

  const Config& config() const { return config_; }
  const GlobalMemory& memory() const { return memory_; }

 private:
  LaunchResult launch_functional(const LaunchSpec& spec, const Program& program);
  void restore_l2();  // Config::l2_start == Restored: the copy traffic before a timed CUDA launch

  Config config_;
  GlobalMemory memory_;
  SectorCache l2_;  // timing mode: the L2's tags, kept between launches as on the GPU
};

}  // namespace warpsim::sim
