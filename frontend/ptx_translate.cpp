#include "frontend/ptx_translate.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

namespace warpsim::frontend {

namespace {

[[noreturn]] void unsupported(const PtxStatement& s, const std::string& what) {
  throw PtxError(s.line, fmt::format("unsupported PTX: {}", what));
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ".") + w;
  return out;
}

}  // namespace

// A PTX name as an IR name: [A-Za-z_][A-Za-z0-9_]*.
std::string ir_name(std::string_view ptx) {
  std::string out;
  for (char c : ptx) {
    if (c == '%') continue;
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  }
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
  return out;
}

namespace {

// The C type of a CUDA parameter as an IR parameter type ("" when it has none).
std::string c_scalar(std::string type) {
  for (const char* word : {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct"}) {
    for (std::size_t at; (at = type.find(word)) != std::string::npos;) type.erase(at, std::string_view(word).size());
  }
  std::string compact;
  for (char c : type)
    if (c != ' ' && c != '\t' && c != '\n') compact += c;
  static const std::map<std::string, std::string> kTypes = {
      {"float", "f32"}, {"double", "f64"}, {"int", "s32"}, {"signed", "s32"}, {"signedint", "s32"}, {"int32_t", "s32"},
      {"unsigned", "u32"}, {"unsignedint", "u32"}, {"uint32_t", "u32"}, {"uint", "u32"},
      {"longlong", "s64"}, {"longlongint", "s64"}, {"unsignedlonglong", "u64"}, {"unsignedlong", "u64"},
      {"long", "s64"}, {"size_t", "u64"}, {"uint64_t", "u64"}, {"int64_t", "s64"}, {"unsignedlonglongint", "u64"},
      {"short", "s16"}, {"int16_t", "s16"}, {"unsignedshort", "u16"}, {"uint16_t", "u16"},
      {"char", "s8"}, {"signedchar", "s8"}, {"int8_t", "s8"}, {"unsignedchar", "u8"}, {"uint8_t", "u8"},
      // CUDA's vector types: a pointer to them is a pointer to their elements
      {"float2", "f32"}, {"float4", "f32"}, {"double2", "f64"}, {"int2", "s32"}, {"int4", "s32"}, {"uint2", "u32"},
      {"uint4", "u32"}, {"longlong2", "s64"}, {"ulonglong2", "u64"}};
  const auto it = kTypes.find(compact);
  return it == kTypes.end() ? "" : it->second;
}

struct Literal {
  bool is_float = false;
  bool is_double = false;  // a 0d literal (f64 bits); otherwise a float is 0f (f32 bits)
  std::uint64_t bits = 0;  // integers: two's complement
  bool negative = false;
};

std::optional<Literal> literal(std::string_view text) {
  Literal l;
  if (text.size() == 10 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F')) {
    std::uint32_t v = 0;
    const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + 10, v, 16);
    if (ec != std::errc() || end != text.data() + 10) return std::nullopt;
    l.is_float = true;
    l.bits = v;
    return l;
  }
  if (text.size() == 18 && text[0] == '0' && (text[1] == 'd' || text[1] == 'D')) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data() + 2, text.data() + 18, v, 16);
    if (ec != std::errc() || end != text.data() + 18) return std::nullopt;
    l.is_float = true;
    l.is_double = true;
    l.bits = v;
    return l;
  }
  if (!text.empty() && text[0] == '-') {
    l.negative = true;
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  l.bits = l.negative ? 0 - v : v;
  return l;
}

constexpr std::string_view kSpecials[] = {"%tid.x",    "%tid.y",    "%tid.z",   "%ntid.x",   "%ntid.y",
                                          "%ntid.z",   "%ctaid.x",  "%ctaid.y", "%ctaid.z",  "%nctaid.x",
                                          "%nctaid.y", "%nctaid.z", "%laneid",  "%warpid",   "%nwarpid",
                                          "%clock",    "%clock64"};

class KernelTranslator {
 public:
  KernelTranslator(const PtxKernel& k, const std::vector<PtxModuleVariable>& variables,
                   const std::vector<CudaParam>& names, KirText& out)
      : k_(k), variables_(variables), names_(names), out_(out) {}

  void run() {
    find_constants();
    std::set<std::string> wide;
    for (const auto& r : k_.registers)
      if (r.type == "b64" || r.type == "u64" || r.type == "s64") wide.insert(r.name);
    header();  // names the shared variables find_shared_addresses looks for
    find_shared_addresses(wide);
    for (const auto& s : k_.body) statement(s);
    emit("}", k_.body.empty() ? k_.line : k_.body.back().line);
  }

 private:
  void emit(const std::string& text, std::uint32_t ptx_line) {
    out_.text += text + "\n";
    out_.ptx_line.push_back(ptx_line);
  }

