#include "isa/instruction_parser.hpp"

#include <bit>

#include <fmt/format.h>

#include "isa/literal.hpp"

namespace warpsim::isa {

namespace {

// An operand as written, before it is checked against its role.
struct RawOperand {
  enum class Kind : std::uint8_t { Name, Special, Number, Memory, List } kind = Kind::Name;
  std::vector<RawOperand> items;  // List: the braced registers, {a, b, c, d}
  Token token;                  // the name, special register, number, or the memory operand's base
  bool negative = false;        // Number: a '-' in front
  std::int64_t offset = 0;      // Memory: the byte offset
  Span span;
  std::string text;             // as written, for messages
};

// Every type, in the order messages list them.
constexpr Type kTypesInOrder[] = {Type::Pred, Type::U8,  Type::S8,  Type::U16, Type::S16, Type::U32, Type::S32, Type::U64,
                                  Type::S64,  Type::F32, Type::F64, Type::B8,  Type::B16, Type::B32, Type::B64};

std::string accepted_types(TypeMask mask) {
  std::string out;
  for (Type t : kTypesInOrder)
    if (mask & type_bit(t)) out += fmt::format("{}{}", out.empty() ? "" : ", ", type_name(t));
  return out;
}

// "a u32", "an f32": the article a type name takes when read aloud.
std::string with_article(Type t) {
  const std::string_view name = type_name(t);
  return fmt::format("{} {}", name[0] == 's' || name[0] == 'f' || name == "u8" ? "an" : "a", name);
}

std::string dotted(TypeMask mask) {
  std::string out;
  for (Type t : kTypesInOrder)
    if (mask & type_bit(t)) out += fmt::format("{}.{}", out.empty() ? "" : ", ", type_name(t));
  return out;
}

class InstructionReader {
 public:
  InstructionReader(const std::vector<Token>& tokens, std::uint32_t line, std::string_view line_text,
                    const Kernel& kernel, const KernelNames& names, std::vector<PendingLabel>& labels,
                    const ErrorSink& error)
      : tokens_(tokens),
        line_(line),
        line_text_(line_text),
        kernel_(kernel),
        names_(names),
        labels_(labels),
        error_(error) {}

  std::optional<Instruction> run() {
    Instruction in;
    in.loc = {line_, tokens_[0].column};
    std::size_t i = 0;
    if (tokens_[0].is('@') && !read_guard(i, in)) return std::nullopt;
    if (i >= tokens_.size() || tokens_[i].kind != TokenKind::Word) {
      expected(i, "an instruction");
      return std::nullopt;
    }
    const Token& word = tokens_[i];
    word_ = word.text;
    if (!read_mnemonic(word, in)) return std::nullopt;
    std::vector<RawOperand> raw;
    if (!read_operands(i + 1, raw)) return std::nullopt;
    const OpcodeInfo& info = in.info();
    // The membermask of shfl, vote and bar.warp.sync may be left out.
    const bool optional_last = info.arity > 0 && info.roles[info.arity - 1] == Role::SrcMask;
    if (raw.size() != info.arity && !(optional_last && raw.size() + 1 == info.arity)) {
      error_(span_of(word), fmt::format("'{}' takes {} operand{}{}, found {}", word_, info.arity,
                                        info.arity == 1 ? "" : "s", optional_last ? " (the last, the membermask, may be left out)" : "",
                                        raw.size()));
      return std::nullopt;
    }
    if (!check_lists(raw, in)) return std::nullopt;
    in.operand_count = static_cast<std::uint8_t>(raw.size() + (in.vector > 1 ? in.vector - 1 : 0));
    bool ok = true;
    for (unsigned k = 0; k < raw.size(); ++k) {
      if (raw[k].kind != RawOperand::Kind::List) {
        ok = resolve(raw[k], info.roles[k], k, in, k) && ok;
        continue;
      }
      for (unsigned j = 0; j < raw[k].items.size(); ++j)
        ok = resolve(raw[k].items[j], info.roles[k], k, in, j == 0 ? k : info.arity + j - 1) && ok;
    }
    if (!ok) return std::nullopt;
    return in;
  }

