// Helpers shared by the lane-semantics files: typed views of operand pools and the masked write.
// Lane loops compute every lane and then keep the executing ones; when every existing lane
// executes they write all warp_size lanes directly (padding lanes are never read), so the compiler
// can vectorise them.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "isa/types.hpp"
#include "sim/decode.hpp"

namespace warpsim::sim::lanes {

using isa::Type;

// Storage word of a register type: 64 bits for u64, 32 bits otherwise.
template <Type T>
using Word = std::conditional_t<T == Type::U64, std::uint64_t, std::uint32_t>;

inline float as_float(std::uint32_t w) { return std::bit_cast<float>(w); }
inline std::uint32_t as_word(float f) { return std::bit_cast<std::uint32_t>(f); }

template <class W>
inline const W* source(const LaneContext& c, Src s) {
  if constexpr (sizeof(W) == 8)
    return c.base64[s.space] + s.offset;
  else
    return c.base32[s.space] + s.offset;
}

template <class W>
inline W* destination(const LaneContext& c, std::uint32_t offset) {
  if constexpr (sizeof(W) == 8)
    return c.r64 + offset;
  else
    return c.r32 + offset;
}

// Every lane's byte address of an instruction's memory operand ([base + offset]; shared
// addresses wrap at 32 bits). Idle lanes are computed too (their values are never used), so the
// loop vectorises. The interpreter and the timing model's step record both use it.
template <bool Shared>
inline void lane_addresses(const Inst& in, const LaneContext& c, std::uint64_t* address) {
  const unsigned n = c.warp_size;
  if constexpr (Shared) {
    const std::uint32_t* b = source<std::uint32_t>(c, in.mem_base);
    const auto offset = static_cast<std::uint32_t>(in.mem_offset);
    for (unsigned l = 0; l < n; ++l) address[l] = static_cast<std::uint32_t>(b[l] + offset);
  } else {
    const std::uint64_t* b = source<std::uint64_t>(c, in.mem_base);
    const auto offset = static_cast<std::uint64_t>(in.mem_offset);
    for (unsigned l = 0; l < n; ++l) address[l] = b[l] + offset;
  }
}

inline std::uint64_t predicate(const LaneContext& c, Src s) {
  if (s.space == 0) return c.predicates[s.offset];
  return s.offset != 0 ? ~std::uint64_t{0} : 0;
}

inline void write_predicate(const LaneContext& c, std::uint32_t reg, std::uint64_t value) {
  c.predicates[reg] = (c.predicates[reg] & ~c.exec) | (value & c.exec);
}

inline unsigned lowest_lane(std::uint64_t m) { return static_cast<unsigned>(std::countr_zero(m)); }

// Calls f(l) for l = 0 .. n-1 in order. The default warp size gets its own copy of the loop with a
// constant trip count, which the compiler unrolls and vectorises without remainder code; the lane
// loops are the simulator's hot path and most of their cost at 32 lanes was loop overhead.
template <class F>
[[gnu::always_inline]] inline void each_lane(unsigned n, F f) {
  if (n == 32) {
#pragma GCC unroll 32
    for (unsigned l = 0; l < 32; ++l) f(l);
  } else {
    for (unsigned l = 0; l < n; ++l) f(l);
  }
}

// d[l] = f(l) for the executing lanes. f may read lane l of a source that d aliases.
// The full path computes into a local array first so that the loop vectorises even when d is
// one of the sources (add x, x, y).
template <class W, class F>
inline void write_lanes(W* d, const LaneContext& c, F f) {
  if (c.full) {
    W values[64];
    if (c.warp_size == 32) {
#pragma GCC unroll 32
      for (unsigned l = 0; l < 32; ++l) values[l] = f(l);
      std::memcpy(d, values, 32 * sizeof(W));
    } else {
      const unsigned n = c.warp_size;
      for (unsigned l = 0; l < n; ++l) values[l] = f(l);
      std::memcpy(d, values, n * sizeof(W));
    }
  } else {
    for (std::uint64_t m = c.exec; m != 0; m &= m - 1) {
      const unsigned l = lowest_lane(m);
      d[l] = f(l);
    }
  }
}

}  // namespace warpsim::sim::lanes
