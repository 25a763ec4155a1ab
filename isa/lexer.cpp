#include "isa/lexer.hpp"

#include <bit>
#include <charconv>

#include <fmt/format.h>

namespace warpsim::isa {

namespace {
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
constexpr std::string_view kPunct = "@!:,(){}[]+-";

// Length of the number starting at text[0] (a digit). Takes every name character so that `12z`
// is one (bad) token rather than a number followed by a name; a decimal exponent may carry a sign.
std::size_t number_length(std::string_view text) {
  const bool prefixed = text.size() > 1 && text[0] == '0' &&
                        (text[1] == 'x' || text[1] == 'X' || text[1] == 'f' || text[1] == 'F');
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (is_name_char(c) || (!prefixed && c == '.')) {
      ++i;
    } else if (!prefixed && (c == '+' || c == '-') && (text[i - 1] == 'e' || text[i - 1] == 'E')) {
      ++i;
    } else {
      break;
    }
  }
  return i;
}

bool all_of(std::string_view s, bool (*pred)(char)) {
  for (char c : s)
    if (!pred(c)) return false;
  return true;
}

// digits [. digits*] [(e|E) [+|-] digits]: the decimal forms the language accepts.
bool is_decimal_float(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == 0) return false;
  bool shaped = false;
  if (i < s.size() && s[i] == '.') {
    shaped = true;
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    shaped = true;
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == start) return false;
  }
  return shaped && i == s.size();
}
}  // namespace

std::vector<Token> lex_line(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (is_space(c)) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    Token t;
    t.column = static_cast<std::uint32_t>(i + 1);
    std::size_t length = 1;
    if (is_name_start(c) || c == '%') {
      t.kind = c == '%' ? TokenKind::Special : TokenKind::Word;
      while (i + length < line.size() && (is_name_char(line[i + length]) || line[i + length] == '.')) ++length;
      if (c == '%' && length == 1) t.kind = TokenKind::Invalid;
    } else if (is_digit(c)) {
      t.kind = TokenKind::Number;
      length = number_length(line.substr(i));
    } else if (kPunct.find(c) != std::string_view::npos) {
      t.kind = TokenKind::Punct;
    } else {
      t.kind = TokenKind::Invalid;
    }
    t.text = line.substr(i, length);
    tokens.push_back(t);
    i += length;
  }
  return tokens;
}

NumberLiteral decode_number(std::string_view s) {
  NumberLiteral n;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    const std::string_view digits = s.substr(2);
    if (!all_of(digits, is_hex_digit)) return n;
    n.form = NumberLiteral::Form::Integer;
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n.integer, 16);
    n.integer_overflow = r.ec == std::errc::result_out_of_range;
    return n;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) {
    const std::string_view digits = s.substr(2);
    if (digits.size() != 8 || !all_of(digits, is_hex_digit)) return n;
    n.form = NumberLiteral::Form::FloatBits;
    std::from_chars(digits.data(), digits.data() + digits.size(), n.float_bits, 16);
    return n;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) {
    const std::string_view digits = s.substr(2);
    if (digits.size() != 16 || !all_of(digits, is_hex_digit)) return n;
    n.form = NumberLiteral::Form::DoubleBits;
    std::from_chars(digits.data(), digits.data() + digits.size(), n.double_bits, 16);
    return n;
  }
  if (!s.empty() && all_of(s, is_digit)) {
    n.form = NumberLiteral::Form::Integer;
    auto r = std::from_chars(s.data(), s.data() + s.size(), n.integer, 10);
    n.integer_overflow = r.ec == std::errc::result_out_of_range;
    return n;
  }
  if (is_decimal_float(s)) {
    n.form = NumberLiteral::Form::Float;
    float value = 0.0f;
    auto r = std::from_chars(s.data(), s.data() + s.size(), value);
    n.float_out_of_range = r.ec == std::errc::result_out_of_range;
    n.float_bits = std::bit_cast<std::uint32_t>(value);
    double wide = 0.0;
    auto d = std::from_chars(s.data(), s.data() + s.size(), wide);
    n.double_out_of_range = d.ec == std::errc::result_out_of_range;
    n.double_bits = std::bit_cast<std::uint64_t>(wide);
  }
  return n;
}

std::string printable(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f)
      out += c;
    else
      out += fmt::format("\\x{:02x}", u);
  }
  return out;
}

}  // namespace warpsim::isa
