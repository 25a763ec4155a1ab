// Lane semantics of the arithmetic, logic, compare and convert opcodes. Edge cases follow
// docs/ir.md: integers wrap (computed unsigned, so no signed overflow), integer division or
// remainder by zero gives 0, s32 INT_MIN / -1 gives INT_MIN (remainder 0), shifts by the width or
// more give 0 (shr.s32: the sign), f32 is IEEE with round to nearest, min/max.f32 are fminf/fmaxf,
// mad.f32 is fmaf, cvt from f32 to an integer truncates, saturates and maps NaN to 0.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

#include "isa/opcodes.hpp"
#include "sim/lanes.hpp"

namespace warpsim::sim {
namespace {

using namespace lanes;

template <Type T>
inline std::int32_t s32(Word<T> w) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(w));
}

// f32 and f64 words as their float values and back.
template <Type T>
inline Value<T> fp(Word<T> w) {
  return value_of<T>(w);
}
template <Type T>
inline Word<T> fw(Value<T> v) {
  return word_of<T>(v);
}

// Binary operations on words of type T. Integer arithmetic wraps (computed on the unsigned word,
// so no signed overflow); 16-bit results are cut to 16 bits.
struct Add {
  template <Type T> static Word<T> apply(Word<T> a, Word<T> b) {
    if constexpr (kFloat<T>) return fw<T>(fp<T>(a) + fp<T>(b));
    else return narrow<T>(a + b);
  }
};
struct Sub {
  template <Type T> static Word<T> apply(Word<T> a, Word<T> b) {
    if constexpr (kFloat<T>) return fw<T>(fp<T>(a) - fp<T>(b));
    else return narrow<T>(a - b);
  }
};
struct Mul {
  template <Type T> static Word<T> apply(Word<T> a, Word<T> b) {
    if constexpr (kFloat<T>) return fw<T>(fp<T>(a) * fp<T>(b));
    else return narrow<T>(a * b);
  }
};
struct Div {
  template <Type T> static Word<T> apply(Word<T> a, Word<T> b) {
    if constexpr (kFloat<T>) {
      return fw<T>(fp<T>(a) / fp<T>(b));
    } else if constexpr (T == Type::S32) {
      const std::int32_t x = s32<T>(a), y = s32<T>(b);
      if (y == 0) return 0;
      if (y == -1) return 0u - a;  // wraps: INT_MIN / -1 = INT_MIN
      return static_cast<std::uint32_t>(x / y);
    } else if constexpr (kSigned<T>) {
      const Value<T> x = value_of<T>(a), y = value_of<T>(b);
      if (y == 0) return 0;
      if (y == -1) return narrow<T>(Word<T>{0} - a);
      return narrow<T>(word_of<T>(static_cast<Value<T>>(x / y)));
    } else {
      const Word<T> x = narrow<T>(a), y = narrow<T>(b);
      return y == 0 ? 0 : x / y;
    }
  }
};
struct Rem {
  template <Type T> static Word<T> apply(Word<T> a, Word<T> b) {
    if constexpr (kFloat<T>) {
      return fw<T>(std::fmod(fp<T>(a), fp<T>(b)));
    } else if constexpr (T == Type::S32) {
      const std::int32_t x = s32<T>(a), y = s32<T>(b);
      if (y == 0 || y == -1) return 0;
      return static_cast<std::uint32_t>(x % y);
    } else if constexpr (kSigned<T>) {
      const Value<T> x = value_of<T>(a), y = value_of<T>(b);
      if (y == 0 || y == -1) return 0;
      return narrow<T>(word_of<T>(static_cast<Value<T>>(x % y)));
    } else {
      const Word<T> x = narrow<T>(a), y = narrow<T>(b);
      return y == 0 ? 0 : x % y;
    }
  }
};
struct Min {
  template <Type T> static Word<T> apply(Word<T> a, Word<T> b) {
    if constexpr (kFloat<T>) {  // fminf, with -0 below +0
      const auto x = fp<T>(a), y = fp<T>(b);
      if (x != x) return b;
      if (y != y || x < y) return a;
      return y < x ? b : (a | b);
    } else if constexpr (T == Type::S32) return s32<T>(a) < s32<T>(b) ? a : b;
    else return value_of<T>(a) < value_of<T>(b) ? narrow<T>(a) : narrow<T>(b);
  }
};
struct Max {
  template <Type T> static Word<T> apply(Word<T> a, Word<T> b) {
    if constexpr (kFloat<T>) {  // fmaxf, with +0 above -0
      const auto x = fp<T>(a), y = fp<T>(b);
      if (x != x) return b;
      if (y != y || x > y) return a;
      return y > x ? b : (a & b);
    } else if constexpr (T == Type::S32) return s32<T>(a) > s32<T>(b) ? a : b;
    else return value_of<T>(a) > value_of<T>(b) ? narrow<T>(a) : narrow<T>(b);
  }
};
struct And { template <Type T> static Word<T> apply(Word<T> a, Word<T> b) { return a & b; } };
struct Or { template <Type T> static Word<T> apply(Word<T> a, Word<T> b) { return a | b; } };
struct Xor { template <Type T> static Word<T> apply(Word<T> a, Word<T> b) { return a ^ b; } };