  // Registers written exactly once, by a mov of an immediate: their value is known (shuffle and
  // vote masks and clamps arrive in registers).
  // The registers an operand list names: `{%r1,%r2}` -> %r1, %r2; `%r1|%p1` -> %r1, %p1; else itself.
  static std::vector<std::string> names_in(const std::string& operand) {
    std::string inner = operand;
    if (inner.size() >= 2 && inner.front() == '{' && inner.back() == '}') inner = inner.substr(1, inner.size() - 2);
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
      const auto cut = inner.find_first_of(",|", start);
      out.push_back(inner.substr(start, cut == std::string::npos ? cut : cut - start));
      if (cut == std::string::npos) break;
      start = cut + 1;
    }
    return out;
  }

  void find_constants() {
    std::map<std::string, int> writes;
    for (const auto& s : k_.body) {
      if (s.label.empty() && !s.operands.empty() && s.opcode[0] != "st" && s.opcode[0] != "red" && s.opcode[0] != "bra")
        for (const auto& r : names_in(s.operands[0])) ++writes[r];
      for (std::size_t i = 0; i < s.operands.size(); ++i) reads_.insert(s.operands[i]);
      if (!s.guard.empty()) reads_.insert(s.guard);
    }
    for (const auto& s : k_.body)
      if (s.label.empty() && s.opcode[0] == "mov" && s.operands.size() == 2 && writes[s.operands[0]] == 1 && s.guard.empty())
        if (const auto l = literal(s.operands[1]); l && !l->is_float) constants_[s.operands[0]] = l->bits;
  }

  // Registers that provably hold the address of a shared variable as a 64-bit value (`mov.u64 %rd,
  // smem`, `cvta.shared.u64`, then `add`/`sub` of offsets): every write to them is such a step, from
  // a shared variable or from another such register. Generic ld/st/atom through them are shared
  // accesses; the IR keeps the offset within shared memory in them, not the generic address, so
  // they may only address memory (value() refuses any other use).
  static bool is_destination_writer(const PtxStatement& s) {
    return s.label.empty() && !s.operands.empty() && s.opcode[0] != "st" && s.opcode[0] != "red" && s.opcode[0] != "bra";
  }
  // The symbols and derived registers of one space: shared (shared_, shared_addresses_) or local
  // (local_, local_addresses_).
  struct SpaceAddresses {
    const std::map<std::string, std::string>& symbols;
    const std::set<std::string>& registers;
  };
  SpaceAddresses shared_space() const { return {shared_, shared_addresses_}; }
  SpaceAddresses local_space() const { return {local_, local_addresses_}; }
  bool derivation_step(const PtxStatement& s) const {
    return derivation_step(s, shared_space()) || derivation_step(s, local_space());
  }
  static bool derivation_step(const PtxStatement& s, const SpaceAddresses& space) {
    if (!s.label.empty() || s.operands.size() < 2) return false;
    const std::string& op = s.opcode[0];
    const std::string& t = s.opcode.back();
    if (t != "u64" && t != "s64" && t != "b64") return false;
    const auto from = [&](const std::string& x) { return space.registers.count(x) > 0 || space.symbols.count(x) > 0; };
    if (op == "mov" || op == "cvta") return s.operands.size() == 2 && from(s.operands[1]);
    if (op == "add" && s.operands.size() == 3) return from(s.operands[1]) != from(s.operands[2]);
    if (op == "sub" && s.operands.size() == 3) return from(s.operands[1]) && !from(s.operands[2]);
    return false;
  }
  void find_shared_addresses(const std::set<std::string>& wide_registers) {
    find_addresses(wide_registers, shared_, shared_addresses_);
    find_addresses(wide_registers, local_, local_addresses_);
    std::vector<std::string> both;  // derived from both spaces: neither, so every use of it is refused
    for (const auto& r : shared_addresses_)
      if (local_addresses_.count(r)) both.push_back(r);
    for (const auto& r : both) {
      shared_addresses_.erase(r);
      local_addresses_.erase(r);
    }
  }
  void find_addresses(const std::set<std::string>& wide_registers, const std::map<std::string, std::string>& symbols,
                      std::set<std::string>& addresses) {
    std::map<std::string, std::vector<const PtxStatement*>> writes;
    for (const auto& s : k_.body)
      if (is_destination_writer(s))
        for (const auto& r : names_in(s.operands[0])) writes[r].push_back(&s);
    // Optimistic start (every 64-bit register written only by mov/cvta/add/sub), then drop those
    // with a write that does not derive them, until nothing changes: loops that step a pointer stay in.
    for (const auto& [r, ws] : writes)
      if (wide_registers.count(r) &&
          std::all_of(ws.begin(), ws.end(), [](const PtxStatement* w) {
            const auto& op = w->opcode[0];
            return op == "mov" || op == "cvta" || op == "add" || op == "sub";
          }))
        addresses.insert(r);
    const SpaceAddresses space{symbols, addresses};
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = addresses.begin(); it != addresses.end();) {
        const auto& ws = writes[*it];
        if (std::all_of(ws.begin(), ws.end(), [&](const PtxStatement* w) { return derivation_step(*w, space); })) {
          ++it;
        } else {
          it = addresses.erase(it);
          changed = true;
        }
      }
    }
  }

  // The space of a generic ld/st/atom: shared when its base provably holds a shared address.
  std::string generic_space(const PtxStatement& s, const std::string& address) const {
    const std::string base = address.substr(1, address.find_first_of("+-]", 1) - 1);
    if (shared_addresses_.count(base)) return "shared";
    if (local_addresses_.count(base)) return "local";
    unsupported(s, fmt::format("'{}' through a generic address ({} is not provably the address of a shared or local "
                               "variable; only generic accesses to shared and local arrays are supported)",
                               joined(s.opcode), base));
  }

  // `mov.u64 %rd, smem`: the shared offset of smem, widened.
  void shared_symbol_address(const PtxStatement& s, const std::string& destination, const std::string& symbol) {
    const bool shared = shared_.count(symbol) > 0;
    const std::string low = scratch("b32", shared ? "shared_address32" : "local_address32");
    instruction(s, fmt::format("mov.u32 {}, {}", low, shared ? shared_.at(symbol) : local_.at(symbol)));
    instruction(s, fmt::format("cvt.u64.u32 {}, {}", reg(s, destination), low));
  }

  // A shared access whose base is a 64-bit register holding a shared offset: the IR's shared
  // addresses are u32, so the access goes through the offset's low half.
  std::string shared_memory(const PtxStatement& s, const std::string& address, bool local = false) {
    const std::string base = address.substr(1, address.find_first_of("+-]", 1) - 1);
    if (!(local ? local_addresses_ : shared_addresses_).count(base)) return memory(s, address, true, {}, local);
    const std::string low = scratch("b32", local ? "local_address32" : "shared_address32");
    instruction(s, fmt::format("cvt.u32.u64 {}, {}", low, reg(s, base)));
    return memory(s, address, true, low);
  }

  std::optional<std::uint64_t> constant(const std::string& operand) const {
    if (const auto l = literal(operand); l && !l->is_float) return l->bits;
    const auto it = constants_.find(operand);
    if (it == constants_.end()) return std::nullopt;
    return it->second;
  }

  void header() {
    std::set<std::string> used;
    std::string params;
    for (std::size_t i = 0; i < k_.params.size(); ++i) {
      const auto& p = k_.params[i];
      const bool named = i < names_.size() && !names_[i].name.empty();
      std::string name = named ? names_[i].name : fmt::format("param_{}", i);
      std::string type;
      const std::string c_type = named ? names_[i].type : "";
      if (p.type == "u64" || p.type == "b64" || p.type == "s64") {
        if (named) {
          const auto star = c_type.find('*');
          if (star != std::string::npos) {
            const std::string pointee = c_scalar(c_type.substr(0, star));
            type = "ptr." + (pointee.empty() ? std::string("u32") : pointee);
          } else {
            const std::string c = c_scalar(c_type);
            type = c == "s64" || c == "f64" ? c : "u64";
          }
        } else {
          type = used_as_address(p.name) ? "ptr.u32" : "u64";
        }
      } else if (p.type == "u32" || p.type == "b32" || p.type == "s32") {
        const std::string c = named ? c_scalar(c_type) : "";
        type = c == "s32" || c == "u32" ? c : p.type == "s32" ? "s32" : "u32";
      } else if (p.type == "f32" || p.type == "f64") {
        type = p.type;
      } else if (p.type == "u16" || p.type == "s16" || p.type == "b16") {
        const std::string c = named ? c_scalar(c_type) : "";
        type = c == "s16" || c == "u16" ? c : p.type == "s16" ? "s16" : "u16";
      } else {
        throw PtxError(p.line, fmt::format("unsupported PTX: parameter {} of type .{} (the IR's parameters are 16-, 32- "
                                           "and 64-bit integers, f32, f64 and pointers)", name, p.type));
      }
      // ld.param reads the parameter with its PTX type; a pointer is a u64.
      param_types_[p.name] = type.rfind("ptr.", 0) == 0 ? "u64" : type;
      param_names_[p.name] = name;
      used.insert(name);
      params += fmt::format("{}{} {}", params.empty() ? "" : ", ", type, name);
    }
    emit(fmt::format("kernel {}({}) {{", ir_name(k_.name), params), k_.line);
    std::map<std::string, std::vector<std::string>> by_type;
    std::vector<std::string> order;
    for (const auto& r : k_.registers) {
      std::string type;
      // PTX's register types are the IR's, bit types included (the instruction's type says what
      // the bits mean); no IR register is 8 bits wide.
      static const std::set<std::string> kRegisterTypes = {"pred", "b16", "u16", "s16", "b32", "u32", "s32", "f32",
                                                            "b64", "u64", "s64", "f64"};
      if (kRegisterTypes.count(r.type)) type = r.type;
      else throw PtxError(k_.line, fmt::format("unsupported PTX: {}-typed register {} (no IR register is 8 bits wide)", r.type, r.name));
      std::string name = ir_name(r.name);
      while (used.count(name)) name += "_";
      used.insert(name);
      registers_[r.name] = name;
      register_types_[r.name] = type;
      if (!by_type.count(type)) order.push_back(type);
      by_type[type].push_back(name);
    }
    for (const auto& t : order) {
      std::string line;
      for (const auto& n : by_type[t]) line += (line.empty() ? "" : ", ") + n;
      emit(fmt::format("    reg {} {}", t, line), k_.line);
    }
    arrays(k_.shared, "shared", shared_, used);
    arrays(k_.local, "local", local_, used);
  }

  // The IR's shared (or local) arrays for PTX's .shared (or .local) variables: byte arrays become
  // u64 arrays when 8-byte aligned and whole, u32 arrays otherwise.
  void arrays(const std::vector<PtxShared>& list, const std::string& space, std::map<std::string, std::string>& names,
              std::set<std::string>& used) {
    for (const auto& s : list) {
      std::uint64_t bytes = s.count;
      std::string element;
      if (s.type == "b8" || s.type == "u8" || s.type == "s8") {
        const std::uint32_t align = std::max<std::uint32_t>(s.align, 1);
        if (align >= 8 && bytes % 8 == 0) {
          element = "u64";
        } else {
          // A `__shared__ bool` or `char buf[10]`: whole words, padded. Each PTX variable is placed
          // on its own, so more alignment and padding change nothing a kernel can see.
          element = "u32";
          bytes = (bytes + 3) / 4 * 4;
        }
      } else if (s.type == "b32" || s.type == "u32" || s.type == "s32" || s.type == "f32") {
        element = "u32";
        bytes = s.count * 4;
      } else if (s.type == "b64" || s.type == "u64" || s.type == "s64" || s.type == "f64") {
        element = "u64";
        bytes = s.count * 8;
      } else {
        throw PtxError(s.line, fmt::format("unsupported PTX: {} variable {} of type .{}", space, s.name, s.type));
      }
      std::string name = ir_name(s.name);
      while (used.count(name)) name += "_";
      used.insert(name);
      names[s.name] = name;
      emit(fmt::format("    {} {} {}[{}]", space, element, name, bytes / (element == "u64" ? 8 : 4)), s.line);
    }
  }

  bool used_as_address(const std::string& param) const {
    // ld.param %rd, [param] followed by cvta.to.global of that register: a pointer.
    std::set<std::string> loaded;
    for (const auto& s : k_.body) {
      if (!s.label.empty() || s.operands.size() < 2) continue;
      if (s.opcode[0] == "ld" && s.opcode.size() > 1 && s.opcode[1] == "param" && s.operands[1] == "[" + param + "]")
        loaded.insert(s.operands[0]);
      if (s.opcode[0] == "cvta" && loaded.count(s.operands[1])) return true;
    }
    return false;
  }

  // ---- operands ----
  // A module-scope variable the reader read past: refused where a kernel names it.
  void refuse_module_variable(const PtxStatement& s, const std::string& name) const {
    for (const auto& v : variables_)
      if (v.name == name)
        unsupported(s, fmt::format("the module-scope {} variable {} (declared at line {}; __device__, __constant__ and "
                                   "texture variables are not imported)", v.space, name, v.line));
  }

  std::string reg(const PtxStatement& s, const std::string& operand) const {
    const auto it = registers_.find(operand);
    if (it == registers_.end()) unsupported(s, fmt::format("'{}' is not a register of this kernel", operand));
    return it->second;
  }

  // A value operand for an IR instruction of type `type` ("u32", "s32", "u64", "f32", "pred").
  std::string value(const PtxStatement& s, const std::string& operand, std::string_view type) const {
    if ((shared_addresses_.count(operand) || local_addresses_.count(operand)) && !derivation_step(s))
      unsupported(s, fmt::format("the {} address in {} used as a value (only addressing is supported)",
                                 shared_addresses_.count(operand) ? "shared" : "local", operand));
    if (local_.count(operand)) {
      if (type != "u32" && type != "b32" && type != "s32")
        unsupported(s, fmt::format("the {}-bit address of local variable {} outside a local-memory access", type_bits(type), operand));
      return local_.at(operand);
    }
    if (registers_.count(operand)) return registers_.at(operand);
    if (operand.starts_with("%")) {
      if (std::find(std::begin(kSpecials), std::end(kSpecials), operand) != std::end(kSpecials)) return operand;
      unsupported(s, fmt::format("the special register {}", operand));
    }
    if (shared_.count(operand)) {
      if (type != "u32" && type != "b32" && type != "s32")
        unsupported(s, fmt::format("the {}-bit address of shared variable {} outside a shared-memory access", type_bits(type), operand));
      return shared_.at(operand);
    }
    if (param_names_.count(operand)) unsupported(s, fmt::format("the address of parameter {}", operand));
    refuse_module_variable(s, operand);
    const auto l = literal(operand);
    if (!l) unsupported(s, fmt::format("the operand '{}'", operand));
    if (l->is_float) {
      // PTX's 0f and 0d literals keep their exact bits; the IR spells them the same way.
      if ((type == "f32" || type == "b32") && !l->is_double) return fmt::format("0f{:08x}", static_cast<std::uint32_t>(l->bits));
      if ((type == "f64" || type == "b64") && l->is_double) return fmt::format("0d{:016x}", l->bits);
      unsupported(s, fmt::format("the float literal {} where {} is expected", operand, type));
    }
    if (type == "f32" || type == "f64") return l->negative ? "-" + std::to_string(0 - l->bits) : std::to_string(l->bits);
    const unsigned bits = type_bits(type);
    const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
    const std::uint64_t v = l->bits & mask;
    if (type[0] == 's') {
      const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
      if (v & sign) return "-" + std::to_string((0 - v) & mask);
    }
    return std::to_string(v);
  }

  static unsigned type_bits(std::string_view type) {
    if (type == "pred") return 32;
    if (type.size() < 2) return 32;
    return static_cast<unsigned>(std::stoul(std::string(type.substr(1))));
  }

  // [%rd1+4] -> [rd1+4]; [array] -> [array]
  std::string memory(const PtxStatement& s, const std::string& operand, bool shared, const std::string& base_override = {},
                     bool local = false) const {
    if (operand.size() < 3 || operand.front() != '[' || operand.back() != ']')
      unsupported(s, fmt::format("the memory operand '{}'", operand));
    std::string inner = operand.substr(1, operand.size() - 2);
    std::string base = inner, offset;
    const auto plus = inner.find('+');
    if (plus != std::string::npos) {
      base = inner.substr(0, plus);
      offset = inner.substr(plus + 1);
    } else if (const auto minus = inner.find('-', 1); minus != std::string::npos) {
      base = inner.substr(0, minus);
      offset = inner.substr(minus);
    }
    refuse_module_variable(s, base);
    std::string ir_base;
    if (!base_override.empty()) ir_base = base_override;
    else if (registers_.count(base)) ir_base = registers_.at(base);
    else if (shared && !local && shared_.count(base)) ir_base = shared_.at(base);
    else if (shared && local && local_.count(base)) ir_base = local_.at(base);
    else unsupported(s, fmt::format("the address '{}' (the base must be a register{})", operand, shared ? " or a shared variable" : ""));
    if (offset.empty()) return "[" + ir_base + "]";
    const auto l = literal(offset);
    if (!l || l->is_float) unsupported(s, fmt::format("the address offset in '{}'", operand));
    const auto v = static_cast<std::int64_t>(l->bits);
    return v < 0 ? fmt::format("[{}-{}]", ir_base, -v) : fmt::format("[{}+{}]", ir_base, v);
  }

  // A value for a store of type t: PTX stores the low bits of a wider register (`st.global.u32
  // [a], %rd1`); the IR's st takes a register of the store's width, so a 64-bit register stored
  // as 32 bits goes through cvt.
  std::string narrowed(const PtxStatement& s, const std::string& operand, const std::string& t) {
    const auto it = register_types_.find(operand);
    if (it == register_types_.end() || type_bits(it->second) != 64 || type_bits(t) != 32) return value(s, operand, t);
    const std::string low = scratch("b32", "stored_low32");
    instruction(s, fmt::format("cvt.u32.u64 {}, {}", low, value(s, operand, "u64")));
    return low;
  }

  // {%f1,%f2,%f3,%f4} -> {f1, f2, f3, f4}: the registers of a vector access or a packing mov.
  std::string braced(const PtxStatement& s, const std::string& operand, std::size_t count) const {
    if (operand.size() < 2 || operand.front() != '{' || operand.back() != '}')
      unsupported(s, fmt::format("'{}' needs {} registers in braces, found '{}'", joined(s.opcode), count, operand));
    const auto names = names_in(operand);
    if (names.size() != count)
      unsupported(s, fmt::format("'{}' needs {} registers in braces, found '{}'", joined(s.opcode), count, operand));
    std::string out;
    for (const auto& n : names) {
      if (!registers_.count(n))
        unsupported(s, fmt::format("'{}' in the braced list '{}' (only registers are imported there)", n, operand));
      out += (out.empty() ? "{" : ", ") + registers_.at(n);
    }
    return out + "}";
  }

  // ---- types ----
  // The IR type of a PTX type suffix; signed 64-bit is refused where the sign matters.
  // The IR spells PTX's types as PTX does; the IR's opcode table says which an opcode takes.
  std::string type(const PtxStatement& s, const std::string& t, bool = false) const {
    static const std::set<std::string> kTypes = {"pred", "u8",  "s8",  "b8",  "u16", "s16", "b16", "u32",
                                                 "s32",  "b32", "f32", "u64", "s64", "b64", "f64"};
    if (kTypes.count(t)) return t;
    unsupported(s, fmt::format("'{}' on .{} values", joined(s.opcode), t));
  }

  void instruction(const PtxStatement& s, const std::string& text) {
    if (s.file != origin_file_ || s.source_line != origin_line_) {
      emit(fmt::format("    loc {} {}", s.file, s.source_line), s.line);
      origin_file_ = s.file;
      origin_line_ = s.source_line;
    }
    std::string guard;
    if (!s.guard.empty()) guard = fmt::format("@{}{} ", s.guard_negated ? "!" : "", reg(s, s.guard));
    emit("    " + guard + text, s.line);
  }

  void need(const PtxStatement& s, std::size_t n) const {
    if (s.operands.size() != n)
      throw PtxError(s.line, fmt::format("'{}' takes {} operands, found {}", joined(s.opcode), n, s.operands.size()));
  }

  // ---- statements ----
  void statement(const PtxStatement& s) {
    if (!s.label.empty()) {
      emit(ir_name(s.label) + ":", s.line);
      return;
    }
    const std::string& op = s.opcode[0];
    std::vector<std::string> mods(s.opcode.begin() + 1, s.opcode.end());
    auto has = [&](std::string_view m) { return std::find(mods.begin(), mods.end(), m) != mods.end(); };
    auto drop = [&](std::initializer_list<std::string_view> ignored) {
      mods.erase(std::remove_if(mods.begin(), mods.end(),
                                [&](const std::string& m) { return std::find(ignored.begin(), ignored.end(), m) != ignored.end(); }),
                 mods.end());
    };
    const auto& o = s.operands;

    if (op == "ld" || op == "st") {
      drop({"volatile", "relaxed", "weak", "cta", "gpu", "sys", "ca", "cg", "cs", "lu", "cv", "wb", "wt"});
      // ld.global.nc (const __restrict__ pointers, __ldg): the IR keeps it.
      const bool nc = op == "ld" && has("nc");
      drop({"nc"});
      std::string vector;
      if (has("v2") || has("v4")) {
        vector = has("v2") ? "v2" : "v4";
        drop({"v2", "v4"});
      }
      if (mods.size() == 1) mods.insert(mods.begin(), generic_space(s, op == "ld" ? o.at(1) : o.at(0)));
      if (mods.size() != 2) unsupported(s, fmt::format("'{}' (a vector form or qualifier the IR does not have)", joined(s.opcode)));
      const std::string& space = mods[0];
      if (space == "param" && op == "ld") {
        need(s, 2);
        const std::string name = o[1].substr(1, o[1].size() - 2);
        if (o[1].front() != '[' || !param_names_.count(name))
          unsupported(s, fmt::format("ld.param from '{}' (a part of a parameter)", o[1]));
        instruction(s, fmt::format("mov.{} {}, {}", param_types_.at(name), reg(s, o[0]), param_names_.at(name)));
        return;
      }
      if (space != "global" && space != "shared" && space != "local")
        unsupported(s, fmt::format("'{}' ({} memory)", joined(s.opcode), space == "u32" || space == "f32" || space == "u64" ? "generic" : space));
      const std::string t = type(s, mods[1], false);
      if (t == "pred") unsupported(s, joined(s.opcode));
      need(s, 2);
      const std::string& address = op == "ld" ? o[1] : o[0];
      const std::string m = space == "global" ? memory(s, address, false) : shared_memory(s, address, space == "local");
      const std::string v = vector.empty() ? "" : "." + vector;
      if (op == "ld")
        instruction(s, fmt::format("ld.{}{}{}.{} {}, {}", space, nc ? ".nc" : "", v, t,
                                   vector.empty() ? reg(s, o[0]) : braced(s, o[0], vector == "v2" ? 2 : 4), m));
      else
        instruction(s, fmt::format("st.{}{}.{} {}, {}", space, v, t, m,
                                   vector.empty() ? narrowed(s, o[1], t) : braced(s, o[1], vector == "v2" ? 2 : 4)));
      return;
    }
    if (op == "cvta") {
      need(s, 2);
      if (mods.size() == 3 && mods[0] == "to" && mods[1] == "global" && mods[2] == "u64") {
        instruction(s, fmt::format("mov.u64 {}, {}", reg(s, o[0]), value(s, o[1], "u64")));
        return;
      }
      // Local addresses likewise: the IR keeps the offset in the thread's local memory.
      if (mods.back() == "u64" && (mods == std::vector<std::string>{"local", "u64"} ||
                                   mods == std::vector<std::string>{"to", "local", "u64"}) &&
          local_addresses_.count(o[0])) {
        if (local_.count(o[1])) return shared_symbol_address(s, o[0], o[1]);
        instruction(s, fmt::format("mov.u64 {}, {}", reg(s, o[0]), reg(s, o[1])));
        return;
      }
      // To and from the generic window of a shared address: the IR keeps the shared offset (see
      // find_shared_addresses), so both are copies.
      if (mods.back() == "u64" && (mods == std::vector<std::string>{"shared", "u64"} ||
                                   mods == std::vector<std::string>{"to", "shared", "u64"}) &&
          shared_addresses_.count(o[0])) {
        if (shared_.count(o[1])) return shared_symbol_address(s, o[0], o[1]);
        instruction(s, fmt::format("mov.u64 {}, {}", reg(s, o[0]), reg(s, o[1])));
        return;
      }
      unsupported(s, fmt::format("'{}' (generic addresses)", joined(s.opcode)));
    }
    if (op == "mov") {
      need(s, 2);
      if (mods.size() != 1) unsupported(s, joined(s.opcode));
      const std::string t = type(s, mods[0], false);
      if (o[1].starts_with("{") || o[0].starts_with("{")) {  // packing and unpacking: mov.b64 {lo, hi}, x
        if (t != "b64" && t != "b32") unsupported(s, fmt::format("'{}' packing a vector", joined(s.opcode)));
        if (o[0].starts_with("{"))
          instruction(s, fmt::format("mov.{} {}, {}", t, braced(s, o[0], 2), reg(s, o[1])));
        else
          instruction(s, fmt::format("mov.{} {}, {}", t, reg(s, o[0]), braced(s, o[1], 2)));
        return;
      }
      for (const auto* space : {&shared_, &local_})
        if (space->count(o[1]) && (t == "u64" || t == "b64")) {
          const bool local = space == &local_;
          if (!(local ? local_addresses_ : shared_addresses_).count(o[0]))
            unsupported(s, fmt::format("the 64-bit address of {0} variable {1} in {2}, which is not only used as a {0} "
                                       "address", local ? "local" : "shared", o[1], o[0]));
          return shared_symbol_address(s, o[0], o[1]);
        }
      instruction(s, fmt::format("mov.{} {}, {}", t, reg(s, o[0]), value(s, o[1], t)));
      return;
    }
    if (op == "add" || op == "sub" || op == "mul" || op == "mad" || op == "fma" || op == "div" || op == "rem" ||
        op == "min" || op == "max" || op == "and" || op == "or" || op == "xor" || op == "shl" || op == "shr" ||
        op == "neg" || op == "abs" || op == "not") {
      arithmetic(s, op, mods);
      return;
    }
    if (op == "sqrt" || op == "rcp" || op == "rsqrt" || op == "ex2" || op == "lg2" || op == "sin" || op == "cos") {
      need(s, 2);
      if (mods.empty()) unsupported(s, joined(s.opcode));
      const std::string t = type(s, mods.back());
      mods.pop_back();
      instruction(s, fmt::format("{}{}.{} {}, {}", op, qualifiers(s, mods), t, reg(s, o[0]), value(s, o[1], t)));
      return;
    }
    if (op == "bfe" || op == "bfi" || op == "popc" || op == "clz" || op == "brev" || op == "prmt") {
      bits(s, op, mods);
      return;
    }
    if (op == "cvt") {
      convert(s, mods);
      return;
    }
    if (op == "setp") {
      compare(s, mods);
      return;
    }
    if (op == "selp") {
      need(s, 4);
      if (mods.size() != 1) unsupported(s, joined(s.opcode));
      const std::string t = type(s, mods[0], false);
      instruction(s, fmt::format("selp.{} {}, {}, {}, {}", t, reg(s, o[0]), value(s, o[1], t), value(s, o[2], t), reg(s, o[3])));
      return;
    }
    if (op == "bra") {
      drop({"uni"});
      need(s, 1);
      if (!mods.empty()) unsupported(s, joined(s.opcode));
      instruction(s, "bra " + ir_name(o[0]));
      return;
    }
    if (op == "ret" || op == "exit") {
      instruction(s, op);
      return;
    }
    if (op == "bar" && mods == std::vector<std::string>{"warp", "sync"}) {  // __syncwarp(mask)
      need(s, 1);
      return instruction(s, fmt::format("bar.warp.sync {}", value(s, o[0], "u32")));
    }
    if (op == "bar" || op == "barrier") {
      drop({"aligned"});
      if (mods == std::vector<std::string>{"sync"} && o.size() == 1 && constant(o[0]) == 0u) {
        instruction(s, "bar.sync");
        return;
      }
      unsupported(s, fmt::format("'{}' with operands {} (only bar.sync 0, __syncthreads())", joined(s.opcode), fmt::join(o, ", ")));
    }
    if (op == "membar" || op == "fence") {
      drop({"sc", "acq_rel"});
      if (mods.size() == 1 && mods[0] == "cta") return instruction(s, "membar.cta");
      if (mods.size() == 1 && (mods[0] == "gl" || mods[0] == "gpu" || mods[0] == "sys")) return instruction(s, "membar.gl");
      unsupported(s, joined(s.opcode));
    }
    if (op == "atom" || op == "red") {
      atomic(s, op, mods);
      return;
    }
    if (op == "vote") {
      drop({"sync"});
      // vote.sync's membermask is the IR's; the old vote (no .sync, no mask) is the IR's without one.
      if (o.size() < 2 || o.size() > 3 || o[1].starts_with("!")) unsupported(s, joined(s.opcode));
      const std::string mask = o.size() == 3 ? ", " + value(s, o[2], "u32") : "";
      if (mods == std::vector<std::string>{"any", "pred"} || mods == std::vector<std::string>{"all", "pred"})
        return instruction(s, fmt::format("vote.{}.pred {}, {}{}", mods[0], reg(s, o[0]), reg(s, o[1]), mask));
      if (mods == std::vector<std::string>{"ballot", "b32"})
        return instruction(s, fmt::format("vote.ballot.u32 {}, {}{}", reg(s, o[0]), reg(s, o[1]), mask));
      unsupported(s, joined(s.opcode));
    }
    if (op == "activemask") {
      need(s, 1);
      return instruction(s, fmt::format("activemask.u32 {}", reg(s, o[0])));
    }
    if (op == "shfl") {
      shuffle(s, mods);
      return;
    }
    if (op == "call") unsupported(s, fmt::format("a call to {} (a device function NVRTC did not inline)", o.size() > 1 ? o[1] : std::string("a function")));
    unsupported(s, fmt::format("the instruction '{}'", joined(s.opcode)));
  }

  // PTX's rounding, .ftz and .sat qualifiers as the IR spells them (the same words in the same
  // order); the IR's parser and verifier say which an instruction takes, and what they refuse is
  // reported with the PTX line (import.cpp).
  std::string qualifiers(const PtxStatement& s, const std::vector<std::string>& mods) const {
    static const std::set<std::string> kQualifiers = {"rn",  "rz",  "rm",  "rp",     "rni", "rzi",
                                                      "rmi", "rpi", "ftz", "approx", "full", "sat"};
    std::string out;
    for (const auto& m : mods) {
      if (!kQualifiers.count(m)) unsupported(s, fmt::format("'{}' (the .{} modifier)", joined(s.opcode), m));
      out += "." + m;
    }
    return out;
  }

  void arithmetic(const PtxStatement& s, const std::string& op, std::vector<std::string> mods) {
    const auto& o = s.operands;
    if (mods.empty()) unsupported(s, joined(s.opcode));
    const std::string ptx_type = mods.back();
    mods.pop_back();
    const bool is_float = ptx_type == "f32" || ptx_type == "f64";
    std::string name = op;
    std::vector<std::string> rest;
    for (const auto& m : mods) {
      if (m == "lo" && (op == "mul" || op == "mad") && !is_float) continue;
      if ((m == "wide" || m == "hi") && op == "mul" && name == "mul") {
        name = "mul." + m;
        continue;
      }
      rest.push_back(m);
    }
    if (op == "div" && is_float && rest.empty())
      unsupported(s, fmt::format("'{}' (a float division without .rn, .approx or .full)", joined(s.opcode)));
    const std::string quals = qualifiers(s, rest);
    const std::string t = type(s, ptx_type);
    if (t == "pred" && op != "and" && op != "or" && op != "xor" && op != "not") unsupported(s, joined(s.opcode));
    const std::size_t arity = op == "mad" || op == "fma" ? 4 : op == "neg" || op == "abs" || op == "not" ? 2 : 3;
    need(s, arity);
    std::string text = fmt::format("{}{}.{} {}", name, quals, t, reg(s, o[0]));
    for (std::size_t i = 1; i < arity; ++i)
      text += ", " + ((op == "shl" || op == "shr") && i == 2 ? value(s, o[i], "u32") : value(s, o[i], t));
    instruction(s, text);
  }

  // bfe, bfi, popc, clz, brev, prmt: field positions and lengths, prmt's selector and the counts
  // are u32; the rest have the instruction's type.
  void bits(const PtxStatement& s, const std::string& op, std::vector<std::string> mods) {
    const auto& o = s.operands;
    if (mods.size() != 1) unsupported(s, fmt::format("'{}' (a mode or modifier)", joined(s.opcode)));
    const std::string t = type(s, mods[0]);
    const std::size_t arity = op == "bfi" ? 5 : op == "bfe" || op == "prmt" ? 4 : 2;
    need(s, arity);
    std::string text = fmt::format("{}.{} {}", op, t, reg(s, o[0]));
    for (std::size_t i = 1; i < arity; ++i) {
      const bool u32 = (op == "bfe" && i >= 2) || (op == "bfi" && i >= 3);
      text += ", " + value(s, o[i], u32 ? "u32" : t);
    }
    instruction(s, text);
  }

  void convert(const PtxStatement& s, std::vector<std::string> mods) {
    need(s, 2);
    if (mods.size() < 2) unsupported(s, joined(s.opcode));
    const std::string src = mods.back();
    mods.pop_back();
    const std::string dst = mods.back();
    mods.pop_back();
    const std::string quals = qualifiers(s, mods);
    const std::string d = type(s, dst), a = type(s, src);
    if (d == "pred" || a == "pred" || d[0] == 'b' || a[0] == 'b') unsupported(s, joined(s.opcode));
    instruction(s, fmt::format("cvt{}.{}.{} {}, {}", quals, d, a, reg(s, s.operands[0]), value(s, s.operands[1], a)));
  }

  void compare(const PtxStatement& s, std::vector<std::string> mods) {
    const auto& o = s.operands;
    if (mods.size() != 2) unsupported(s, fmt::format("'{}' (setp combining with a predicate)", joined(s.opcode)));
    if (o.size() != 3 || o[0].find('|') != std::string::npos) unsupported(s, fmt::format("'{}' with two results", joined(s.opcode)));
    const std::string& ptx_type = mods[1];
    std::string cmp = mods[0];
    if (ptx_type == "f32" || ptx_type == "f64") {
      if (cmp == "neu") cmp = "ne";  // C's != : true when either is NaN, the IR's ne
      else if (cmp == "ne" || cmp.size() == 3 || cmp == "num" || cmp == "nan")
        unsupported(s, fmt::format("'{}' (this NaN handling)", joined(s.opcode)));
    } else {
      static const std::map<std::string, std::string> kUnsigned = {{"lo", "lt"}, {"ls", "le"}, {"hi", "gt"}, {"hs", "ge"}};
      if (kUnsigned.count(cmp)) cmp = kUnsigned.at(cmp);
    }
    std::string t = type(s, ptx_type, cmp != "eq" && cmp != "ne");
    if (ptx_type == "b32" && cmp != "eq" && cmp != "ne") unsupported(s, joined(s.opcode));
    if (t == "pred") unsupported(s, joined(s.opcode));
    if (mods[0] == "lo" || mods[0] == "ls" || mods[0] == "hi" || mods[0] == "hs") {
      if (t == "s32") t = "u32";
    }
    instruction(s, fmt::format("setp.{}.{} {}, {}, {}", cmp, t, reg(s, o[0]), value(s, o[1], t), value(s, o[2], t)));
  }

  void atomic(const PtxStatement& s, const std::string& op, std::vector<std::string> mods) {
    mods.erase(std::remove_if(mods.begin(), mods.end(),
                              [](const std::string& m) { return m == "relaxed" || m == "gpu" || m == "cta" || m == "sys"; }),
               mods.end());
    if (mods.size() == 2) mods.insert(mods.begin(), generic_space(s, s.operands.at(op == "red" ? 0 : 1)));
    if (mods.size() != 3 || (mods[0] != "global" && mods[0] != "shared"))
      unsupported(s, fmt::format("'{}' (generic address, ordering or vector form)", joined(s.opcode)));
    const std::string& what = mods[1];
    static const std::set<std::string> kOps = {"add", "min", "max", "exch", "cas", "inc", "dec", "and", "or", "xor"};
    if (!kOps.count(what)) unsupported(s, joined(s.opcode));
    const std::string t = type(s, mods[2], what == "min" || what == "max");
    const auto& o = s.operands;
    std::vector<std::string> operands;
    std::size_t first = 0;
    if (op == "red") {
      operands.push_back(scratch(type_bits(t) == 64 ? "b64" : "b32"));
    } else {
      operands.push_back(reg(s, o.at(0)));
      first = 1;
    }
    const std::size_t sources = what == "cas" ? 2 : 1;
    need(s, first + 1 + sources);
    operands.push_back(mods[0] == "shared" ? shared_memory(s, o[first]) : memory(s, o[first], false));
    for (std::size_t i = 0; i < sources; ++i) operands.push_back(value(s, o[first + 1 + i], t));
    instruction(s, fmt::format("atom.{}.{}.{} {}", what, mods[0], t, fmt::join(operands, ", ")));
  }

  // red has no result: the IR's atom writes the old value to a register nothing reads.
  std::string scratch(const std::string& type, std::string name = {}) {
    if (name.empty()) name = type == "b64" ? "red_old64" : "red_old32";
    if (!scratch_.count(name)) {
      scratch_.insert(name);
      // Declarations may stand anywhere before their first use.
      emit(fmt::format("    reg {} {}", type, name), 0);
    }
    return name;
  }

  void shuffle(const PtxStatement& s, const std::vector<std::string>& mods) {
    const auto& o = s.operands;
    if (mods.size() != 3 || mods[0] != "sync" || mods[2] != "b32") unsupported(s, joined(s.opcode));
    static const std::map<std::string, std::pair<std::string, std::uint64_t>> kModes = {
        {"down", {"down", 31}}, {"up", {"up", 0}}, {"bfly", {"xor", 31}}, {"idx", {"idx", 31}}};
    if (!kModes.count(mods[1])) unsupported(s, joined(s.opcode));
    need(s, 5);
    const auto& [mode, clamp] = kModes.at(mods[1]);
    std::string d = o[0];
    if (const auto bar = d.find('|'); bar != std::string::npos) {
      const std::string p = d.substr(bar + 1);
      if (reads_.count(p)) unsupported(s, "a shuffle whose in-range predicate is used");
      d = d.substr(0, bar);
    }
    const auto c = constant(o[3]);
    if (!c || (*c & 0xffffffffu) != clamp)
      unsupported(s, fmt::format("'{}' with a width other than 32 (clamp operand {})", joined(s.opcode), o[3]));
    instruction(s, fmt::format("shfl.{}.u32 {}, {}, {}, {}", mode, reg(s, d), value(s, o[1], "u32"), value(s, o[2], "u32"),
                               value(s, o[4], "u32")));
  }

  const PtxKernel& k_;
  const std::vector<PtxModuleVariable>& variables_;
  const std::vector<CudaParam>& names_;
  KirText& out_;
  std::map<std::string, std::string> registers_, register_types_, shared_, local_, param_names_, param_types_;
  std::map<std::string, std::uint64_t> constants_;
  std::set<std::string> reads_, scratch_, shared_addresses_, local_addresses_;
  std::uint32_t origin_file_ = 0, origin_line_ = 0;
};

}  // namespace

KirText translate_ptx(const PtxModule& module, const std::vector<std::size_t>& kernels,
                      const std::vector<std::vector<CudaParam>>& names, const std::string& origin) {
  KirText out;
  out.text = fmt::format("// imported by warpsim from {}\n", origin);
  out.ptx_line.push_back(0);
  for (const auto& f : module.files) {
    std::string path;
    for (char c : f.path) path += c == '"' ? '\'' : c;
    out.text += fmt::format("file {} \"{}\"\n", f.index, path);
    out.ptx_line.push_back(0);
  }
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    out.text += "\n";
    out.ptx_line.push_back(0);
    KernelTranslator(module.kernels.at(kernels[i]), module.variables, i < names.size() ? names[i] : std::vector<CudaParam>{}, out).run();
  }
  return out;
}

}  // namespace warpsim::frontend
