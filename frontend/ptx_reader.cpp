#include "frontend/ptx_reader.hpp"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace warpsim::frontend {

namespace {

struct Token {
  std::string text;
  std::uint32_t line = 0;
  bool string = false;  // a "quoted" string (text without the quotes)
};

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> out;
  std::uint32_t line = 1;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i += 2;
      while (i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/')) line += text[i++] == '\n';
      i += 2;
    } else if (c == '"') {
      const std::size_t end = text.find('"', i + 1);
      if (end == std::string_view::npos) throw PtxError(line, "unterminated string");
      out.push_back({std::string(text.substr(i + 1, end - i - 1)), line, true});
      i = end + 1;
    } else if (word_char(c)) {
      std::size_t j = i;
      while (j < text.size() && word_char(text[j])) ++j;
      out.push_back({std::string(text.substr(i, j - i)), line, false});
      i = j;
    } else if (std::string_view("{}()[];,:@!+-<>|=").find(c) != std::string_view::npos) {
      out.push_back({std::string(1, c), line, false});
      ++i;
    } else {
      throw PtxError(line, fmt::format("unexpected character '{}'", c));
    }
  }
  return out;
}

std::uint64_t number(const Token& t) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
  if (ec != std::errc() || end != t.text.data() + t.text.size())
    throw PtxError(t.line, fmt::format("expected a number, found '{}'", t.text));
  return v;
}