// Unary operations.
struct Neg {
  template <Type T> static Word<T> apply(Word<T> a) {
    if constexpr (kFloat<T>) return fw<T>(-fp<T>(a));
    else return narrow<T>(Word<T>{0} - a);
  }
};
struct Abs {
  template <Type T> static Word<T> apply(Word<T> a) {
    if constexpr (kFloat<T>) return fw<T>(std::fabs(fp<T>(a)));
    else if constexpr (T == Type::S32) return s32<T>(a) < 0 ? 0u - a : a;
    else if constexpr (kSigned<T>) return narrow<T>(value_of<T>(a) < 0 ? Word<T>{0} - a : a);
    else return a;
  }
};
struct Not { template <Type T> static Word<T> apply(Word<T> a) { return narrow<T>(~a); } };
struct Sqrt {
  template <Type T> static Word<T> apply(Word<T> a) {
    if constexpr (kFloat<T>) return fw<T>(std::sqrt(fp<T>(a)));
    else return a;
  }
};
struct Mov { template <Type T> static Word<T> apply(Word<T> a) { return a; } };

template <class Op, Type T>
void binary(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = source<W>(c, in.src[1]);
  write_lanes(destination<W>(c, in.dst), c, [a, b](unsigned l) { return Op::template apply<T>(a[l], b[l]); });
}

template <class Op, Type T>
void unary(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  write_lanes(destination<W>(c, in.dst), c, [a](unsigned l) { return Op::template apply<T>(a[l]); });
}

template <Type T>
void mad(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = source<W>(c, in.src[1]);
  const W* e = source<W>(c, in.src[2]);
  write_lanes(destination<W>(c, in.dst), c, [a, b, e](unsigned l) -> W {
    if constexpr (kFloat<T>) return fw<T>(std::fma(fp<T>(a[l]), fp<T>(b[l]), fp<T>(e[l])));
    else return narrow<T>(a[l] * b[l] + e[l]);
  });
}

template <Type T>
void mul_wide16(const Inst& in, LaneContext& c) {
  const std::uint32_t* a = source<std::uint32_t>(c, in.src[0]);
  const std::uint32_t* b = source<std::uint32_t>(c, in.src[1]);
  write_lanes(destination<std::uint32_t>(c, in.dst), c, [a, b](unsigned l) -> std::uint32_t {
    return static_cast<std::uint32_t>(std::int32_t{value_of<T>(a[l])} * std::int32_t{value_of<T>(b[l])});
  });
}

template <Type T>
void mul_wide(const Inst& in, LaneContext& c) {
  const std::uint32_t* a = source<std::uint32_t>(c, in.src[0]);
  const std::uint32_t* b = source<std::uint32_t>(c, in.src[1]);
  write_lanes(destination<std::uint64_t>(c, in.dst), c, [a, b](unsigned l) -> std::uint64_t {
    if constexpr (T == Type::S32)
      return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(a[l])} *
                                        std::int64_t{static_cast<std::int32_t>(b[l])});
    else
      return std::uint64_t{a[l]} * b[l];
  });
}

