// The simulated GPU: a Device that runs verified kernels functionally (no timing yet) and measures
// warp formation, SIMT efficiency, divergence per branch and per warp, and optionally a trace.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "device/device.hpp"
#include "sim/config.hpp"
#include "sim/global_memory.hpp"

namespace warpsim::sim {

class Gpu final : public Device {
 public:
  // Throws warpsim::Error when the config is unusable (validate_config).
  explicit Gpu(Config config = {});

  std::string name() const override;
  const DeviceLimits& limits() const override { return config_.limits; }
  std::uint64_t allocate(std::size_t bytes, const std::string& label) override;
  void write(std::uint64_t address, std::span<const std::byte> data) override;
  void read(std::uint64_t address, std::span<std::byte> out) override;
  LaunchResult launch(const LaunchSpec& spec) override;

  const Config& config() const { return config_; }
  const GlobalMemory& memory() const { return memory_; }

 private:
  Config config_;
  GlobalMemory memory_;
};

}  // namespace warpsim::sim