class Reader {
 public:
  explicit Reader(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  PtxModule run() {
    while (i_ < t_.size()) top_level();
    return std::move(module_);
  }

 private:
  const Token& peek(std::size_t ahead = 0) const {
    static const Token end{"<end of file>", 0, false};
    return i_ + ahead < t_.size() ? t_[i_ + ahead] : end;
  }
  std::uint32_t line() const { return i_ < t_.size() ? t_[i_].line : (t_.empty() ? 1 : t_.back().line); }
  const Token& next() {
    if (i_ >= t_.size()) throw PtxError(line(), "unexpected end of file");
    return t_[i_++];
  }
  void expect(std::string_view text) {
    const Token& t = next();
    if (t.text != text || t.string) throw PtxError(t.line, fmt::format("expected '{}', found '{}'", text, t.text));
  }
  // Consumes the rest of the line the current token is on.
  std::vector<Token> rest_of_line() {
    std::vector<Token> out;
    const std::uint32_t l = line();
    while (i_ < t_.size() && t_[i_].line == l) out.push_back(t_[i_++]);
    return out;
  }
  void skip_to_semicolon() {
    while (next().text != ";") {
    }
  }
  void skip_braces() {
    while (peek().text != "{") next();
    int depth = 0;
    do {
      const Token& t = next();
      if (t.string) continue;
      if (t.text == "{") ++depth;
      if (t.text == "}") --depth;
    } while (depth > 0);
  }

  void top_level() {
    const Token& t = peek();
    const std::string& w = t.text;
    if (w == ".version" || w == ".target" || w == ".address_size") {
      rest_of_line();
    } else if (w == ".file") {
      auto rest = rest_of_line();
      if (rest.size() < 3 || !rest[2].string) throw PtxError(t.line, ".file needs a number and a quoted path");
      module_.files.push_back({static_cast<std::uint32_t>(number(rest[1])), rest[2].text});
    } else if (w == ".visible" || w == ".weak" || w == ".extern") {
      next();
    } else if (w == ".entry") {
      kernel();
    } else if (w == ".func") {
      // Device functions NVRTC did not inline: skipped here; a kernel that calls one is refused at
      // the call.
      while (peek().text != "{" && peek().text != ";") next();
      if (peek().text == ";") next();
      else skip_braces();
    } else if (w == ".section") {
      skip_braces();
    } else if (w == ".pragma") {
      skip_to_semicolon();
    } else if (w == ".global" || w == ".const" || w == ".shared" || w == ".tex" || w == ".surfref" ||
               w == ".texref" || w == ".samplerref") {
      module_variable();
    } else {
      throw PtxError(t.line, fmt::format("unsupported PTX: '{}' at module scope", w));
    }
  }

  // `.global .align 4 .u32 name[4] = {1, 2, 3, 4};`: its name (the last word before '[', '=' or
  // ';'), then past the end.
  void module_variable() {
    PtxModuleVariable v;
    v.line = peek().line;
    v.space = next().text;
    std::string last;
    while (peek().text != ";" && peek().text != "[" && peek().text != "=") last = next().text;
    v.name = last;
    skip_to_semicolon();
    module_.variables.push_back(std::move(v));
  }

  void kernel() {
    PtxKernel k;
    k.line = next().line;  // .entry
    k.name = next().text;
    expect("(");
    while (peek().text != ")") {
      PtxParam p;
      p.line = line();
      expect(".param");
      std::vector<std::string> words;
      while (peek().text != "," && peek().text != ")") words.push_back(next().text);
      // .param .u32 name | .param .align 8 .b8 name[16] (a struct by value)
      if (words.size() != 2 || words[0].empty() || words[0][0] != '.')
        throw PtxError(p.line, "unsupported PTX: a parameter that is not a scalar or pointer (a struct or array "
                               "passed by value)");
      p.type = words[0].substr(1);
      p.name = words[1];
      k.params.push_back(std::move(p));
      if (peek().text == ",") next();
    }
    expect(")");
    while (peek().text != "{") {  // performance directives: .maxntid 256, 1, 1 and the like
      if (peek().text == ";") throw PtxError(line(), "a kernel declaration without a body");
      next();
    }
    next();
    int depth = 1;
    std::uint32_t file = 0, source_line = 0;
    bool first_loc = true;
    while (depth > 0) {
      const Token& t = peek();
      const std::string& w = t.text;
      if (w == "{") {
        next();
        ++depth;
      } else if (w == "}") {
        next();
        --depth;
      } else if (w == ".loc") {
        auto rest = rest_of_line();
        if (rest.size() < 3) throw PtxError(t.line, ".loc needs a file and a line");
        file = static_cast<std::uint32_t>(number(rest[1]));
        source_line = static_cast<std::uint32_t>(number(rest[2]));
        // An inlined function's line: report the line of the user's code that called it.
        for (std::size_t j = 3; j + 2 < rest.size(); ++j)
          if (rest[j].text == "inlined_at") {
            file = static_cast<std::uint32_t>(number(rest[j + 1]));
            source_line = static_cast<std::uint32_t>(number(rest[j + 2]));
          }
        if (first_loc) {
          k.source_file = file;
          k.source_line = source_line;
          first_loc = false;
        }
      } else if (w == ".reg") {
        registers(k);
      } else if (w == ".shared") {
        shared(k, k.shared);
      } else if (w == ".local") {
        shared(k, k.local);
      } else if (w == ".pragma") {
        skip_to_semicolon();
      } else if (!w.empty() && w[0] == '.') {
        throw PtxError(t.line, fmt::format("unsupported PTX: the {} directive in a kernel", w));
      } else if (peek(1).text == ":") {
        PtxStatement s;
        s.label = next().text;
        s.line = t.line;
        next();
        k.body.push_back(std::move(s));
      } else {
        k.body.push_back(instruction(file, source_line));
      }
    }
    module_.kernels.push_back(std::move(k));
  }

  void registers(PtxKernel& k) {
    next();  // .reg
    const Token& type = next();
    if (type.text.size() < 2 || type.text[0] != '.') throw PtxError(type.line, "expected a register type after .reg");
    if (peek().text.rfind(".v", 0) == 0) throw PtxError(type.line, "unsupported PTX: vector registers");
    while (true) {
      const Token& name = next();
      if (peek().text == "<") {
        next();
        const auto count = number(next());
        expect(">");
        for (std::uint64_t n = 0; n < count; ++n) k.registers.push_back({name.text + std::to_string(n), type.text.substr(1)});
      } else {
        k.registers.push_back({name.text, type.text.substr(1)});
      }
      const Token& sep = next();
      if (sep.text == ";") break;
      if (sep.text != ",") throw PtxError(sep.line, fmt::format("expected ',' or ';' in .reg, found '{}'", sep.text));
    }
  }

  // .shared or .local: an array (or scalar) of the block or of the thread.
  void shared(PtxKernel&, std::vector<PtxShared>& into) {
    PtxShared s;
    const Token& directive = next();
    s.line = directive.line;
    const std::string space = directive.text;
    if (peek().text == ".align") {
      next();
      s.align = static_cast<std::uint32_t>(number(next()));
    }
    const Token& type = next();
    if (type.text.size() < 2 || type.text[0] != '.') throw PtxError(type.line, fmt::format("expected a type in {}", space));
    s.type = type.text.substr(1);
    s.name = next().text;
    s.count = 1;
    if (peek().text == "[") {
      next();
      if (peek().text == "]") throw PtxError(s.line, fmt::format("unsupported PTX: a {} array without a size", space));
      s.count = number(next());
      expect("]");
    }
    if (peek().text == "[") throw PtxError(s.line, fmt::format("unsupported PTX: a multi-dimensional {} declaration", space));
    if (peek().text == "=") throw PtxError(s.line, fmt::format("unsupported PTX: an initialised {} variable", space));
    expect(";");
    into.push_back(std::move(s));
  }

  PtxStatement instruction(std::uint32_t file, std::uint32_t source_line) {
    PtxStatement s;
    s.line = line();
    s.file = file;
    s.source_line = source_line;
    if (peek().text == "@") {
      next();
      if (peek().text == "!") {
        next();
        s.guard_negated = true;
      }
      s.guard = next().text;
    }
    const Token& op = next();
    std::size_t start = 0;
    while (true) {
      const auto dot = op.text.find('.', start);
      s.opcode.push_back(op.text.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    std::string current;
    int depth = 0;
    while (true) {
      const Token& t = next();
      if (t.text == ";" && depth == 0) break;
      if (t.text == "[" || t.text == "{") ++depth;
      if (t.text == "]" || t.text == "}") --depth;
      if (t.text == "," && depth == 0) {
        s.operands.push_back(current);
        current.clear();
        continue;
      }
      current += t.string ? "\"" + t.text + "\"" : t.text;
    }
    if (!current.empty()) s.operands.push_back(current);
    return s;
  }

  std::vector<Token> t_;
  std::size_t i_ = 0;
  PtxModule module_;
};

}  // namespace

PtxModule read_ptx(std::string_view text) { return Reader(tokenize(text)).run(); }

}  // namespace warpsim::frontend