 private:
  Span span_of(const Token& t) const { return {line_, t.column, static_cast<std::uint32_t>(t.text.size())}; }
  Span span_at(std::size_t i) const {
    if (i < tokens_.size()) return span_of(tokens_[i]);
    return {line_, static_cast<std::uint32_t>(line_text_.size() + 1), 1};
  }
  void expected(std::size_t i, std::string_view what) const {
    const std::string found = i < tokens_.size() ? fmt::format("'{}'", printable(tokens_[i].text)) : "end of line";
    error_(span_at(i), fmt::format("expected {}, found {}", what, found));
  }
  std::string operand_name(unsigned k) const { return fmt::format("operand {} of '{}'", k + 1, word_); }

  bool read_guard(std::size_t& i, Instruction& in) {
    i = 1;
    if (i < tokens_.size() && tokens_[i].is('!')) {
      in.guard_negated = true;
      ++i;
    }
    if (i >= tokens_.size() || tokens_[i].kind != TokenKind::Word) {
      expected(i, "a predicate register after '@'");
      return false;
    }
    const Token& name = tokens_[i++];
    const int r = names_.find_register(name.text);
    if (r < 0) {
      error_(span_of(name), fmt::format("unknown register '{}'", name.text));
      return false;
    }
    if (kernel_.registers[r].type != Type::Pred) {
      error_(span_of(name), fmt::format("a guard must be a pred register, register '{}' is {}", name.text,
                                        type_name(kernel_.registers[r].type)));
      return false;
    }
    in.guarded = true;
    in.guard = static_cast<std::uint32_t>(r);
    return true;
  }

  // Braced register lists: the registers of ld/st .v2/.v4, in the position of the loaded or stored
  // value, and mov's packed side (two registers of half the width of b32 or b64).
  bool check_lists(const std::vector<RawOperand>& raw, Instruction& in) {
    const OpcodeInfo& info = in.info();
    for (unsigned k = 0; k < raw.size(); ++k) {
      const bool list = raw[k].kind == RawOperand::Kind::List;
      if (in.op == Opcode::Mov && list) {
        if (in.vector != 0) {
          error_(raw[k].span, fmt::format("'{}' packs or unpacks one side only", word_));
          return false;
        }
        if ((in.type != Type::B32 && in.type != Type::B64) || raw[k].items.size() != 2) {
          error_(raw[k].span, fmt::format("a packing mov is mov.b64 or mov.b32 with two registers of half the width "
                                          "in braces, found '{}' with {}", word_, raw[k].text));
          return false;
        }
        in.vector = 2;
        in.vector_at = static_cast<std::uint8_t>(k);
        continue;
      }
      const bool wanted = in.vector > 1 && k == in.vector_at;
      if (list && !wanted) {
        error_(raw[k].span, fmt::format("{} cannot be a register list{}", operand_name(k),
                                        (info.qualifiers & kVector) && in.op != Opcode::Mov
                                            ? " (a vector access is written ld.SPACE.v2.TYPE or .v4)" : ""));
        return false;
      }
      if (wanted && (!list || raw[k].items.size() != in.vector)) {
        error_(raw[k].span, fmt::format("{} must be a list of {} registers in braces, such as {{a, b{}}}, {}",
                                        operand_name(k), in.vector, in.vector == 4 ? ", c, d" : "",
                                        list ? fmt::format("found {}", raw[k].items.size()) : what_is(raw[k])));
        return false;
      }
    }
    return true;
  }

  // mnemonic[.modifier][.type][.source-type], the mnemonic being the longest one in the table.
  bool read_mnemonic(const Token& word, Instruction& in) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
      const std::size_t dot = word.text.find('.', start);
      parts.push_back(word.text.substr(start, dot == std::string_view::npos ? dot : dot - start));
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    std::optional<Opcode> op;
    std::size_t used = parts.size();
    for (; used > 0 && !op; --used) {
      std::string name(parts[0]);
      for (std::size_t k = 1; k < used; ++k) name += fmt::format(".{}", parts[k]);
      op = opcode_from_mnemonic(name);
      if (op) break;
    }
    if (!op) {
      error_(span_of(word), fmt::format("unknown opcode '{}'", word.text));
      return false;
    }
    in.op = *op;
    const OpcodeInfo& info = isa::info(*op);
    std::string read(info.mnemonic);
    auto fail = [&](std::string_view what) {
      const std::string found = used < parts.size() ? fmt::format("'.{}'", parts[used]) : "nothing";
      error_(span_of(word), fmt::format("'{}': expected {} after '{}', found {}", word.text, what, read, found));
      return false;
    };
    auto take = [&]() { read += fmt::format(".{}", parts[used]); ++used; };

