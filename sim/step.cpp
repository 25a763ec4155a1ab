#include "sim/step.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "sim/bits.hpp"
#include "sim/lanes.hpp"

namespace warpsim::sim {

namespace {
bool writes_memory(isa::TimingClass c) {
  using isa::TimingClass;
  return c == TimingClass::StoreGlobal || c == TimingClass::StoreShared || c == TimingClass::AtomGlobal ||
         c == TimingClass::AtomShared;
}

// Host bytes of an access, or nullptr when it does not lie in memory (the step will fault).
// `cache` holds the allocation the previous lane hit: lanes of a warp mostly share one.
const std::byte* host_bytes(const Inst& in, const LaneContext& c, std::uint64_t address, int& cache) {
  const unsigned size = in.access_bytes;
  if (in.space == isa::Space::Local) return nullptr;  // a thread's own memory: writes to it are not progress
  if (isa::is_shared_memory(in.timing)) {
    if (address >= c.shared_bytes || c.shared_bytes - address < size) return nullptr;
    return c.shared + address;
  }
  if (cache >= 0) {
    const Allocation& a = c.global->at(cache);
    if (address >= a.base && address - a.base <= a.size && a.size - (address - a.base) >= size)
      return a.data.get() + (address - a.base);
  }
  cache = c.global->find(address, size);
  if (cache < 0) return nullptr;
  return c.global->at(cache).data.get() + (address - c.global->at(cache).base);
}

template <class W>
std::uint64_t relaxed_load(const std::byte* p) {
  return std::atomic_ref<W>(*reinterpret_cast<W*>(const_cast<std::byte*>(p))).load(std::memory_order_relaxed);
}

// The first (up to) 8 bytes at p. Global memory may be written by blocks on other host threads at
// the same time, so it is read as the executor reads it: a relaxed atomic load (a plain copy there
// is a data race, which ThreadSanitizer reports); shared memory belongs to this block alone. A
// misaligned global address is copied: the step faults on it before anything else runs.
std::uint64_t read_value(const std::byte* p, unsigned size, bool shared) {
  const unsigned width = size > 8 ? 8 : size;
  if (!shared && reinterpret_cast<std::uintptr_t>(p) % width == 0) {
    switch (width) {
      case 1: return relaxed_load<std::uint8_t>(p);
      case 2: return relaxed_load<std::uint16_t>(p);
      case 4: return relaxed_load<std::uint32_t>(p);
      case 8: return relaxed_load<std::uint64_t>(p);
      default: break;
    }
  }
  std::uint64_t v = 0;
  std::memcpy(&v, p, width);
  return v;
}
}  // namespace

void StepSink::record_access(const Inst& in, const LaneContext& c, std::uint64_t exec) {
  std::uint64_t* const addresses = record.addresses;
  if (in.space == isa::Space::Local) {
    // Local memory as the GPU lays it out: the same offset of a warp's lanes in consecutive units
    // of the access size (at least a word), so a warp's access to one element is one coalesced run.
    lanes::lane_addresses<true>(in, c, addresses);
    const std::uint64_t unit = in.access_bytes < 4 ? 4 : in.access_bytes;
    const std::uint64_t stride = unit * c.warp_size;
    for (std::uint64_t m = exec; m != 0; m &= m - 1) {
      const unsigned l = lanes::lowest_lane(m);
      const std::uint64_t a = addresses[l];
      addresses[l] = c.local_window + a / unit * stride + l * unit + a % unit;
    }
    return;
  }
  if (isa::is_shared_memory(in.timing))
    lanes::lane_addresses<true>(in, c, addresses);
  else
    lanes::lane_addresses<false>(in, c, addresses);
  if (!want_old_values || !writes_memory(in.timing)) return;
  const bool shared = isa::is_shared_memory(in.timing);
  int cache = -1;
  if (!shared && (exec & (exec + 1)) == 0) {
    // Lanes 0..n-1 whose accesses all lie in one allocation (mostly): no lookup per lane.
    const unsigned n = count_lanes(exec);
    std::uint64_t lo = addresses[0], hi = addresses[0];
    for (unsigned l = 1; l < n; ++l) {
      lo = std::min(lo, addresses[l]);
      hi = std::max(hi, addresses[l]);
    }
    if (host_bytes(in, c, lo, cache) != nullptr) {
      const Allocation& a = c.global->at(cache);
      if (hi - a.base <= a.size && a.size - (hi - a.base) >= in.access_bytes) {
        for (unsigned l = 0; l < n; ++l)
          record.old_values[l] = read_value(a.data.get() + (addresses[l] - a.base), in.access_bytes, false);
        record.valid = exec;
        return;
      }
    }
  }
  for (std::uint64_t m = exec; m != 0; m &= m - 1) {
    const unsigned l = lanes::lowest_lane(m);
    if (const std::byte* p = host_bytes(in, c, addresses[l], cache)) {
      record.old_values[l] = read_value(p, in.access_bytes, shared);
      record.valid |= std::uint64_t{1} << l;
    }
  }
}

bool StepSink::wrote_new_value(const LaneContext& c) const {
  const Inst& in = *record.inst;
  if (!writes_memory(in.timing)) return false;
  const bool shared = isa::is_shared_memory(in.timing);
  int cache = -1;
  for (std::uint64_t m = record.valid; m != 0; m &= m - 1) {
    const unsigned l = lanes::lowest_lane(m);
    const std::byte* p = host_bytes(in, c, record.addresses[l], cache);
    if (p == nullptr || read_value(p, in.access_bytes, shared) != record.old_values[l]) return true;
  }
  return false;
}

}  // namespace warpsim::sim
