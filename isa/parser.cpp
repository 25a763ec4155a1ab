// The .kir parser: reads a module line by line (one statement per line), collects every error it
// finds and recovers at the next line, or at the next `kernel` after a bad kernel header.
#include "isa/parser.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "isa/instruction_parser.hpp"
#include "isa/lexer.hpp"
#include "isa/source_file.hpp"

namespace warpsim::isa {

namespace {

constexpr std::size_t kMaxErrors = 100;

// A branch target used before the end of the kernel; resolved when the kernel closes.
struct LabelUse {
  std::size_t instruction = 0;
  unsigned operand = 0;
  std::string name;
  Span span;
};

std::string loc_text(SourceLoc loc) { return fmt::format("{}:{}", loc.line, loc.column); }

std::string describe_token(const std::vector<Token>& tokens, std::size_t i) {
  if (i >= tokens.size()) return "end of line";
  return fmt::format("'{}'", printable(tokens[i].text));
}

bool is_plain_name(std::string_view text) { return text.find('.') == std::string_view::npos; }

class Parser {
 public:
  Parser(std::string_view text, std::string file) : text_(text) { result_.module.file = std::move(file); }

  ParseResult run() {
    std::size_t start = 0;
    while (start <= text_.size() && !stopped_) {
      std::size_t end = text_.find('\n', start);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      ++line_no_;
      parse_line(line);
      start = end + 1;
    }
    if (kernel_ && !stopped_) {
      error(kernel_span_, fmt::format("kernel '{}' is not terminated: expected '}}' before end of file",
                                      kernel_->name));
      close_kernel();
    }
    for (Kernel& k : result_.module.kernels) k.files = result_.module.files;
    return std::move(result_);
  }

 private:
  // ---- diagnostics ----
  void error(Span span, std::string message) {
    if (stopped_) return;
    Diagnostic d;
    d.file = result_.module.file;
    d.loc = {span.line, span.column};
    d.message = std::move(message);
    d.source_line = span.line == line_no_ ? std::string(line_) : std::string(line_text(span.line));
    d.length = std::max<std::uint32_t>(1, span.length);
    result_.diagnostics.push_back(std::move(d));
    if (result_.diagnostics.size() >= kMaxErrors) {
      Diagnostic stop = result_.diagnostics.back();
      stop.message = "too many errors; stopping here";
      result_.diagnostics.push_back(std::move(stop));
      stopped_ = true;
    }
  }

  std::string_view line_text(std::uint32_t wanted) const {
    std::size_t start = 0;
    for (std::uint32_t n = 1; n < wanted; ++n) {
      start = text_.find('\n', start);
      if (start == std::string_view::npos) return {};
      ++start;
    }
    std::size_t end = std::min(text_.find('\n', start), text_.size());
    std::string_view line = text_.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }

  Span span_of(const Token& t) const {
    return {line_no_, t.column, static_cast<std::uint32_t>(t.text.size())};
  }
  // The token at i, or the end of the line.
  Span span_at(std::size_t i) const {
    if (i < tokens_.size()) return span_of(tokens_[i]);
    return {line_no_, static_cast<std::uint32_t>(line_.size() + 1), 1};
  }
  SourceLoc loc_of(const Token& t) const { return {line_no_, t.column}; }
  void expected(std::size_t i, std::string_view what) {
    error(span_at(i), fmt::format("expected {}, found {}", what, describe_token(tokens_, i)));
  }

  // ---- lines and kernels ----
  void parse_line(std::string_view line) {
    line_ = line;
    if (!kernel_ && parse_file_line(line)) return;
    tokens_ = lex_line(line);
    if (tokens_.empty()) return;
    for (const Token& t : tokens_) {
      if (t.kind == TokenKind::Invalid) {
        error(span_of(t), fmt::format("unexpected character '{}'", printable(t.text)));
        return;
      }
    }
    const bool starts_kernel = tokens_[0].kind == TokenKind::Word && tokens_[0].text == "kernel" &&
                               !(tokens_.size() > 1 && tokens_[1].is(':'));
    if (kernel_) {
      if (starts_kernel) {
        error(kernel_span_, fmt::format("kernel '{}' is not terminated: expected '}}' before the next kernel",
                                        kernel_->name));
        close_kernel();
      } else if (tokens_[0].is('}')) {
        if (tokens_.size() > 1) expected(1, "end of line after '}'");
        close_kernel();
        return;
      } else {
        parse_statement();
        return;
      }
    }
    if (starts_kernel) {
      skipping_ = !parse_header();
    } else if (!skipping_) {
      if (tokens_[0].is('}'))
        error(span_of(tokens_[0]), "unexpected '}' outside a kernel");
      else
        expected(0, "'kernel'");
      skipping_ = true;
    }
  }