    if (info.modifier == Modifier::Space) {
      Space space = Space::None;
      if (used < parts.size())
        for (Space s : {Space::Global, Space::Shared, Space::Local})
          if (parts[used] == space_name(s)) space = s;
      if (space == Space::None) return fail("a memory space (.global, .shared or .local)");
      in.space = space;
      take();
      if ((info.qualifiers & kNc) && used < parts.size() && parts[used] == "nc") {
        in.non_coherent = true;
        take();
      }
      if ((info.qualifiers & kVector) && used < parts.size() && (parts[used] == "v2" || parts[used] == "v4")) {
        in.vector = parts[used] == "v2" ? 2 : 4;
        in.vector_at = in.op == Opcode::St ? 1 : 0;
        take();
      }
    } else if (info.modifier == Modifier::Compare) {
      Compare compare = Compare::None;
      if (used < parts.size())
        for (Compare c : {Compare::Eq, Compare::Ne, Compare::Lt, Compare::Le, Compare::Gt, Compare::Ge})
          if (parts[used] == compare_name(c)) compare = c;
      if (compare == Compare::None) return fail("a comparison (.eq, .ne, .lt, .le, .gt or .ge)");
      in.compare = compare;
      take();
    }
    if (used < parts.size())
      for (unsigned r = 1; r <= static_cast<unsigned>(Rounding::Full); ++r)
        if (parts[used] == rounding_name(static_cast<Rounding>(r)) && accepts_rounding(*op, static_cast<Rounding>(r))) {
          in.rounding = static_cast<Rounding>(r);
          take();
          break;
        }
    if ((info.qualifiers & kFtz) && used < parts.size() && parts[used] == "ftz") {
      in.ftz = true;
      take();
    }
    if ((info.qualifiers & kSat) && used < parts.size() && parts[used] == "sat") {
      in.saturate = true;
      take();
    }
    if (info.types != kNone) {
      const std::optional<Type> type = used < parts.size() ? type_from_name(parts[used]) : std::nullopt;
      if (!type) return fail(fmt::format("a type ({})", dotted(info.types)));
      if (!(info.types & type_bit(*type))) {
        error_(span_of(word), fmt::format("'{}' does not take type {} (accepted: {})", info.mnemonic,
                                          type_name(*type), accepted_types(info.types)));
        return false;
      }
      in.type = *type;
      take();
    }
    if (info.modifier == Modifier::SourceType) {
      const std::optional<Type> type = used < parts.size() ? type_from_name(parts[used]) : std::nullopt;
      if (!type || !(kConvert & type_bit(*type))) return fail(fmt::format("a source type ({})", dotted(kConvert)));
      in.source_type = *type;
      take();
    }
    if (used < parts.size()) {
      error_(span_of(word), fmt::format("'{}': unexpected suffix '.{}' after '{}'", word.text, parts[used], read));
      return false;
    }
    return true;
  }

  bool read_operands(std::size_t i, std::vector<RawOperand>& out) {
    if (i >= tokens_.size()) return true;
    while (true) {
      RawOperand op;
      if (!read_operand(i, op)) return false;
      out.push_back(std::move(op));
      if (i >= tokens_.size()) return true;
      if (!tokens_[i].is(',')) {
        expected(i, "',' between operands");
        return false;
      }
      if (++i >= tokens_.size()) {
        expected(i, "an operand after ','");
        return false;
      }
    }
  }

