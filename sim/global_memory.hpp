// The simulated global address space: allocations at increasing 256-byte-aligned addresses from
// 0x10000000, each followed by an unmapped gap so that running off the end of one buffer faults
// instead of landing in the next.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace warpsim::sim {

struct FreeBytes {
  void operator()(std::byte* p) const noexcept;
};

struct Allocation {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  std::string label;
  // Host storage from malloc or calloc, zeroed and aligned to 16 bytes (GlobalMemory::allocate's `touch`).
  std::unique_ptr<std::byte[], FreeBytes> data;
  std::uint64_t end() const { return base + size; }
};

class GlobalMemory {
 public:
  static constexpr std::uint64_t kBase = 0x10000000;
  static constexpr std::uint64_t kAlignment = 256;
  static constexpr std::uint64_t kGap = 256;  // unmapped bytes at least between two allocations

  // Zeroed bytes. `touch` writes the zeros now, so the pages are the process's before a launch (the
  // bench times only the simulation: with the operating system's lazy zero pages a kernel's first
  // writes to an output would fault them in while it runs, stop 24); false leaves them lazy, for
  // a buffer the caller fills at once (storage).
  std::uint64_t allocate(std::size_t bytes, const std::string& label, bool touch = true);
  // The allocation holding [address, address + bytes), or -1.
  int find(std::uint64_t address, std::uint64_t bytes) const;
  const Allocation& at(int index) const { return allocations_[static_cast<std::size_t>(index)]; }
  std::size_t count() const { return allocations_.size(); }
  // Where an address lies, for messages: "12 bytes past the end of 'c' [0x10000000, 0x10000fa0)".
  std::string describe(std::uint64_t address, std::uint64_t bytes) const;

  // Host copies; throw warpsim::Error when the range is not inside one allocation.
  void write(std::uint64_t address, std::span<const std::byte> data);
  // The host storage of [address, address + bytes), to fill in place; throws as write does.
  std::span<std::byte> storage(std::uint64_t address, std::uint64_t bytes);
  void read(std::uint64_t address, std::span<std::byte> out) const;

 private:
  std::vector<Allocation> allocations_;  // sorted by base (addresses only grow)
  std::uint64_t next_ = kBase;
  std::uint64_t allocated_ = 0;  // bytes allocated so far (checked against the host-memory budget)
};

}  // namespace warpsim::sim