  // `file N "path"` outside kernels: a source file that `loc` statements name (PTX's .file). The
  // path is quoted and taken as written, so it is read here rather than by the lexer.
  bool parse_file_line(std::string_view line) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line.substr(first, 5) != "file ") return false;
    std::string_view rest = line.substr(first + 5);
    const auto column = [&](std::string_view at) {
      return static_cast<std::uint32_t>(at.data() - line.data() + 1);
    };
    rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
    const auto digits = rest.find_first_not_of("0123456789");
    const auto number = decode_number(rest.substr(0, digits));
    const auto quote = digits == std::string_view::npos ? digits : rest.find('"', digits);
    const auto close = quote == std::string_view::npos ? quote : rest.find('"', quote + 1);
    if (digits == 0 || number.form != NumberLiteral::Form::Integer || number.integer == 0 ||
        number.integer > 0xffffffffu || quote == std::string_view::npos || close == std::string_view::npos ||
        rest.substr(digits, quote - digits).find_first_not_of(' ') != std::string_view::npos ||
        rest.substr(close + 1).find_first_not_of(" \t") != std::string_view::npos) {
      error({line_no_, column(rest), static_cast<std::uint32_t>(rest.size())},
            "expected file N \"path\" with N a positive number");
      return true;
    }
    const auto index = static_cast<std::uint32_t>(number.integer);
    for (const auto& f : result_.module.files)
      if (f.index == index) {
        error({line_no_, column(rest), static_cast<std::uint32_t>(digits)}, fmt::format("file {} is given twice", index));
        return true;
      }
    result_.module.files.push_back({index, std::string(rest.substr(quote + 1, close - quote - 1))});
    return true;
  }

  bool parse_header() {
    Kernel k;
    k.loc = loc_of(tokens_[0]);
    std::size_t i = 1;
    if (i >= tokens_.size() || tokens_[i].kind != TokenKind::Word || !is_plain_name(tokens_[i].text)) {
      expected(i, "a kernel name after 'kernel'");
      return false;
    }
    k.name = tokens_[i].text;
    kernel_name_ = tokens_[i].text;
    kernel_span_ = span_of(tokens_[i]);
    if (const auto other = kernel_names_.find(tokens_[i].text); other != kernel_names_.end()) {
      error(kernel_span_, fmt::format("duplicate kernel '{}' (first defined at {})", k.name, loc_text(other->second)));
      return false;
    }
    if (!(++i < tokens_.size() && tokens_[i].is('('))) {
      expected(i, "'(' after the kernel name");
      return false;
    }
    ++i;
    kernel_ = std::move(k);
    origin_ = {};
    names_.clear();
    label_uses_.clear();
    if (!(i < tokens_.size() && tokens_[i].is(')'))) {
      while (true) {
        if (!parse_param(i)) return abandon_kernel();
        if (i < tokens_.size() && tokens_[i].is(',')) {
          ++i;
          continue;
        }
        if (i < tokens_.size() && tokens_[i].is(')')) break;
        expected(i, "',' or ')' in the parameter list");
        return abandon_kernel();
      }
    }
    ++i;  // ')'
    if (!(i < tokens_.size() && tokens_[i].is('{'))) {
      expected(i, "'{' at the end of the kernel header");
      return abandon_kernel();
    }
    if (i + 1 < tokens_.size()) {
      expected(i + 1, "end of line after '{'");
      return abandon_kernel();
    }
    return true;
  }

  bool abandon_kernel() {
    kernel_.reset();
    return false;
  }

  bool parse_param(std::size_t& i) {
    if (i >= tokens_.size() || tokens_[i].kind != TokenKind::Word) {
      expected(i, "a parameter type (u32, s32, u64, f32 or ptr.T)");
      return false;
    }
    std::string_view type_text = tokens_[i].text;
    Register r;
    r.is_param = true;
    std::optional<Type> type;
    if (type_text.starts_with("ptr.")) {
      type = type_from_name(type_text.substr(4));
      r.pointee = type.value_or(Type::None);
      if (type && *type != Type::Pred) type = Type::U64;
    } else {
      type = type_from_name(type_text);
    }
    if (!type || *type == Type::Pred || type_bytes(*type) == 1) {
      expected(i, "a parameter type (u32, s32, u64, f32 or ptr.T)");
      return false;
    }
    r.type = *type;
    ++i;
    if (!declare_register(i, std::move(r))) return false;
    ++i;
    return true;
  }