  // One operand starting at tokens_[i]; i moves past it.
  bool read_operand(std::size_t& i, RawOperand& op) {
    const Token& t = tokens_[i];
    if (t.kind == TokenKind::Word) {
      op.kind = RawOperand::Kind::Name;
      op.token = t;
      ++i;
    } else if (t.kind == TokenKind::Special) {
      op.kind = RawOperand::Kind::Special;
      op.token = t;
      ++i;
    } else if (t.kind == TokenKind::Number || t.is('-')) {
      op.kind = RawOperand::Kind::Number;
      op.negative = t.is('-');
      if (op.negative && !(++i < tokens_.size() && tokens_[i].kind == TokenKind::Number)) {
        expected(i, "a number after '-'");
        return false;
      }
      op.token = tokens_[i++];
      if (decode_number(op.token.text).form == NumberLiteral::Form::Bad) {
        error_(span_of(op.token), fmt::format("bad number '{}'", op.token.text));
        return false;
      }
    } else if (t.is('[')) {
      if (!read_memory(i, op)) return false;
    } else if (t.is('{')) {
      if (!read_list(i, op)) return false;
    } else {
      expected(i, "an operand");
      return false;
    }
    const Token& last = tokens_[i - 1];
    op.span = {line_, t.column, static_cast<std::uint32_t>(last.column + last.text.size() - t.column)};
    op.text = line_text_.substr(t.column - 1, op.span.length);
    return true;
  }

  // {a, b} or {a, b, c, d}: register names.
  bool read_list(std::size_t& i, RawOperand& op) {
    op.kind = RawOperand::Kind::List;
    ++i;
    while (true) {
      if (!(i < tokens_.size() && tokens_[i].kind == TokenKind::Word)) {
        expected(i, "a register name in the braced list");
        return false;
      }
      RawOperand item;
      item.kind = RawOperand::Kind::Name;
      item.token = tokens_[i];
      item.span = span_of(tokens_[i]);
      item.text = std::string(tokens_[i].text);
      op.items.push_back(std::move(item));
      ++i;
      if (i < tokens_.size() && tokens_[i].is('}')) break;
      if (!(i < tokens_.size() && tokens_[i].is(','))) {
        expected(i, "',' or '}' in the braced list");
        return false;
      }
      ++i;
    }
    ++i;
    if (op.items.size() > 4) {
      expected(i - 1, "at most four registers in braces");
      return false;
    }
    return true;
  }

  // [base], [base+imm], [base-imm]
  bool read_memory(std::size_t& i, RawOperand& op) {
    op.kind = RawOperand::Kind::Memory;
    if (!(++i < tokens_.size() && tokens_[i].kind == TokenKind::Word)) {
      expected(i, "a register or shared array name as the memory base");
      return false;
    }
    op.token = tokens_[i++];
    if (i < tokens_.size() && (tokens_[i].is('+') || tokens_[i].is('-'))) {
      const bool negative = tokens_[i].is('-');
      if (!(++i < tokens_.size() && tokens_[i].kind == TokenKind::Number)) {
        expected(i, "a byte offset");
        return false;
      }
      const Token& number = tokens_[i++];
      const NumberLiteral n = decode_number(number.text);
      if (n.form != NumberLiteral::Form::Integer) {
        error_(span_of(number), n.form == NumberLiteral::Form::Bad
                                    ? fmt::format("bad number '{}'", number.text)
                                    : fmt::format("a memory offset must be an integer, found '{}'", number.text));
        return false;
      }
      const std::uint64_t limit = negative ? 0x80000000u : 0x7fffffffu;
      if (n.integer_overflow || n.integer > limit) {
        error_(span_of(number), fmt::format("memory offset {}{} is out of range (32-bit signed)",
                                            negative ? "-" : "", number.text));
        return false;
      }
      op.offset = negative ? -static_cast<std::int64_t>(n.integer) : static_cast<std::int64_t>(n.integer);
    }
    if (!(i < tokens_.size() && tokens_[i].is(']'))) {
      expected(i, "']' to close the memory operand");
      return false;
    }
    ++i;
    return true;
  }

  // What an operand is, for "must be X, <what>" messages.
  std::string what_is(const RawOperand& raw) const {
    switch (raw.kind) {
      case RawOperand::Kind::Name:
        if (int r = names_.find_register(raw.token.text); r >= 0) {
          const Register& reg = kernel_.registers[r];
          return fmt::format("{} '{}' is {}", reg.is_param ? "parameter" : "register", reg.name, type_name(reg.type));
        }
        if (int s = names_.find_shared(raw.token.text); s >= 0)
          return fmt::format("{} array '{}' is a u32 address", space_name(kernel_.shared[s].space), raw.token.text);
        return fmt::format("found '{}'", raw.text);
      case RawOperand::Kind::Special: {
        const auto s = special_from_name(raw.token.text);
        return fmt::format("special register '{}' is {}", raw.text, s ? type_name(special_type(*s)) : "unknown");
      }
      case RawOperand::Kind::Number: return fmt::format("found immediate '{}'", raw.text);
      case RawOperand::Kind::Memory: return fmt::format("found memory operand '{}'", raw.text);
      case RawOperand::Kind::List: return fmt::format("found register list '{}'", raw.text);
    }
    return {};
  }

