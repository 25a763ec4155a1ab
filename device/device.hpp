// One interface, two implementations: sim::Gpu (the simulator) and cuda::Gpu (real hardware).
// A scenario allocates, writes, launches and reads back through it and never knows which it has.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "device/launch.hpp"
#include "device/stats.hpp"
#include "device/trace.hpp"

namespace warpsim {

struct LaunchResult {
  LaunchStats stats;
  std::optional<Trace> trace;  // when LaunchSpec::record_trace
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;
  virtual const DeviceLimits& limits() const = 0;
  // Returns the device address of `bytes` fresh bytes (zeroed). `label` names it in messages.
  virtual std::uint64_t allocate(std::size_t bytes, const std::string& label) = 0;
  // The same for bytes the caller fills at once through host_storage (the simulator leaves them to
  // the fill instead of writing zeros first).
  virtual std::uint64_t allocate_to_fill(std::size_t bytes, const std::string& label) { return allocate(bytes, label); }
  virtual void write(std::uint64_t address, std::span<const std::byte> data) = 0;
  virtual void read(std::uint64_t address, std::span<std::byte> out) = 0;
  // Where the device keeps [address, address + bytes) in host memory, to fill in place without a
  // copy (the simulator); empty where it does not (a real GPU: write instead).
  virtual std::span<std::byte> host_storage(std::uint64_t /*address*/, std::size_t /*bytes*/) { return {}; }
  // Validates the launch (validate_launch) and runs it; throws Error / KernelFault.
  virtual LaunchResult launch(const LaunchSpec& spec) = 0;
};

}  // namespace warpsim