template <Type T, bool Left>
void shift(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  constexpr unsigned bits = kBits<T>;
  const W* a = source<W>(c, in.src[0]);
  const std::uint32_t* b = source<std::uint32_t>(c, in.src[1]);
  auto lane = [a](unsigned l, std::uint32_t n) -> W {
    if constexpr (Left) {
      return n >= bits ? W{0} : narrow<T>(static_cast<W>(a[l] << n));
    } else if constexpr (T == Type::S32) {
      const std::int32_t x = static_cast<std::int32_t>(a[l]);
      return static_cast<W>(x >> (n >= bits ? bits - 1 : n));
    } else if constexpr (kSigned<T>) {
      const Value<T> x = value_of<T>(a[l]);
      return narrow<T>(word_of<T>(static_cast<Value<T>>(x >> (n >= bits ? bits - 1 : n))));
    } else {
      return n >= bits ? W{0} : static_cast<W>(narrow<T>(a[l]) >> n);
    }
  };
  // A constant amount (space 1: the same in every lane) is read once, so the loop vectorises.
  if (in.src[1].space == 1) {
    const std::uint32_t n = b[0];
    write_lanes(destination<W>(c, in.dst), c, [lane, n](unsigned l) { return lane(l, n); });
  } else {
    write_lanes(destination<W>(c, in.dst), c, [lane, b](unsigned l) { return lane(l, b[l]); });
  }
}

// A float to an integer type: truncate toward zero, saturate, NaN gives 0.
template <class I, class F>
inline I saturate_float(F f) {
  if (std::isnan(f)) return 0;
  const double t = std::trunc(static_cast<double>(f));
  if (t <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (t >= static_cast<double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(t);
}

template <Type D, Type S>
inline Word<D> convert(Word<S> v) {
  if constexpr (D == Type::F32 && S != Type::F64) {
    if constexpr (S == Type::F32) return v;
    else if constexpr (S == Type::S32) return as_word(static_cast<float>(static_cast<std::int32_t>(v)));
    else if constexpr (S == Type::U32 || S == Type::U64) return as_word(static_cast<float>(v));
    else return as_word(static_cast<float>(value_of<S>(v)));
  } else if constexpr (S == Type::F32 && !kFloat<D>) {
    const float f = as_float(v);
    if constexpr (D == Type::S32) return static_cast<std::uint32_t>(saturate_float<std::int32_t>(f));
    else if constexpr (D == Type::U32) return saturate_float<std::uint32_t>(f);
    else if constexpr (D == Type::U64) return saturate_float<std::uint64_t>(f);
    else return word_of<D>(saturate_float<Value<D>>(f));
  } else if constexpr (S == Type::S32 && D == Type::U64) {
    return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(v)});
  } else if constexpr (kFloat<D> || kFloat<S>) {
    if constexpr (kFloat<D> && kFloat<S>) return word_of<D>(static_cast<Value<D>>(value_of<S>(v)));
    else if constexpr (kFloat<D>) return word_of<D>(static_cast<Value<D>>(value_of<S>(v)));
    else return word_of<D>(saturate_float<Value<D>>(value_of<S>(v)));
  } else if constexpr (kBits<D> < 32 || kBits<S> < 32 || D == Type::S64 || S == Type::S64) {
    // Extend the source by its signedness, cut to the destination's width, extend into the word.
    using Wide = std::conditional_t<kSigned<S>, std::int64_t, std::uint64_t>;
    return word_of<D>(static_cast<Value<D>>(static_cast<Wide>(value_of<S>(v))));
  } else {
    return static_cast<Word<D>>(v);  // zero-extends or truncates
  }
}

template <Type D, Type S>
void cvt(const Inst& in, LaneContext& c) {
  const Word<S>* a = source<Word<S>>(c, in.src[0]);
  write_lanes(destination<Word<D>>(c, in.dst), c, [a](unsigned l) { return convert<D, S>(a[l]); });
}

template <Type T, isa::Compare K>
inline bool compare(Word<T> a, Word<T> b) {
  if constexpr (kFloat<T>) {
    const auto x = fp<T>(a), y = fp<T>(b);
    if constexpr (K == isa::Compare::Eq) return x == y;
    else if constexpr (K == isa::Compare::Ne) return x != y;  // true when either is NaN
    else if constexpr (K == isa::Compare::Lt) return x < y;
    else if constexpr (K == isa::Compare::Le) return x <= y;
    else if constexpr (K == isa::Compare::Gt) return x > y;
    else return x >= y;
  } else {
    using V = Value<T>;
    const V x = static_cast<V>(a), y = static_cast<V>(b);
    if constexpr (K == isa::Compare::Eq) return x == y;
    else if constexpr (K == isa::Compare::Ne) return x != y;
    else if constexpr (K == isa::Compare::Lt) return x < y;
    else if constexpr (K == isa::Compare::Le) return x <= y;
    else if constexpr (K == isa::Compare::Gt) return x > y;
    else return x >= y;
  }
}

