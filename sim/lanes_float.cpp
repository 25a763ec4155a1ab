// Lane semantics of float instructions with PTX qualifiers (issue 10): directed rounding (.rz, .rm,
// .rp) of add, sub, mul, fma and conversions, round-to-integral conversions (.rni, .rzi, .rmi,
// .rpi), .sat, .ftz, and the approximate special functions (rcp, rsqrt, ex2, lg2, sin, cos).
// Directed rounding is exact emulation, not the host's rounding mode: the round-to-nearest result
// and the sign of what it left out (exact for add, sub and mul by the two-sum and fma error terms,
// and for f32 fma through double) give the neighbouring float the rounding direction asks for.
// Instructions without qualifiers never come here (sim/lanes_alu.cpp), so these checks cost the
// plain opcodes nothing.
#include <cmath>
#include <cstdint>
#include <limits>

#include "isa/opcodes.hpp"
#include "sim/lanes.hpp"

namespace warpsim::sim {
namespace {

using namespace lanes;
using isa::Rounding;

// An operation's round-to-nearest result and the sign of (exact - result): -1, 0 or +1.
template <class V>
struct Rounded {
  V value;
  int below;  // sign of exact - value
};

// a + b = s + e exactly (Knuth's two-sum; no overflow assumed).
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

inline int sign_of(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

// The exact result s + e as a value of V rounded to nearest, with the sign of what was left out.
template <class V>
inline Rounded<V> to_nearest(double s, double e) {
  if constexpr (std::is_same_v<V, double>) {
    return {s, sign_of(e)};
  } else {
    const auto f = static_cast<float>(s);
    const double back = static_cast<double>(f);
    return {f, s > back ? 1 : s < back ? -1 : sign_of(e)};
  }
}

// The neighbour of the nearest value that the rounding direction picks.
template <class V>
inline V direct(Rounded<V> r, Rounding mode) {
  if (r.below == 0 || std::isnan(r.value)) return r.value;
  constexpr V inf = std::numeric_limits<V>::infinity();
  switch (mode) {
    case Rounding::Rz:
      if ((r.below < 0 && r.value > 0) || (r.below > 0 && r.value < 0)) return std::nextafter(r.value, V{0});
      return r.value;
    case Rounding::Rm: return r.below < 0 ? std::nextafter(r.value, -inf) : r.value;
    case Rounding::Rp: return r.below > 0 ? std::nextafter(r.value, inf) : r.value;
    default: return r.value;
  }
}

template <class V>
inline V flush(V x, bool ftz) {
  if (ftz && std::fpclassify(x) == FP_SUBNORMAL) return std::copysign(V{0}, x);
  return x;
}

// .sat: clamp to [0, 1]; NaN and -0 give +0.
template <class V>
inline V saturate(V x) {
  if (!(x > V{0})) return V{0};
  return x > V{1} ? V{1} : x;
}

// The qualifiers applied to a result: rounding already done; then .ftz, then .sat.
template <class V>
inline V finish(V x, const Inst& in) {
  x = flush(x, in.ftz);
  return in.saturate ? saturate(x) : x;
}

enum class Arith : std::uint8_t { Add, Sub, Mul, Fma };

// One arithmetic result of type V under the instruction's rounding. An exact zero sum of
// operands of opposite sign is -0 under .rm (IEEE 754, 6.3).
template <Arith Op, class V>
inline V arith(V a, V b, V c, const Inst& in) {
  a = flush(a, in.ftz);
  b = flush(b, in.ftz);
  c = flush(c, in.ftz);
  if (in.rounding == Rounding::None || in.rounding == Rounding::Rn) {
    V r;
    if constexpr (Op == Arith::Add) r = a + b;
    else if constexpr (Op == Arith::Sub) r = a - b;
    else if constexpr (Op == Arith::Mul) r = a * b;
    else r = std::fma(a, b, c);
    return finish(r, in);
  }
  double s = 0, e = 0, left = 0, right = 0;
  if constexpr (Op == Arith::Mul) {
    s = static_cast<double>(a) * static_cast<double>(b);
    if constexpr (std::is_same_v<V, double>) e = std::fma(a, b, -s);  // exact: a * b = s + e
  } else {
    left = Op == Arith::Fma ? static_cast<double>(a) * static_cast<double>(b) : static_cast<double>(a);  // exact for f32
    right = Op == Arith::Fma ? static_cast<double>(c) : Op == Arith::Sub ? -static_cast<double>(b) : static_cast<double>(b);
    two_sum(left, right, s, e);
  }
  V r = direct(to_nearest<V>(s, e), in.rounding);
  if (Op != Arith::Mul && in.rounding == Rounding::Rm && r == V{0} && s == 0 && e == 0 &&
      std::signbit(left) != std::signbit(right))
    r = -V{0};
  return finish(r, in);
}

template <Arith Op, Type T>
void arith_lanes(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  using V = Value<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = source<W>(c, in.src[1]);
  const W* e = Op == Arith::Fma ? source<W>(c, in.src[2]) : b;
  write_lanes(destination<W>(c, in.dst), c, [a, b, e, &in](unsigned l) {
    return word_of<T>(arith<Op, V>(value_of<T>(a[l]), value_of<T>(b[l]), value_of<T>(e[l]), in));
  });
}

// s32 add and sub with .sat clamp to the s32 range instead of wrapping.
template <bool Subtract>
void saturating_s32(const Inst& in, LaneContext& c) {
  const std::uint32_t* a = source<std::uint32_t>(c, in.src[0]);
  const std::uint32_t* b = source<std::uint32_t>(c, in.src[1]);
  write_lanes(destination<std::uint32_t>(c, in.dst), c, [a, b](unsigned l) {
    const std::int64_t x = static_cast<std::int32_t>(a[l]), y = static_cast<std::int32_t>(b[l]);
    const std::int64_t r = Subtract ? x - y : x + y;
    const std::int64_t lo = std::numeric_limits<std::int32_t>::min(), hi = std::numeric_limits<std::int32_t>::max();
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(r < lo ? lo : r > hi ? hi : r));
  });
}

enum class SpecialFn : std::uint8_t { Rcp, Rsqrt, Ex2, Lg2, Sin, Cos };

// The special functions with the host's libm (docs/ir.md gives the hardware's error bounds).
template <SpecialFn F, Type T>
void special_lanes(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  using V = Value<T>;
  const W* a = source<W>(c, in.src[0]);
  write_lanes(destination<W>(c, in.dst), c, [a, &in](unsigned l) {
    const V x = flush(value_of<T>(a[l]), in.ftz);
    V r;
    if constexpr (F == SpecialFn::Rcp) r = V{1} / x;
    else if constexpr (F == SpecialFn::Rsqrt) r = V{1} / std::sqrt(x);
    else if constexpr (F == SpecialFn::Ex2) r = std::exp2(x);
    else if constexpr (F == SpecialFn::Lg2) r = std::log2(x);
    else if constexpr (F == SpecialFn::Sin) r = std::sin(x);
    else r = std::cos(x);
    return word_of<T>(flush(r, in.ftz));
  });
}

// sqrt and div with .ftz or .sat (their .approx and .full forms compute as .rn: see docs/ir.md).
template <bool Divide, Type T>
void sqrt_div_lanes(const Inst& in, LaneContext& c) {
  using W = Word<T>;
  const W* a = source<W>(c, in.src[0]);
  const W* b = Divide ? source<W>(c, in.src[1]) : a;
  write_lanes(destination<W>(c, in.dst), c, [a, b, &in](unsigned l) {
    const auto x = flush(value_of<T>(a[l]), in.ftz);
    const auto y = flush(value_of<T>(b[l]), in.ftz);
    return word_of<T>(finish(Divide ? x / y : std::sqrt(x), in));
  });
}

// The integral value of x by a round-to-integral qualifier (.rni: to nearest even).
template <class V>
inline V integral(V x, Rounding r) {
  switch (r) {
    case Rounding::Rni: return std::nearbyint(x);
    case Rounding::Rmi: return std::floor(x);
    case Rounding::Rpi: return std::ceil(x);
    default: return std::trunc(x);
  }
}

// Float to integer with a round-to-integral qualifier: round, then saturate (NaN gives 0).
template <Type D, Type S>
void cvt_float_to_int(const Inst& in, LaneContext& c) {
  const Word<S>* a = source<Word<S>>(c, in.src[0]);
  write_lanes(destination<Word<D>>(c, in.dst), c, [a, &in](unsigned l) -> Word<D> {
    const double x = static_cast<double>(integral(flush(value_of<S>(a[l]), in.ftz), in.rounding));
    using I = Value<D>;
    if (std::isnan(x)) return 0;
    if (x <= static_cast<double>(std::numeric_limits<I>::min())) return word_of<D>(std::numeric_limits<I>::min());
    if (x >= static_cast<double>(std::numeric_limits<I>::max())) return word_of<D>(std::numeric_limits<I>::max());
    return word_of<D>(static_cast<I>(x));
  });
}

// Float or integer to float with any rounding qualifier, .ftz and .sat. The source is exact in
// long double (64-bit integers included), so the directed neighbours follow from one compare.
template <Type D, Type S>
void cvt_to_float(const Inst& in, LaneContext& c) {
  const Word<S>* a = source<Word<S>>(c, in.src[0]);
  write_lanes(destination<Word<D>>(c, in.dst), c, [a, &in](unsigned l) -> Word<D> {
    using V = Value<D>;
    if constexpr (kFloat<S>) {
      const auto x = flush(value_of<S>(a[l]), in.ftz);
      if (in.rounding >= Rounding::Rni && in.rounding <= Rounding::Rpi)
        return word_of<D>(finish(static_cast<V>(integral(x, in.rounding)), in));
      if constexpr (S == Type::F64 && D == Type::F32) {
        const auto f = static_cast<float>(x);
        const int below = x > static_cast<double>(f) ? 1 : x < static_cast<double>(f) ? -1 : 0;
        return word_of<D>(finish(direct(Rounded<float>{f, below}, in.rounding), in));
      } else {
        return word_of<D>(finish(static_cast<V>(x), in));
      }
    } else {
      const auto x = static_cast<long double>(value_of<S>(a[l]));
      const auto r = static_cast<V>(x);
      const long double back = r;
      const int below = x > back ? 1 : x < back ? -1 : 0;
      return word_of<D>(finish(direct(Rounded<V>{r, below}, in.rounding), in));
    }
  });
}

template <Type S>
ExecFn cvt_from(const isa::Instruction& inst) {
  const Type d = inst.type;
  const bool integral_rounding = inst.rounding >= Rounding::Rni && inst.rounding <= Rounding::Rpi;
  if (isa::is_float(d)) {
    if (!isa::is_float(S) && integral_rounding) return nullptr;
    return d == Type::F32 ? &cvt_to_float<Type::F32, S> : &cvt_to_float<Type::F64, S>;
  }
  if constexpr (kFloat<S>) {
    if (!(integral_rounding || inst.rounding == Rounding::None)) return nullptr;
    switch (d) {
      case Type::U8: return &cvt_float_to_int<Type::U8, S>;
      case Type::S8: return &cvt_float_to_int<Type::S8, S>;
      case Type::U16: return &cvt_float_to_int<Type::U16, S>;
      case Type::S16: return &cvt_float_to_int<Type::S16, S>;
      case Type::U32: return &cvt_float_to_int<Type::U32, S>;
      case Type::S32: return &cvt_float_to_int<Type::S32, S>;
      case Type::U64: return &cvt_float_to_int<Type::U64, S>;
      case Type::S64: return &cvt_float_to_int<Type::S64, S>;
      default: return nullptr;
    }
  }
  return nullptr;  // integer to integer with a qualifier (.sat) is not simulated
}

ExecFn select_cvt_qualified(const isa::Instruction& inst) {
  switch (inst.source_type) {
    case Type::U8: return cvt_from<Type::U8>(inst);
    case Type::S8: return cvt_from<Type::S8>(inst);
    case Type::U16: return cvt_from<Type::U16>(inst);
    case Type::S16: return cvt_from<Type::S16>(inst);
    case Type::U32: return cvt_from<Type::U32>(inst);
    case Type::S32: return cvt_from<Type::S32>(inst);
    case Type::U64: return cvt_from<Type::U64>(inst);
    case Type::S64: return cvt_from<Type::S64>(inst);
    case Type::F32: return cvt_from<Type::F32>(inst);
    case Type::F64: return cvt_from<Type::F64>(inst);
    default: return nullptr;
  }
}

template <Arith Op>
ExecFn arith_for(Type t, Rounding r) {
  if (t == Type::F32) return &arith_lanes<Op, Type::F32>;
  // f64 fma with a directed rounding would need more than a double for its error term.
  if (t == Type::F64 && !(Op == Arith::Fma && r != Rounding::None && r != Rounding::Rn)) return &arith_lanes<Op, Type::F64>;
  return nullptr;
}

template <SpecialFn F>
ExecFn special_for(Type t) {
  if (t == Type::F32) return &special_lanes<F, Type::F32>;
  if (t == Type::F64 && (F == SpecialFn::Rcp || F == SpecialFn::Rsqrt)) return &special_lanes<F, Type::F64>;
  return nullptr;
}

}  // namespace

bool has_qualifier_semantics(const isa::Instruction& inst) {
  using isa::Opcode;
  switch (inst.op) {
    case Opcode::Rcp:
    case Opcode::Rsqrt:
    case Opcode::Ex2:
    case Opcode::Lg2:
    case Opcode::Sin:
    case Opcode::Cos: return true;
    case Opcode::Cvt:
      // The IR's plain conversion already truncates floats to integers (.rzi) and rounds to nearest.
      if (inst.rounding == Rounding::Rzi && isa::is_float(inst.source_type) && !isa::is_float(inst.type))
        return inst.ftz || inst.saturate;
      break;
    default: break;
  }
  // .approx and .full compute as .rn (docs/ir.md).
  const bool nearest = inst.rounding == Rounding::None || inst.rounding == Rounding::Rn ||
                       inst.rounding == Rounding::Approx || inst.rounding == Rounding::Full;
  return !nearest || inst.ftz || inst.saturate;
}

ExecFn select_qualified(const isa::Instruction& inst) {
  using isa::Opcode;
  const Type t = inst.type;
  const Rounding r = inst.rounding;
  const bool directed = r == Rounding::Rz || r == Rounding::Rm || r == Rounding::Rp;
  switch (inst.op) {
    case Opcode::Add:
      if (t == Type::S32 && inst.saturate && r == Rounding::None) return &saturating_s32<false>;
      return arith_for<Arith::Add>(t, r);
    case Opcode::Sub:
      if (t == Type::S32 && inst.saturate && r == Rounding::None) return &saturating_s32<true>;
      return arith_for<Arith::Sub>(t, r);
    case Opcode::Mul: return arith_for<Arith::Mul>(t, r);
    case Opcode::Mad:
    case Opcode::Fma: return arith_for<Arith::Fma>(t, r);
    case Opcode::Div:
      if (directed) return nullptr;
      return t == Type::F32 ? &sqrt_div_lanes<true, Type::F32> : t == Type::F64 ? &sqrt_div_lanes<true, Type::F64> : nullptr;
    case Opcode::Sqrt:
      if (directed) return nullptr;
      return t == Type::F32 ? &sqrt_div_lanes<false, Type::F32> : t == Type::F64 ? &sqrt_div_lanes<false, Type::F64> : nullptr;
    case Opcode::Rcp: return directed ? nullptr : special_for<SpecialFn::Rcp>(t);
    case Opcode::Rsqrt: return special_for<SpecialFn::Rsqrt>(t);
    case Opcode::Ex2: return special_for<SpecialFn::Ex2>(t);
    case Opcode::Lg2: return special_for<SpecialFn::Lg2>(t);
    case Opcode::Sin: return special_for<SpecialFn::Sin>(t);
    case Opcode::Cos: return special_for<SpecialFn::Cos>(t);
    case Opcode::Cvt: return select_cvt_qualified(inst);
    default: return nullptr;
  }
}

}  // namespace warpsim::sim
