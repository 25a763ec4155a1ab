// Reads one instruction line of .kir text (guard, mnemonic, operands) and checks it against the
// opcode table and the kernel's declarations so far. Internal to the parser.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
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

// The names declared so far in the kernel being read, each mapped to its index in the kernel's
// list, so that a lookup costs the same in a kernel of a million names as in one of ten. The keys
// view the source text, which outlives the parse.
class KernelNames {
 public:
  using Table = std::unordered_map<std::string_view, std::uint32_t>;
  int find_register(std::string_view name) const { return find(registers_, name); }
  int find_shared(std::string_view name) const { return find(shared_, name); }
  int find_label(std::string_view name) const { return find(labels_, name); }
  void add_register(std::string_view name, std::uint32_t index) { registers_.emplace(name, index); }
  void add_shared(std::string_view name, std::uint32_t index) { shared_.emplace(name, index); }
  void add_label(std::string_view name, std::uint32_t index) { labels_.emplace(name, index); }
  void clear() {
    registers_.clear();
    shared_.clear();
    labels_.clear();
  }

 private:
  static int find(const Table& table, std::string_view name) {
    const auto it = table.find(name);
    return it == table.end() ? -1 : static_cast<int>(it->second);
  }
  Table registers_, shared_, labels_;
};

// The instruction on this line, or nullopt after reporting its errors.
std::optional<Instruction> read_instruction(const std::vector<Token>& tokens, std::uint32_t line,
                                            std::string_view line_text, const Kernel& kernel,
                                            const KernelNames& names, std::vector<PendingLabel>& labels,
                                            const ErrorSink& error);

}  // namespace warpsim::isa
