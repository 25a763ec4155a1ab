// Splits one line of .kir text into tokens and decodes numeric literals. The language is
// line-oriented (one statement per line), so the parser asks for one line's tokens at a time.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::isa {

enum class TokenKind : std::uint8_t {
  Word,     // name or dotted word: vecadd, ld.global.f32, ptr.f32
  Special,  // %tid.x
  Number,   // starts with a digit; decoded (and rejected if malformed) by decode_number
  Punct,    // one of @ ! : , ( ) { } [ ] + -
  Invalid,  // a character the language does not use
};

struct Token {
  TokenKind kind = TokenKind::Invalid;
  std::string_view text;
  std::uint32_t column = 1;  // 1-based byte column
  bool is(char punct) const { return kind == TokenKind::Punct && text.size() == 1 && text[0] == punct; }
};

// Tokens of one line (without its line break); a `//` comment ends the line.
std::vector<Token> lex_line(std::string_view line);

// A decoded numeric literal (without its sign; a leading '-' is a separate token).
struct NumberLiteral {
  // FloatBits: 0f and eight hex digits (f32 bits); DoubleBits: 0d and sixteen (f64 bits, as PTX writes them).
  enum class Form : std::uint8_t { Bad, Integer, Float, FloatBits, DoubleBits } form = Form::Bad;
  std::uint64_t integer = 0;  // Integer: the value
  bool integer_overflow = false;  // Integer: the value does not fit in 64 bits
  std::uint32_t float_bits = 0;  // Float and FloatBits: the IEEE single-precision bits
  bool float_out_of_range = false;  // Float: overflows to infinity or underflows to zero
  std::uint64_t double_bits = 0;    // Float and DoubleBits: the IEEE double-precision bits
  bool double_out_of_range = false;  // Float: overflows or underflows as a double
};
NumberLiteral decode_number(std::string_view text);

// A token's text for a message: printable characters as they are, others as \xNN.
std::string printable(std::string_view text);

}  // namespace warpsim::isa