  // Operand k as written goes to operands[slot] (a braced list's later registers: past the arity).
  bool resolve(const RawOperand& raw, Role role, unsigned k, Instruction& in, unsigned slot) {
    Operand& out = in.operands[slot];
    out.loc = {line_, raw.span.column};
    // Names and special registers must exist whatever the role (labels excepted).
    if (raw.kind == RawOperand::Kind::Name && role != Role::Label && names_.find_register(raw.token.text) < 0 &&
        names_.find_shared(raw.token.text) < 0) {
      error_(raw.span, fmt::format("unknown register '{}'", raw.token.text));
      return false;
    }
    if (raw.kind == RawOperand::Kind::Special && !special_from_name(raw.token.text)) {
      error_(raw.span, fmt::format("unknown special register '{}'", raw.token.text));
      return false;
    }
    switch (role) {
      case Role::DstT:
      case Role::DstPred:
      case Role::DstWide:
      case Role::DstU32: return resolve_destination(raw, in, role, k, out);
      case Role::SrcT:
      case Role::SrcS:
      case Role::SrcU32:
      case Role::SrcMask: return resolve_source(raw, in, role, false, k, out);
      case Role::SrcPred: return resolve_source(raw, in, role, true, k, out);
      case Role::Mem: return resolve_memory(raw, in.space, k, out);
      case Role::Label:
        if (raw.kind != RawOperand::Kind::Name) {
          error_(raw.span, fmt::format("{} must be a label, {}", operand_name(k), what_is(raw)));
          return false;
        }
        out.kind = OperandKind::Label;
        labels_.push_back({k, std::string(raw.token.text), raw.span});
        return true;
      case Role::None: break;
    }
    return false;
  }

  bool resolve_destination(const RawOperand& raw, const Instruction& in, Role role, unsigned k, Operand& out) {
    const Type type = operand_type(in, role);
    const std::string must = fmt::format("{} must be {} register", operand_name(k), with_article(type));
    if (raw.kind == RawOperand::Kind::Name) {
      if (int r = names_.find_register(raw.token.text); r >= 0) {
        const Register& reg = kernel_.registers[r];
        if (reg.is_param) {
          error_(raw.span, fmt::format("{}, parameter '{}' is read-only", must, reg.name));
          return false;
        }
        if (register_fits(in, role, reg.type)) {
          out.kind = OperandKind::Register;
          out.index = static_cast<std::uint32_t>(r);
          return true;
        }
      } else {
        error_(raw.span, fmt::format("{}, found shared array '{}'", must, raw.token.text));
        return false;
      }
    } else if (raw.kind == RawOperand::Kind::Special) {
      error_(raw.span, fmt::format("{}, special register '{}' is read-only", must, raw.token.text));
      return false;
    }
    error_(raw.span, fmt::format("{}, {}", must, what_is(raw)));
    return false;
  }

  bool resolve_source(const RawOperand& raw, const Instruction& in, Role role, bool register_only, unsigned k,
                      Operand& out) {
    const Type type = operand_type(in, role);
    const std::string must = register_only ? fmt::format("{} must be {} register", operand_name(k), with_article(type))
                                           : fmt::format("{} must be {}", operand_name(k), type_name(type));
    switch (raw.kind) {
      case RawOperand::Kind::Name:
        if (int r = names_.find_register(raw.token.text); r >= 0 && register_fits(in, role, kernel_.registers[r].type)) {
          out.kind = OperandKind::Register;
          out.index = static_cast<std::uint32_t>(r);
          return true;
        }
        if (int s = names_.find_shared(raw.token.text); s >= 0 && type == Type::U32 && !register_only) {
          out.kind = OperandKind::SharedAddress;
          out.index = static_cast<std::uint32_t>(s);
          return true;
        }
        break;
      case RawOperand::Kind::Special:
        if (const Special s = *special_from_name(raw.token.text); compatible(special_type(s), type) && !register_only) {
          out.kind = OperandKind::Special;
          out.special = s;
          return true;
        }
        break;
      case RawOperand::Kind::Number:
        if (register_only) break;
        if (!immediate_bits(raw, type, k, out.bits)) return false;
        out.kind = OperandKind::Immediate;
        return true;
      case RawOperand::Kind::Memory:
      case RawOperand::Kind::List: break;
    }
    error_(raw.span, fmt::format("{}, {}", must, what_is(raw)));
    return false;
  }