  // Adds the register named by tokens_[i] to the open kernel.
  bool declare_register(std::size_t i, Register r) {
    if (i >= tokens_.size() || tokens_[i].kind != TokenKind::Word || !is_plain_name(tokens_[i].text)) {
      expected(i, r.is_param ? "a parameter name" : "a register name");
      return false;
    }
    if (!check_new_name(tokens_[i])) return false;
    r.name = tokens_[i].text;
    r.loc = loc_of(tokens_[i]);
    Kernel& k = *kernel_;
    const auto index = static_cast<std::uint32_t>(k.registers.size());
    if (r.is_param) k.params.push_back(index);
    names_.add_register(tokens_[i].text, index);
    k.registers.push_back(std::move(r));
    return true;
  }

  // Registers, parameters and shared arrays share one name space.
  bool check_new_name(const Token& name) {
    const Kernel& k = *kernel_;
    if (int r = names_.find_register(name.text); r >= 0) {
      error(span_of(name), fmt::format("duplicate register '{}' (first declared at {})", name.text,
                                       loc_text(k.registers[r].loc)));
      return false;
    }
    if (int s = names_.find_shared(name.text); s >= 0) {
      error(span_of(name), fmt::format("duplicate {} array '{}' (first declared at {})", space_name(k.shared[s].space), name.text,
                                       loc_text(k.shared[s].loc)));
      return false;
    }
    return true;
  }

  void close_kernel() {
    Kernel& k = *kernel_;
    for (const LabelUse& use : label_uses_) {
      const int label = names_.find_label(use.name);
      if (label < 0)
        error(use.span, fmt::format("unknown label '{}'", use.name));
      else
        k.code[use.instruction].operands[use.operand].index = static_cast<std::uint32_t>(label);
    }
    label_uses_.clear();
    names_.clear();
    kernel_names_.emplace(kernel_name_, k.loc);
    result_.module.kernels.push_back(std::move(k));
    kernel_.reset();
  }

  // ---- statements ----
  void parse_statement() {
    const Token& first = tokens_[0];
    if (first.kind == TokenKind::Word && tokens_.size() >= 2 && tokens_[1].is(':')) {
      parse_label();
    } else if (first.kind == TokenKind::Word && first.text == "reg") {
      parse_reg_declaration();
    } else if (first.kind == TokenKind::Word && (first.text == "shared" || first.text == "local")) {
      parse_shared_declaration(first.text == "local" ? Space::Local : Space::Shared);
    } else if (first.kind == TokenKind::Word && first.text == "loc") {
      parse_loc();
    } else {
      parse_instruction();
    }
  }

  void parse_label() {
    const Token& name = tokens_[0];
    if (!is_plain_name(name.text)) {
      error(span_of(name), fmt::format("bad label name '{}'", name.text));
      return;
    }
    if (tokens_.size() > 2) {
      expected(2, fmt::format("end of line after label '{}:'", name.text));
      return;
    }
    Kernel& k = *kernel_;
    if (int other = names_.find_label(name.text); other >= 0) {
      error(span_of(name), fmt::format("duplicate label '{}' (first defined at {})", name.text,
                                       loc_text(k.labels[other].loc)));
      return;
    }
    names_.add_label(name.text, static_cast<std::uint32_t>(k.labels.size()));
    k.labels.push_back({std::string(name.text), static_cast<std::uint32_t>(k.code.size()), loc_of(name)});
  }

  void parse_reg_declaration() {
    std::optional<Type> type;
    if (tokens_.size() > 1 && tokens_[1].kind == TokenKind::Word) type = type_from_name(tokens_[1].text);
    if (!type || type_bytes(*type) == 1) {  // no register is 8 bits wide
      expected(1, "a register type (pred, u16, s16, u32, s32, u64, s64, f32, f64, b16, b32 or b64)");
      return;
    }
    for (std::size_t i = 2;; i += 2) {
      Register r;
      r.type = *type;
      if (!declare_register(i, std::move(r))) return;
      if (i + 1 >= tokens_.size()) return;
      if (!tokens_[i + 1].is(',')) {
        expected(i + 1, "',' between register names");
        return;
      }
    }
  }

