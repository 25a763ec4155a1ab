// The IR's rules for a number of a given type, in one place: the parser reads immediates with them,
// and the command line and scenario files read --arg, --set, buffer values and bounds with them,
// so a value is accepted in one exactly when it is accepted in the other (docs/inputs.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "isa/types.hpp"

namespace warpsim::isa {

enum class LiteralProblem : std::uint8_t {
  None,
  Malformed,        // not a number the IR can write
  OutOfRange,       // outside the type's range, or a float that overflows or underflows
  FloatForInteger,  // a float literal for an integer type
  PredNotBit,       // a pred value other than 0 or 1
  NotExactF32,      // an integer literal for f32 that f32 cannot hold exactly
  NotExactF64,      // an integer literal for f64 that f64 cannot hold exactly
};

struct LiteralValue {
  std::uint64_t bits = 0;  // the value's bits (f32/f64 as IEEE bits, signed types sign-extended, bit types masked)
  LiteralProblem problem = LiteralProblem::None;
};

// `digits` without its sign (as decode_number takes it), `negative` when a '-' stood in front.
LiteralValue literal_bits(std::string_view digits, bool negative, Type type);

// The same from text with an optional leading '-'; nullopt with `why` ("is out of range for u32")
// when the IR would refuse it.
std::optional<std::uint64_t> parse_literal(std::string_view text, Type type, std::string& why);

}  // namespace warpsim::isa
