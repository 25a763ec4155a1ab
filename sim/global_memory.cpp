#include "sim/global_memory.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "device/errors.hpp"

namespace warpsim::sim {

std::uint64_t GlobalMemory::allocate(std::size_t bytes, const std::string& label, bool touch) {
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 47;
  if (bytes > kLimit - next_)
    throw Error(fmt::format("allocation of {} bytes for '{}' does not fit the simulated address space", bytes, label));
  // Simulated device memory lives in host memory: refuse more than half of it, with a message,
  // rather than let the operating system kill the process.
  static const std::uint64_t budget = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) / 2 : std::uint64_t{1} << 34;
  }();
  if (bytes > budget || allocated_ + bytes > budget)
    throw Error(fmt::format("allocation of {} bytes for '{}' would take the simulated device memory to {} bytes, more "
                            "than the {} bytes (half this machine's memory) it may use",
                            bytes, label, allocated_ + bytes, budget));
  allocated_ += bytes;
  Allocation a;
  a.base = next_;
  a.size = bytes;
  a.label = label;
  // Touched: malloc and the zeros written once (calloc, then a memset, would zero twice under
  // AddressSanitizer, whose calloc writes them itself). Untouched: calloc's lazy zero pages.
  const std::size_t size = bytes == 0 ? 1 : bytes;
  a.data.reset(static_cast<std::byte*>(touch ? std::malloc(size) : std::calloc(size, 1)));
  if (!a.data) throw Error(fmt::format("allocation of {} bytes for '{}' failed: out of host memory", bytes, label));
  if (touch) std::memset(a.data.get(), 0, size);
  const std::uint64_t end = a.base + bytes + kGap;
  next_ = (end + kAlignment - 1) / kAlignment * kAlignment;
  allocations_.push_back(std::move(a));
  return allocations_.back().base;
}

int GlobalMemory::find(std::uint64_t address, std::uint64_t bytes) const {
  auto it = std::upper_bound(allocations_.begin(), allocations_.end(), address,
                             [](std::uint64_t a, const Allocation& x) { return a < x.base; });
  if (it == allocations_.begin()) return -1;
  --it;
  if (address - it->base >= it->size || bytes > it->size - (address - it->base)) return -1;
  return static_cast<int>(it - allocations_.begin());
}

std::string GlobalMemory::describe(std::uint64_t address, std::uint64_t bytes) const {
  if (allocations_.empty()) return "no memory is allocated";
  auto range = [](const Allocation& a) {
    return fmt::format("'{}' [{:#x}, {:#x}) of {} bytes", a.label, a.base, a.end(), a.size);
  };
  auto it = std::upper_bound(allocations_.begin(), allocations_.end(), address,
                             [](std::uint64_t a, const Allocation& x) { return a < x.base; });
  if (it == allocations_.begin())
    return fmt::format("{} bytes before the start of {}", it->base - address, range(*it));
  const Allocation& below = *(it - 1);
  if (address < below.end())  // starts inside, runs past the end
    return fmt::format("the last {} bytes lie past the end of {}", address + bytes - below.end(), range(below));
  const std::uint64_t past = address - below.end();
  if (it != allocations_.end() && it->base - address < past)
    return fmt::format("{} bytes before the start of {}", it->base - address, range(*it));
  if (past == 0) return fmt::format("just past the end of {}", range(below));
  return fmt::format("{} bytes past the end of {}", past, range(below));
}

void FreeBytes::operator()(std::byte* p) const noexcept { std::free(p); }

std::span<std::byte> GlobalMemory::storage(std::uint64_t address, std::uint64_t bytes) {
  if (bytes == 0) return {};
  const int i = find(address, bytes);
  if (i < 0)
    throw Error(fmt::format("write of {} bytes at {:#x} is outside every allocation: {}", bytes, address,
                            describe(address, bytes)));
  const Allocation& a = allocations_[static_cast<std::size_t>(i)];
  return {a.data.get() + (address - a.base), static_cast<std::size_t>(bytes)};
}

void GlobalMemory::write(std::uint64_t address, std::span<const std::byte> data) {
  if (data.empty()) return;
  std::memcpy(storage(address, data.size()).data(), data.data(), data.size());
}

void GlobalMemory::read(std::uint64_t address, std::span<std::byte> out) const {
  if (out.empty()) return;
  const int i = find(address, out.size());
  if (i < 0)
    throw Error(fmt::format("read of {} bytes at {:#x} is outside every allocation: {}", out.size(), address,
                            describe(address, out.size())));
  const Allocation& a = allocations_[static_cast<std::size_t>(i)];
  std::memcpy(out.data(), a.data.get() + (address - a.base), out.size());
}

}  // namespace warpsim::sim