  // `shared TYPE name[N]` (per block) or `local TYPE name[N]` (per thread).
  void parse_shared_declaration(Space space) {
    const std::string_view what = space == Space::Local ? "local" : "shared";
    std::optional<Type> type;
    if (tokens_.size() > 1 && tokens_[1].kind == TokenKind::Word) type = type_from_name(tokens_[1].text);
    if (!type || *type == Type::Pred) {
      expected(1, "an element type (u32, s32, u64 or f32)");
      return;
    }
    if (tokens_.size() < 3 || tokens_[2].kind != TokenKind::Word || !is_plain_name(tokens_[2].text)) {
      expected(2, fmt::format("a {} array name", what));
      return;
    }
    const Token& name = tokens_[2];
    if (!check_new_name(name)) return;
    if (tokens_.size() < 4 || !tokens_[3].is('[')) {
      expected(3, "'[' and the element count");
      return;
    }
    const NumberLiteral count = tokens_.size() > 4 && tokens_[4].kind == TokenKind::Number
                                    ? decode_number(tokens_[4].text)
                                    : NumberLiteral{};
    if (count.form != NumberLiteral::Form::Integer || count.integer_overflow || count.integer == 0) {
      error(span_at(4), fmt::format("{} array size must be a positive constant", what));
      return;
    }
    if (tokens_.size() < 6 || !tokens_[5].is(']')) {
      expected(5, "']' after the element count");
      return;
    }
    if (tokens_.size() > 6) {
      expected(6, fmt::format("end of line after the {} array", what));
      return;
    }
    Kernel& k = *kernel_;
    const std::uint64_t size = type_bytes(*type);
    // Arrays are laid out in declaration order within their space, so the last one of the space
    // ends the memory used so far.
    std::uint64_t used = 0;
    for (const SharedArray& a : k.shared)
      if (a.space == space) used = std::uint64_t{a.offset} + a.bytes();
    const std::uint64_t offset = (used + size - 1) / size * size;
    if (count.integer > (std::uint64_t{1} << 32) || offset + count.integer * size > std::numeric_limits<std::uint32_t>::max()) {
      error(span_of(tokens_[4]), fmt::format("{} array '{}' does not fit in a 32-bit {} address space", what, name.text, what));
      return;
    }
    SharedArray s;
    s.name = name.text;
    s.element = *type;
    s.count = static_cast<std::uint32_t>(count.integer);
    s.offset = static_cast<std::uint32_t>(offset);
    s.space = space;
    s.loc = loc_of(name);
    names_.add_shared(name.text, static_cast<std::uint32_t>(k.shared.size()));
    k.shared.push_back(std::move(s));
  }

  // `loc F L`: the instructions that follow come from line L of source file F (0 0: from none).
  void parse_loc() {
    std::uint32_t values[2] = {};
    for (std::size_t i = 1; i <= 2; ++i) {
      const auto n = i < tokens_.size() && tokens_[i].kind == TokenKind::Number ? decode_number(tokens_[i].text)
                                                                                 : NumberLiteral{};
      if (n.form != NumberLiteral::Form::Integer || n.integer_overflow || n.integer > 0xffffffffu) {
        expected(i, i == 1 ? "a file number after 'loc'" : "a line number after the file number");
        return;
      }
      values[i - 1] = static_cast<std::uint32_t>(n.integer);
    }
    if (tokens_.size() > 3) {
      expected(3, "end of line after 'loc F L'");
      return;
    }
    if (values[0] != 0 && std::none_of(result_.module.files.begin(), result_.module.files.end(),
                                       [&](const SourceFileName& f) { return f.index == values[0]; })) {
      error(span_of(tokens_[1]), fmt::format("no file {}: declare it with file {} \"path\" before the kernel", values[0], values[0]));
      return;
    }
    origin_ = {values[0], values[1]};
  }

  void parse_instruction() {
    std::vector<PendingLabel> labels;
    ErrorSink sink = [this](Span span, std::string message) { error(span, std::move(message)); };
    std::optional<Instruction> in = read_instruction(tokens_, line_no_, line_, *kernel_, names_, labels, sink);
    if (!in) return;
    Kernel& k = *kernel_;
    for (PendingLabel& l : labels)
      label_uses_.push_back({k.code.size(), l.operand, std::move(l.name), l.span});
    in->origin = origin_;
    k.code.push_back(*in);
  }

  std::string_view text_;
  std::string_view line_;
  std::vector<Token> tokens_;
  std::uint32_t line_no_ = 0;
  ParseResult result_;
  std::optional<Kernel> kernel_;  // the kernel being read
  KernelNames names_;              // its names so far
  std::string_view kernel_name_;   // its name in the source text
  std::unordered_map<std::string_view, SourceLoc> kernel_names_;  // the kernels closed so far
  Span kernel_span_;
  std::vector<LabelUse> label_uses_;
  Origin origin_;          // from the last `loc` of the kernel being read
  bool skipping_ = false;  // after a bad kernel header: skip to the next `kernel`
  bool stopped_ = false;   // too many errors
};

}  // namespace

ParseResult parse(std::string_view text, std::string file) { return Parser(text, std::move(file)).run(); }

ParseResult parse_file(const std::string& path) {
  std::string why;
  auto text = read_source_file(path, why);
  if (!text) {
    ParseResult r;
    r.module.file = path;
    Diagnostic d;
    d.file = path;
    d.message = fmt::format("cannot read '{}': {}", path, why);
    r.diagnostics.push_back(std::move(d));
    return r;
  }
  return parse(*text, path);
}

}  // namespace warpsim::isa
