#include "isa/literal.hpp"

#include <bit>

#include <fmt/format.h>

#include "isa/lexer.hpp"

namespace warpsim::isa {

LiteralValue literal_bits(std::string_view digits, bool negative, Type type) {
  const NumberLiteral n = decode_number(digits);
  LiteralValue out;
  auto problem = [&](LiteralProblem p) {
    out.problem = p;
    return out;
  };
  if (n.form == NumberLiteral::Form::Bad) return problem(LiteralProblem::Malformed);
  if (n.form == NumberLiteral::Form::DoubleBits) {  // 0d: f64 bits, as PTX writes them
    if (type != Type::F64 && type != Type::B64) return problem(LiteralProblem::FloatForInteger);
    out.bits = n.double_bits ^ (negative ? 0x8000000000000000u : 0u);
    return out;
  }
  if (n.form == NumberLiteral::Form::Float && type == Type::F64) {
    if (n.double_out_of_range) return problem(LiteralProblem::OutOfRange);
    out.bits = n.double_bits ^ (negative ? 0x8000000000000000u : 0u);
    return out;
  }
  if (n.form == NumberLiteral::Form::FloatBits && type == Type::B32) {
    out.bits = n.float_bits ^ (negative ? 0x80000000u : 0u);
    return out;
  }
  if (n.form == NumberLiteral::Form::Float || n.form == NumberLiteral::Form::FloatBits) {
    if (type != Type::F32) return problem(LiteralProblem::FloatForInteger);
    if (n.float_out_of_range) return problem(LiteralProblem::OutOfRange);
    out.bits = n.float_bits ^ (negative ? 0x80000000u : 0u);
    return out;
  }
  if (n.integer_overflow) return problem(LiteralProblem::OutOfRange);
  const std::uint64_t v = n.integer;
  const bool minus = negative && v != 0;
  switch (type) {
    case Type::Pred:
      if (minus || v > 1) return problem(LiteralProblem::PredNotBit);
      out.bits = v;
      return out;
    case Type::U32:
      if (minus || v > 0xffffffffu) return problem(LiteralProblem::OutOfRange);
      out.bits = v;
      return out;
    case Type::S32:
      if (v > (minus ? 0x80000000u : 0x7fffffffu)) return problem(LiteralProblem::OutOfRange);
      out.bits = static_cast<std::uint64_t>(minus ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v));
      return out;
    case Type::U64:
      if (minus) return problem(LiteralProblem::OutOfRange);
      out.bits = v;
      return out;
    case Type::S64:
      if (v > (minus ? 0x8000000000000000u : 0x7fffffffffffffffu)) return problem(LiteralProblem::OutOfRange);
      out.bits = minus ? 0 - v : v;
      return out;
    case Type::U16:
    case Type::U8:
      if (minus || v > (type == Type::U8 ? 0xffu : 0xffffu)) return problem(LiteralProblem::OutOfRange);
      out.bits = v;
      return out;
    case Type::S16:
    case Type::S8:
      if (v > (type == Type::S8 ? (minus ? 0x80u : 0x7fu) : (minus ? 0x8000u : 0x7fffu)))
        return problem(LiteralProblem::OutOfRange);
      out.bits = minus ? 0 - v : v;
      return out;
    case Type::B8:
    case Type::B16:
    case Type::B32:
    case Type::B64: {
      // A bit type takes any value of its width, signed or unsigned, and keeps the bit pattern.
      const unsigned width = type_bytes(type) * 8;
      const std::uint64_t mask = width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
      if (minus ? v - 1 > mask >> 1 : v > mask) return problem(LiteralProblem::OutOfRange);
      out.bits = (minus ? 0 - v : v) & mask;
      return out;
    }
    case Type::F64: {
      const double magnitude = static_cast<double>(v);
      if (magnitude >= 0x1p64 || static_cast<std::uint64_t>(magnitude) != v) return problem(LiteralProblem::NotExactF64);
      out.bits = std::bit_cast<std::uint64_t>(minus ? -magnitude : magnitude);
      return out;
    }
    case Type::F32: {
      const float magnitude = static_cast<float>(v);
      if (magnitude >= 0x1p64f || static_cast<std::uint64_t>(magnitude) != v) return problem(LiteralProblem::NotExactF32);
      out.bits = std::bit_cast<std::uint32_t>(minus ? -magnitude : magnitude);
      return out;
    }
    case Type::None: break;
  }
  return problem(LiteralProblem::Malformed);
}

std::optional<std::uint64_t> parse_literal(std::string_view text, Type type, std::string& why) {
  const bool negative = !text.empty() && text.front() == '-';
  const auto value = literal_bits(negative ? text.substr(1) : text, negative, type);
  switch (value.problem) {
    case LiteralProblem::None: return value.bits;
    case LiteralProblem::Malformed:
      why = fmt::format("'{}' is not a {} number the IR accepts", printable(text), type_name(type));
      break;
    case LiteralProblem::OutOfRange: why = fmt::format("{} is out of range for {}", printable(text), type_name(type)); break;
    case LiteralProblem::FloatForInteger:
      why = fmt::format("'{}' is a float literal, but the value is {}", printable(text), type_name(type));
      break;
    case LiteralProblem::PredNotBit: why = fmt::format("a pred value must be 0 or 1, found '{}'", printable(text)); break;
    case LiteralProblem::NotExactF32: why = fmt::format("{} is not exactly representable as f32", printable(text)); break;
    case LiteralProblem::NotExactF64: why = fmt::format("{} is not exactly representable as f64", printable(text)); break;
  }
  return std::nullopt;
}

}  // namespace warpsim::isa