  bool resolve_memory(const RawOperand& raw, Space space, unsigned k, Operand& out) {
    if (raw.kind != RawOperand::Kind::Memory) {
      error_(raw.span, fmt::format("{} must be a memory operand such as [base+offset], {}", operand_name(k),
                                   what_is(raw)));
      return false;
    }
    out.offset = raw.offset;
    const Span base_span{line_, raw.token.column, static_cast<std::uint32_t>(raw.token.text.size())};
    const int r = names_.find_register(raw.token.text);
    const int s = names_.find_shared(raw.token.text);
    const bool global = space == Space::Global;
    const std::string must = global ? "a u64 register or parameter"
                                    : fmt::format("a u32 register or a {} array", space_name(space));
    if (r >= 0 && compatible(kernel_.registers[r].type, global ? Type::U64 : Type::U32)) {
      out.kind = OperandKind::MemRegister;
      out.index = static_cast<std::uint32_t>(r);
      return true;
    }
    if (s >= 0 && !global && kernel_.shared[s].space == space) {
      out.kind = OperandKind::MemShared;
      out.index = static_cast<std::uint32_t>(s);
      return true;
    }
    std::string found;
    if (r >= 0)
      found = fmt::format("{} '{}' is {}", kernel_.registers[r].is_param ? "parameter" : "register",
                          raw.token.text, type_name(kernel_.registers[r].type));
    else if (s >= 0)
      found = fmt::format("found {} array '{}'", space_name(kernel_.shared[s].space), raw.token.text);
    else
      found = fmt::format("unknown register '{}'", raw.token.text);
    if (r < 0 && s < 0) {
      error_(base_span, found);
      return false;
    }
    error_(base_span, fmt::format("memory base of '{}' must be {}, {}", word_, must, found));
    return false;
  }

  bool immediate_bits(const RawOperand& raw, Type type, unsigned k, std::uint64_t& bits) const {
    const LiteralValue value = literal_bits(raw.token.text, raw.negative, type);
    switch (value.problem) {
      case LiteralProblem::None: bits = value.bits; return true;
      case LiteralProblem::FloatForInteger:
        error_(raw.span, fmt::format("{} must be {}, found float literal '{}'", operand_name(k), type_name(type), raw.text));
        return false;
      case LiteralProblem::PredNotBit:
        error_(raw.span, fmt::format("{}: a pred immediate must be 0 or 1, found '{}'", operand_name(k), raw.text));
        return false;
      case LiteralProblem::NotExactF32:
        error_(raw.span, fmt::format("{}: {} is not exactly representable as f32", operand_name(k), raw.text));
        return false;
      case LiteralProblem::NotExactF64:
        error_(raw.span, fmt::format("{}: {} is not exactly representable as f64", operand_name(k), raw.text));
        return false;
      case LiteralProblem::Malformed:
      case LiteralProblem::OutOfRange: break;
    }
    error_(raw.span, fmt::format("{}: {} is out of range for {}", operand_name(k), raw.text, type_name(type)));
    return false;
  }

  const std::vector<Token>& tokens_;
  std::uint32_t line_;
  std::string_view line_text_;
  const Kernel& kernel_;
  const KernelNames& names_;
  std::vector<PendingLabel>& labels_;
  const ErrorSink& error_;
  std::string_view word_;  // the mnemonic as written, for messages
};

}  // namespace

std::optional<Instruction> read_instruction(const std::vector<Token>& tokens, std::uint32_t line,
                                            std::string_view line_text, const Kernel& kernel,
                                            const KernelNames& names, std::vector<PendingLabel>& labels,
                                            const ErrorSink& error) {
  return InstructionReader(tokens, line, line_text, kernel, names, labels, error).run();
}

}  // namespace warpsim::isa