// Bit l of a 32-lane group. Building the mask as an OR of table entries rather than `bit << l`
// lets the compiler vectorise the compares and the OR (SSE2 has no per-element shift).
constexpr auto kLaneBit = [] {
  std::array<std::uint32_t, 32> bits{};
  for (unsigned l = 0; l < 32; ++l) bits[l] = std::uint32_t{1} << l;
  return bits;
}();

template <Type T, isa::Compare K>
void setp(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = source<W>(c, in.src[1]);
  std::uint64_t m = 0;
  const unsigned n = c.warp_size;
  for (unsigned group = 0; group < n; group += 32) {
    const W* x = a + group;
    const W* y = b + group;
    std::uint32_t bits = 0;
    if (n - group >= 32) {
      for (unsigned l = 0; l < 32; ++l) bits |= kLaneBit[l] & (0u - std::uint32_t{compare<T, K>(x[l], y[l])});
    } else {
      for (unsigned l = 0; l < n - group; ++l) bits |= kLaneBit[l] & (0u - std::uint32_t{compare<T, K>(x[l], y[l])});
    }
    m |= std::uint64_t{bits} << group;
  }
  write_predicate(c, in.dst, m);
}

template <Type T>
void selp(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = source<W>(c, in.src[1]);
  const std::uint64_t p = predicate(c, in.src[2]);
  write_lanes(destination<W>(c, in.dst), c, [a, b, p](unsigned l) { return (p >> l) & 1 ? a[l] : b[l]; });
}

// Predicate logic: one bit per lane.
template <isa::Opcode Op>
void predicate_op(const Inst& in, LaneContext& c) {
  const std::uint64_t a = predicate(c, in.src[0]);
  std::uint64_t r = 0;
  if constexpr (Op == isa::Opcode::Mov) r = a;
  else if constexpr (Op == isa::Opcode::Not) r = ~a;
  else {
    const std::uint64_t b = predicate(c, in.src[1]);
    if constexpr (Op == isa::Opcode::And) r = a & b;
    else if constexpr (Op == isa::Opcode::Or) r = a | b;
    else r = a ^ b;
  }
  write_predicate(c, in.dst, r);
}

// Every type a register holds (and, for cvt, the 8-bit types).
template <template <Type> class F>
ExecFn by_type(Type t) {
  switch (t) {
    case Type::U32: return F<Type::U32>::fn;
    case Type::S32: return F<Type::S32>::fn;
    case Type::U64: return F<Type::U64>::fn;
    case Type::F32: return F<Type::F32>::fn;
    case Type::S64: return F<Type::S64>::fn;
    case Type::F64: return F<Type::F64>::fn;
    case Type::U16: return F<Type::U16>::fn;
    case Type::S16: return F<Type::S16>::fn;
    case Type::B16: return F<Type::B16>::fn;
    case Type::B32: return F<Type::B32>::fn;
    case Type::B64: return F<Type::B64>::fn;
    default: return nullptr;
  }
}

template <template <Type> class F>
ExecFn by_convert_type(Type t) {
  switch (t) {
    case Type::U8: return F<Type::U8>::fn;
    case Type::S8: return F<Type::S8>::fn;
    case Type::U16: return F<Type::U16>::fn;
    case Type::S16: return F<Type::S16>::fn;
    case Type::U32: return F<Type::U32>::fn;
    case Type::S32: return F<Type::S32>::fn;
    case Type::U64: return F<Type::U64>::fn;
    case Type::S64: return F<Type::S64>::fn;
    case Type::F32: return F<Type::F32>::fn;
    case Type::F64: return F<Type::F64>::fn;
    default: return nullptr;
  }
}

template <class Op> struct BinaryOf { template <Type T> struct F { static constexpr ExecFn fn = &binary<Op, T>; }; };
template <class Op> struct UnaryOf { template <Type T> struct F { static constexpr ExecFn fn = &unary<Op, T>; }; };
template <Type T> struct MadOf { static constexpr ExecFn fn = &mad<T>; };
template <Type T> struct SelpOf { static constexpr ExecFn fn = &selp<T>; };
template <Type T> struct ShlOf { static constexpr ExecFn fn = &shift<T, true>; };
template <Type T> struct ShrOf { static constexpr ExecFn fn = &shift<T, false>; };
template <isa::Compare K> struct SetpOf { template <Type T> struct F { static constexpr ExecFn fn = &setp<T, K>; }; };
template <Type S> struct CvtFrom {
  template <Type D> struct F { static constexpr ExecFn fn = &cvt<D, S>; };
};

