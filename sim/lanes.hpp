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

// Whether a register of type T lives in the 64-bit pool.
template <Type T>
constexpr bool kWide = T == Type::U64 || T == Type::S64 || T == Type::F64 || T == Type::B64;
// Storage word of a register type: 64 bits for the 64-bit types, 32 bits otherwise. A 16-bit
// value lives in the low half of a 32-bit word: every instruction that reads one looks at the low
// 16 bits only (extending them by its type), and 16-bit results are stored zero-extended.
template <Type T>
using Word = std::conditional_t<kWide<T>, std::uint64_t, std::uint32_t>;

template <Type T>
constexpr bool kFloat = T == Type::F32 || T == Type::F64;
template <Type T>
constexpr bool kSigned = T == Type::S8 || T == Type::S16 || T == Type::S32 || T == Type::S64;
template <Type T>
constexpr unsigned kBits = T == Type::U8 || T == Type::S8 || T == Type::B8      ? 8
                           : T == Type::U16 || T == Type::S16 || T == Type::B16 ? 16
                           : kWide<T>                                           ? 64
                                                                                : 32;
// The C type of a value of type T: float or double for floats, the signed or unsigned integer of
// T's width otherwise (bit types are unsigned).
template <Type T>
using Value = std::conditional_t<
    T == Type::F32, float,
    std::conditional_t<
        T == Type::F64, double,
        std::conditional_t<kBits<T> == 8, std::conditional_t<kSigned<T>, std::int8_t, std::uint8_t>,
                           std::conditional_t<kBits<T> == 16, std::conditional_t<kSigned<T>, std::int16_t, std::uint16_t>,
                                              std::conditional_t<kBits<T> == 32,
                                                                 std::conditional_t<kSigned<T>, std::int32_t, std::uint32_t>,
                                                                 std::conditional_t<kSigned<T>, std::int64_t, std::uint64_t>>>>>>;

// A word read as a value of T (narrow integers: the low bits, extended by T's signedness).
template <Type T>
inline Value<T> value_of(Word<T> w) {
  if constexpr (kFloat<T>) return std::bit_cast<Value<T>>(w);
  else return static_cast<Value<T>>(w);
}
// A value of T stored as its word: floats by their bits, integers extended to the word by T's
// signedness (so an s8 or s16 result is sign-extended, which loads and conversions need).
template <Type T>
inline Word<T> word_of(Value<T> v) {
  if constexpr (kFloat<T>) return std::bit_cast<Word<T>>(v);
  else return static_cast<Word<T>>(v);
}
// An integer result of T cut to T's width (zero-extended: 16-bit results are stored that way).
template <Type T>
inline Word<T> narrow(Word<T> w) {
  if constexpr (kBits<T> < 32) return w & ((Word<T>{1} << kBits<T>) - 1);
  else return w;
}

inline float as_float(std::uint32_t w) { return std::bit_cast<float>(w); }
inline std::uint32_t as_word(float f) { return std::bit_cast<std::uint32_t>(f); }
inline double as_double(std::uint64_t w) { return std::bit_cast<double>(w); }
inline std::uint64_t as_word(double f) { return std::bit_cast<std::uint64_t>(f); }

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

// Every lane's byte address of an instruction's memory operand ([base + offset]). A shared or
// local address is the u32 base plus the signed offset, not wrapped at 32 bits: a sum below 0 or
// past 2^32 lands far outside the space and faults (docs/ir.md; the CUDA backend's pointers are
// formed the same way). Idle lanes are computed too (their values are never used), so the loop
// vectorises. The interpreter and the timing model's step record both use it.
template <bool Shared>
inline void lane_addresses(const Inst& in, const LaneContext& c, std::uint64_t* address) {
  const unsigned n = c.warp_size;
  if constexpr (Shared) {
    const std::uint32_t* b = source<std::uint32_t>(c, in.mem_base);
    const auto offset = static_cast<std::uint64_t>(in.mem_offset);
    for (unsigned l = 0; l < n; ++l) address[l] = std::uint64_t{b[l]} + offset;
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
