// Reads one instruction line of .kir text (guard, mnemonic, operands) and checks it against the
// opcode table and the kernel's declarations so far. Internal to the parser.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "isa/lexer.hpp"
#include "isa/module.hpp"

namespace warpsim::isa {

// Where a diagnostic points: a line and a span of columns in it.
struct Span {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t length = 1;
};

using ErrorSink = std::function<void(Span, std::string)>;

// A label operand; the parser fills in the label index when the kernel is complete.
struct PendingLabel {
  unsigned operand = 0;
  std::string name;
  Span span;
};

// The instruction on this line, or nullopt after reporting its errors.
std::optional<Instruction> read_instruction(const std::vector<Token>& tokens, std::uint32_t line,
                                            std::string_view line_text, const Kernel& kernel,
                                            std::vector<PendingLabel>& labels, const ErrorSink& error);

}  // namespace warpsim::isa
