// Canonical .kir text: declarations first (one `reg` line per run of same-type registers, then the
// shared arrays), a blank line, then the body with labels at column 1 and instructions indented
// by four spaces. Immediates print so that they read back bit for bit.
#include "isa/printer.hpp"

#include <bit>
#include <charconv>
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "isa/lexer.hpp"

namespace warpsim::isa {

namespace {

constexpr std::string_view kIndent = "    ";

// A name by index; a hand-built kernel with a bad index prints a marker instead of crashing.
template <typename T>
std::string name_at(const std::vector<T>& items, std::uint32_t index) {
  if (index < items.size()) return items[index].name;
  return fmt::format("<invalid {}>", index);
}

// The shortest decimal that reads back to the same float, or the exact bits (0fXXXXXXXX) for
// NaN, infinities and anything the decimal form would not reproduce.
std::string format_f32(std::uint32_t bits) {
  const float value = std::bit_cast<float>(bits);
  const std::string exact = fmt::format("0f{:08x}", bits);
  if (!std::isfinite(value)) return exact;
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  // A float must not look like an integer: "2" would read back as an integer literal.
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  const bool negative = text[0] == '-';
  const NumberLiteral back = decode_number(std::string_view(text).substr(negative ? 1 : 0));
  const std::uint32_t sign = negative ? 0x80000000u : 0u;
  if (back.form != NumberLiteral::Form::Float || back.float_out_of_range || (back.float_bits ^ sign) != bits)
    return exact;
  return text;
}

std::string format_immediate(std::uint64_t bits, Type type) {
  switch (type) {
    case Type::S32: return fmt::format("{}", static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
    case Type::F32: return format_f32(static_cast<std::uint32_t>(bits));
    case Type::U32: return fmt::format("{}", static_cast<std::uint32_t>(bits));
    case Type::S64:
    case Type::S16:
    case Type::S8: return fmt::format("{}", static_cast<std::int64_t>(bits));
    case Type::F64: return fmt::format("0d{:016x}", bits);  // exact, as PTX writes f64 bits
    default: return fmt::format("{}", bits);
  }
}

std::string format_offset(std::int64_t offset) {
  if (offset == 0) return "";
  if (offset < 0) return fmt::format("-{}", -static_cast<std::uint64_t>(offset));
  return fmt::format("+{}", offset);
}

std::string format_operand(const Kernel& k, const Instruction& in, unsigned i) {
  const Operand& op = in.operands[i];
  const Role role = operand_role(in, i);
  switch (op.kind) {
    case OperandKind::Register: return name_at(k.registers, op.index);
    case OperandKind::Immediate: return format_immediate(op.bits, operand_type(in, role));
    case OperandKind::Special: return std::string(special_name(op.special));
    case OperandKind::SharedAddress: return name_at(k.shared, op.index);
    case OperandKind::MemRegister: return fmt::format("[{}{}]", name_at(k.registers, op.index), format_offset(op.offset));
    case OperandKind::MemShared: return fmt::format("[{}{}]", name_at(k.shared, op.index), format_offset(op.offset));
    case OperandKind::Label: return name_at(k.labels, op.index);
    case OperandKind::None: break;
  }
  return "<none>";
}

std::string format_param(const Register& r) {
  if (r.pointee != Type::None) return fmt::format("ptr.{} {}", type_name(r.pointee), r.name);
  return fmt::format("{} {}", type_name(r.type), r.name);
}

}  // namespace

std::string print(const Kernel& k, const Instruction& in) {
  std::string out;
  if (in.guarded) out += fmt::format("@{}{} ", in.guard_negated ? "!" : "", name_at(k.registers, in.guard));
  out += in.info().mnemonic;
  for (std::string_view suffix :
       {space_name(in.space), std::string_view(in.non_coherent ? "nc" : ""),
        std::string_view(in.op == Opcode::Mov ? "" : in.vector == 2 ? "v2" : in.vector == 4 ? "v4" : ""), compare_name(in.compare),
        rounding_name(in.rounding), std::string_view(in.ftz ? "ftz" : ""), std::string_view(in.saturate ? "sat" : ""),
        type_name(in.type), type_name(in.source_type)})
    if (!suffix.empty()) out += fmt::format(".{}", suffix);
  const unsigned arity = in.info().arity;
  for (unsigned i = 0; i < in.operand_count && i < arity; ++i) {
    out += i == 0 ? " " : ", ";
    if (in.vector > 1 && i == in.vector_at) {  // a braced list: this operand and the extras past the arity
      out += "{" + format_operand(k, in, i);
      for (unsigned j = arity; j < arity + in.vector - 1u && j < in.operand_count; ++j) out += ", " + format_operand(k, in, j);
      out += "}";
    } else {
      out += format_operand(k, in, i);
    }
  }
  return out;
}

std::string print(const Kernel& k) {
  std::string params;
  for (std::uint32_t p : k.params)
    params += fmt::format("{}{}", params.empty() ? "" : ", ",
                          p < k.registers.size() ? format_param(k.registers[p]) : "<invalid>");
  std::string out = fmt::format("kernel {}({}) {{\n", k.name, params);

  std::string declarations;
  Type run = Type::None;  // the type of the `reg` line being written
  for (const Register& r : k.registers) {
    if (r.is_param) continue;
    if (r.type == run) {
      declarations += fmt::format(", {}", r.name);
    } else {
      declarations += fmt::format("{}{}reg {} {}", run == Type::None ? "" : "\n", kIndent, type_name(r.type), r.name);
      run = r.type;
    }
  }
  if (run != Type::None) declarations += "\n";
  for (const SharedArray& s : k.shared)
    declarations += fmt::format("{}{} {} {}[{}]\n", kIndent, space_name(s.space), type_name(s.element), s.name, s.count);

  // Labels by position, in declaration order at each one; those at or past the end come last.
  const std::size_t size = k.code.size();
  std::vector<std::size_t> start(size + 2, 0), order(k.labels.size());
  for (const Label& l : k.labels) ++start[std::min<std::size_t>(l.position, size) + 1];
  for (std::size_t i = 0; i <= size; ++i) start[i + 1] += start[i];
  std::vector<std::size_t> cursor(start.begin(), start.end() - 1);
  for (std::size_t l = 0; l < k.labels.size(); ++l) order[cursor[std::min<std::size_t>(k.labels[l].position, size)]++] = l;
  std::string body;
  auto labels_at = [&](std::size_t position) {
    for (std::size_t i = start[position]; i < start[position + 1]; ++i) body += fmt::format("{}:\n", k.labels[order[i]].name);
  };
  Origin origin;
  for (std::size_t i = 0; i < size; ++i) {
    labels_at(i);
    const Origin now = k.code[i].origin;
    if (now.file != origin.file || now.line != origin.line)
      body += fmt::format("{}loc {} {}\n", kIndent, now.file, now.line);
    origin = now;
    body += fmt::format("{}{}\n", kIndent, print(k, k.code[i]));
  }
  labels_at(size);

  out += declarations;
  if (!declarations.empty() && !body.empty()) out += "\n";
  out += body;
  out += "}\n";
  return out;
}

std::string print(const Module& module) {
  std::string out;
  for (const auto& f : module.files) out += fmt::format("file {} \"{}\"\n", f.index, f.path);
  if (!module.files.empty() && !module.kernels.empty()) out += "\n";
  for (std::size_t i = 0; i < module.kernels.size(); ++i) {
    if (i > 0) out += "\n";
    out += print(module.kernels[i]);
  }
  return out;
}

}  // namespace warpsim::isa
