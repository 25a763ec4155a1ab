// Lane semantics of the integer bit operations PTX import brought (issue 10): mul.hi, bfe, bfi,
// popc, clz, brev and prmt, each as the PTX ISA manual defines it (docs/ir.md repeats the rules).
#include <bit>
#include <cstdint>

#include "isa/opcodes.hpp"
#include "sim/lanes.hpp"

namespace warpsim::sim {
namespace {

using namespace lanes;

// The high half of the double-width product.
template <Type T>
void mul_hi(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = source<W>(c, in.src[1]);
  write_lanes(destination<W>(c, in.dst), c, [a, b](unsigned l) -> W {
    if constexpr (T == Type::U32) return static_cast<W>((std::uint64_t{a[l]} * b[l]) >> 32);
    else if constexpr (T == Type::S32)
      return static_cast<W>(static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(a[l])} *
                                                       std::int64_t{static_cast<std::int32_t>(b[l])}) >> 32);
    else if constexpr (T == Type::U64) return static_cast<W>((static_cast<unsigned __int128>(a[l]) * b[l]) >> 64);
    else
      return static_cast<W>(static_cast<unsigned __int128>(static_cast<__int128>(static_cast<std::int64_t>(a[l])) *
                                                           static_cast<std::int64_t>(b[l])) >> 64);
  });
}

// bfe: len bits from bit pos (both taken mod 256); bits past the top read as the sign bit of the
// field for signed types (its last existing bit), 0 for unsigned ones.
template <Type T>
void bfe(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  constexpr unsigned bits = kBits<T>;
  const W* a = source<W>(c, in.src[0]);
  const std::uint32_t* p = source<std::uint32_t>(c, in.src[1]);
  const std::uint32_t* n = source<std::uint32_t>(c, in.src[2]);
  write_lanes(destination<W>(c, in.dst), c, [a, p, n](unsigned l) -> W {
    const unsigned pos = p[l] & 0xff, len = n[l] & 0xff;
    if (len == 0) return 0;
    W sign = 0;
    if constexpr (kSigned<T>) {
      const unsigned top = pos + len - 1 < bits - 1 ? pos + len - 1 : bits - 1;
      sign = (a[l] >> top) & 1 ? ~W{0} : W{0};
    }
    const W field = pos >= bits ? W{0} : static_cast<W>(a[l] >> pos);
    const unsigned kept = pos >= bits ? 0 : (len < bits - pos ? len : bits - pos);  // bits read from a
    if (kept >= bits) return field;
    const W low = (W{1} << kept) - 1;
    return (field & low) | (sign & ~low);
  });
}

// bfi: b with len bits of a inserted at bit pos (both mod 256; bits past the top are dropped).
template <Type T>
void bfi(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  constexpr unsigned bits = kBits<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = source<W>(c, in.src[1]);
  const std::uint32_t* p = source<std::uint32_t>(c, in.src[2]);
  const std::uint32_t* n = source<std::uint32_t>(c, in.src[3]);
  write_lanes(destination<W>(c, in.dst), c, [a, b, p, n](unsigned l) -> W {
    const unsigned pos = p[l] & 0xff, len = n[l] & 0xff;
    if (pos >= bits || len == 0) return b[l];
    const unsigned kept = len < bits - pos ? len : bits - pos;
    const W field = kept >= bits ? ~W{0} : (W{1} << kept) - 1;
    return (b[l] & ~(field << pos)) | ((a[l] & field) << pos);
  });
}

template <Type T, bool Leading>
void count_bits(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  write_lanes(destination<std::uint32_t>(c, in.dst), c, [a](unsigned l) -> std::uint32_t {
    if constexpr (Leading) return static_cast<std::uint32_t>(std::countl_zero(a[l]));
    else return static_cast<std::uint32_t>(std::popcount(a[l]));
  });
}

template <Type T>
void brev(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  write_lanes(destination<W>(c, in.dst), c, [a](unsigned l) -> W {
    W x = a[l], r = 0;
    for (unsigned i = 0; i < kBits<T>; ++i, x >>= 1) r = (r << 1) | (x & 1);
    return r;
  });
}

// prmt (default mode): byte i of d is byte (c >> 4i) & 7 of the eight bytes {b, a}; with bit 3 of
// that selector set, the byte's sign is replicated instead.
void prmt(const Inst& in, LaneContext& c) {
  const std::uint32_t* a = source<std::uint32_t>(c, in.src[0]);
  const std::uint32_t* b = source<std::uint32_t>(c, in.src[1]);
  const std::uint32_t* s = source<std::uint32_t>(c, in.src[2]);
  write_lanes(destination<std::uint32_t>(c, in.dst), c, [a, b, s](unsigned l) -> std::uint32_t {
    const std::uint64_t bytes = (std::uint64_t{b[l]} << 32) | a[l];
    std::uint32_t d = 0;
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned selector = (s[l] >> (4 * i)) & 0xf;
      std::uint32_t byte = static_cast<std::uint32_t>(bytes >> (8 * (selector & 7))) & 0xff;
      if (selector & 8) byte = byte & 0x80 ? 0xff : 0;
      d |= byte << (8 * i);
    }
    return d;
  });
}

template <template <Type> class F>
ExecFn by_integer(Type t) {
  switch (t) {
    case Type::U32: return F<Type::U32>::fn;
    case Type::S32: return F<Type::S32>::fn;
    case Type::U64: return F<Type::U64>::fn;
    case Type::S64: return F<Type::S64>::fn;
    case Type::B32: return F<Type::B32>::fn;
    case Type::B64: return F<Type::B64>::fn;
    default: return nullptr;
  }
}

template <Type T> struct MulHiOf { static constexpr ExecFn fn = &mul_hi<T>; };
template <Type T> struct BfeOf { static constexpr ExecFn fn = &bfe<T>; };
template <Type T> struct BfiOf { static constexpr ExecFn fn = &bfi<T>; };
template <Type T> struct PopcOf { static constexpr ExecFn fn = &count_bits<T, false>; };
template <Type T> struct ClzOf { static constexpr ExecFn fn = &count_bits<T, true>; };
template <Type T> struct BrevOf { static constexpr ExecFn fn = &brev<T>; };

}  // namespace

ExecFn select_bits(const isa::Instruction& inst) {
  using isa::Opcode;
  const Type t = inst.type;
  switch (inst.op) {
    case Opcode::MulHi: return t == Type::B32 || t == Type::B64 ? nullptr : by_integer<MulHiOf>(t);
    case Opcode::Bfe: return t == Type::B32 || t == Type::B64 ? nullptr : by_integer<BfeOf>(t);
    case Opcode::Bfi: return t == Type::B32 || t == Type::B64 ? by_integer<BfiOf>(t) : nullptr;
    case Opcode::Popc: return t == Type::B32 || t == Type::B64 ? by_integer<PopcOf>(t) : nullptr;
    case Opcode::Clz: return t == Type::B32 || t == Type::B64 ? by_integer<ClzOf>(t) : nullptr;
    case Opcode::Brev: return t == Type::B32 || t == Type::B64 ? by_integer<BrevOf>(t) : nullptr;
    case Opcode::Prmt: return t == Type::B32 ? &prmt : nullptr;
    default: return nullptr;
  }
}

}  // namespace warpsim::sim