ExecFn select_cvt(Type d, Type s) {
  switch (s) {
    case Type::U8: return by_convert_type<CvtFrom<Type::U8>::F>(d);
    case Type::S8: return by_convert_type<CvtFrom<Type::S8>::F>(d);
    case Type::U16: return by_convert_type<CvtFrom<Type::U16>::F>(d);
    case Type::S16: return by_convert_type<CvtFrom<Type::S16>::F>(d);
    case Type::U32: return by_convert_type<CvtFrom<Type::U32>::F>(d);
    case Type::S32: return by_convert_type<CvtFrom<Type::S32>::F>(d);
    case Type::U64: return by_convert_type<CvtFrom<Type::U64>::F>(d);
    case Type::S64: return by_convert_type<CvtFrom<Type::S64>::F>(d);
    case Type::F32: return by_convert_type<CvtFrom<Type::F32>::F>(d);
    case Type::F64: return by_convert_type<CvtFrom<Type::F64>::F>(d);
    default: return nullptr;
  }
}

ExecFn select_setp(isa::Compare k, Type t) {
  switch (k) {
    case isa::Compare::Eq: return by_type<SetpOf<isa::Compare::Eq>::F>(t);
    case isa::Compare::Ne: return by_type<SetpOf<isa::Compare::Ne>::F>(t);
    case isa::Compare::Lt: return by_type<SetpOf<isa::Compare::Lt>::F>(t);
    case isa::Compare::Le: return by_type<SetpOf<isa::Compare::Le>::F>(t);
    case isa::Compare::Gt: return by_type<SetpOf<isa::Compare::Gt>::F>(t);
    case isa::Compare::Ge: return by_type<SetpOf<isa::Compare::Ge>::F>(t);
    default: return nullptr;
  }
}

}  // namespace

ExecFn select_alu(const isa::Instruction& inst) {
  using isa::Opcode;
  const Type t = inst.type;
  if (t == Type::Pred) {
    switch (inst.op) {
      case Opcode::Mov: return &predicate_op<Opcode::Mov>;
      case Opcode::Not: return &predicate_op<Opcode::Not>;
      case Opcode::And: return &predicate_op<Opcode::And>;
      case Opcode::Or: return &predicate_op<Opcode::Or>;
      case Opcode::Xor: return &predicate_op<Opcode::Xor>;
      default: return nullptr;
    }
  }
  switch (inst.op) {
    case Opcode::Mov: return by_type<UnaryOf<Mov>::F>(t);
    case Opcode::Add: return by_type<BinaryOf<Add>::F>(t);
    case Opcode::Sub: return by_type<BinaryOf<Sub>::F>(t);
    case Opcode::Mul: return by_type<BinaryOf<Mul>::F>(t);
    case Opcode::MulWide:
      switch (t) {
        case Type::S32: return &mul_wide<Type::S32>;
        case Type::U32: return &mul_wide<Type::U32>;
        case Type::S16: return &mul_wide16<Type::S16>;
        case Type::U16: return &mul_wide16<Type::U16>;
        default: return nullptr;
      }
    case Opcode::Mad:
    case Opcode::Fma: return by_type<MadOf>(t);
    case Opcode::Div: return by_type<BinaryOf<Div>::F>(t);
    case Opcode::Rem: return by_type<BinaryOf<Rem>::F>(t);
    case Opcode::Min: return by_type<BinaryOf<Min>::F>(t);
    case Opcode::Max: return by_type<BinaryOf<Max>::F>(t);
    case Opcode::Neg: return by_type<UnaryOf<Neg>::F>(t);
    case Opcode::Abs: return by_type<UnaryOf<Abs>::F>(t);
    case Opcode::And: return by_type<BinaryOf<And>::F>(t);
    case Opcode::Or: return by_type<BinaryOf<Or>::F>(t);
    case Opcode::Xor: return by_type<BinaryOf<Xor>::F>(t);
    case Opcode::Not: return by_type<UnaryOf<Not>::F>(t);
    case Opcode::Shl: return by_type<ShlOf>(t);
    case Opcode::Shr: return by_type<ShrOf>(t);
    case Opcode::Sqrt: return by_type<UnaryOf<Sqrt>::F>(t);
    case Opcode::Cvt: return select_cvt(t, inst.source_type);
    case Opcode::Setp: return select_setp(inst.compare, t);
    case Opcode::Selp: return by_type<SelpOf>(t);
    default: return nullptr;
  }
}

}  // namespace warpsim::sim
