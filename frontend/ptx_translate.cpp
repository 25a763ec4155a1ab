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

// The C type of a CUDA parameter as an IR parameter type ("" when it has none).
std::string c_scalar(std::string type) {
  for (const char* word : {"const", "volatile", "__restrict__", "__restrict", "restrict", "struct"}) {
    for (std::size_t at; (at = type.find(word)) != std::string::npos;) type.erase(at, std::string_view(word).size());
  }
  std::string compact;
  for (char c : type)
    if (c != ' ' && c != '\t' && c != '\n') compact += c;
  static const std::map<std::string, std::string> kTypes = {
      {"float", "f32"}, {"int", "s32"}, {"signed", "s32"}, {"signedint", "s32"}, {"int32_t", "s32"},
      {"unsigned", "u32"}, {"unsignedint", "u32"}, {"uint32_t", "u32"}, {"uint", "u32"},
      {"longlong", "u64"}, {"longlongint", "u64"}, {"unsignedlonglong", "u64"}, {"unsignedlong", "u64"},
      {"long", "u64"}, {"size_t", "u64"}, {"uint64_t", "u64"}, {"int64_t", "u64"}, {"unsignedlonglongint", "u64"}};
  const auto it = kTypes.find(compact);
  return it == kTypes.end() ? "" : it->second;
}

struct Literal {
  bool is_float = false;
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
  KernelTranslator(const PtxKernel& k, const std::vector<CudaParam>& names, KirText& out)
      : k_(k), names_(names), out_(out) {}

  void run() {
    find_constants();
    header();
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
  void find_constants() {
    std::map<std::string, int> writes;
    for (const auto& s : k_.body) {
      if (s.label.empty() && !s.operands.empty() && s.opcode[0] != "st" && s.opcode[0] != "red" && s.opcode[0] != "bra") {
        const auto bar = s.operands[0].find('|');
        ++writes[s.operands[0].substr(0, bar)];
        if (bar != std::string::npos) ++writes[s.operands[0].substr(bar + 1)];
      }
      for (std::size_t i = 0; i < s.operands.size(); ++i) reads_.insert(s.operands[i]);
      if (!s.guard.empty()) reads_.insert(s.guard);
    }
    for (const auto& s : k_.body)
      if (s.label.empty() && s.opcode[0] == "mov" && s.operands.size() == 2 && writes[s.operands[0]] == 1 && s.guard.empty())
        if (const auto l = literal(s.operands[1]); l && !l->is_float) constants_[s.operands[0]] = l->bits;
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
            type = "u64";
          }
        } else {
          type = used_as_address(p.name) ? "ptr.u32" : "u64";
        }
      } else if (p.type == "u32" || p.type == "b32" || p.type == "s32") {
        const std::string c = named ? c_scalar(c_type) : "";
        type = c == "s32" || c == "u32" ? c : p.type == "s32" ? "s32" : "u32";
      } else if (p.type == "f32") {
        type = "f32";
      } else {
        throw PtxError(p.line, fmt::format("unsupported PTX: parameter {} of type .{} (the IR's parameters are u32, s32, "
                                           "u64, f32 and pointers)", name, p.type));
      }
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
      if (r.type == "pred") type = "pred";
      else if (r.type == "b32" || r.type == "u32" || r.type == "s32" || r.type == "f32") type = "b32";
      else if (r.type == "b64" || r.type == "u64" || r.type == "s64" || r.type == "f64") type = "b64";
      else throw PtxError(k_.line, fmt::format("unsupported PTX: {}-typed register {} (8- and 16-bit registers)", r.type, r.name));
      std::string name = ir_name(r.name);
      while (used.count(name)) name += "_";
      used.insert(name);
      registers_[r.name] = name;
      if (!by_type.count(type)) order.push_back(type);
      by_type[type].push_back(name);
    }
    for (const auto& t : order) {
      std::string line;
      for (const auto& n : by_type[t]) line += (line.empty() ? "" : ", ") + n;
      emit(fmt::format("    reg {} {}", t, line), k_.line);
    }
    for (const auto& s : k_.shared) {
      std::uint64_t bytes = s.count;
      std::string element;
      if (s.type == "b8" || s.type == "u8" || s.type == "s8") {
        const std::uint32_t align = std::max<std::uint32_t>(s.align, 1);
        if (align >= 8 && bytes % 8 == 0) element = "u64";
        else if (align >= 4 && bytes % 4 == 0) element = "u32";
        else throw PtxError(s.line, fmt::format("unsupported PTX: shared byte array {} aligned to {} (needs 8-bit accesses)", s.name, align));
      } else if (s.type == "b32" || s.type == "u32" || s.type == "s32" || s.type == "f32") {
        element = "u32";
        bytes = s.count * 4;
      } else if (s.type == "b64" || s.type == "u64" || s.type == "s64" || s.type == "f64") {
        element = "u64";
        bytes = s.count * 8;
      } else {
        throw PtxError(s.line, fmt::format("unsupported PTX: shared variable {} of type .{}", s.name, s.type));
      }
      std::string name = ir_name(s.name);
      while (used.count(name)) name += "_";
      used.insert(name);
      shared_[s.name] = name;
      emit(fmt::format("    shared {} {}[{}]", element, name, bytes / (element == "u64" ? 8 : 4)), s.line);
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
  std::string reg(const PtxStatement& s, const std::string& operand) const {
    const auto it = registers_.find(operand);
    if (it == registers_.end()) unsupported(s, fmt::format("'{}' is not a register of this kernel", operand));
    return it->second;
  }

  // A value operand for an IR instruction of type `type` ("u32", "s32", "u64", "f32", "pred").
  std::string value(const PtxStatement& s, const std::string& operand, std::string_view type) const {
    if (registers_.count(operand)) return registers_.at(operand);
    if (operand.starts_with("%")) {
      if (std::find(std::begin(kSpecials), std::end(kSpecials), operand) != std::end(kSpecials)) return operand;
      unsupported(s, fmt::format("the special register {}", operand));
    }
    if (shared_.count(operand)) {
      if (type != "u32") unsupported(s, fmt::format("the {}-bit address of shared variable {} (generic addressing)", type == "u64" ? 64 : 32, operand));
      return shared_.at(operand);
    }
    if (param_names_.count(operand)) unsupported(s, fmt::format("the address of parameter {}", operand));
    const auto l = literal(operand);
    if (!l) {
      if (operand.starts_with("0d") || operand.starts_with("0D")) unsupported(s, fmt::format("the f64 literal {}", operand));
      unsupported(s, fmt::format("the operand '{}'", operand));
    }
    if (type == "f32") {
      if (!l->is_float) return std::to_string(l->bits);
      return fmt::format("0f{:08x}", static_cast<std::uint32_t>(l->bits));
    }
    if (l->is_float) unsupported(s, fmt::format("the float literal {} where {} is expected", operand, type));
    if (type == "s32") return std::to_string(static_cast<std::int32_t>(static_cast<std::uint32_t>(l->bits)));
    if (type == "u32" || type == "pred") return std::to_string(static_cast<std::uint32_t>(l->bits));
    return std::to_string(l->bits);
  }

  // [%rd1+4] -> [rd1+4]; [array] -> [array]
  std::string memory(const PtxStatement& s, const std::string& operand, bool shared) const {
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
    std::string ir_base;
    if (registers_.count(base)) ir_base = registers_.at(base);
    else if (shared && shared_.count(base)) ir_base = shared_.at(base);
    else unsupported(s, fmt::format("the address '{}' (the base must be a register{})", operand, shared ? " or a shared variable" : ""));
    if (offset.empty()) return "[" + ir_base + "]";
    const auto l = literal(offset);
    if (!l || l->is_float) unsupported(s, fmt::format("the address offset in '{}'", operand));
    const auto v = static_cast<std::int64_t>(l->bits);
    return v < 0 ? fmt::format("[{}-{}]", ir_base, -v) : fmt::format("[{}+{}]", ir_base, v);
  }

  // ---- types ----
  // The IR type of a PTX type suffix; signed 64-bit is refused where the sign matters.
  std::string type(const PtxStatement& s, const std::string& t, bool sign_matters) const {
    if (t == "u32" || t == "b32") return "u32";
    if (t == "s32") return "s32";
    if (t == "f32") return "f32";
    if (t == "u64" || t == "b64") return "u64";
    if (t == "s64") {
      if (sign_matters) unsupported(s, fmt::format("'{}' on signed 64-bit values", joined(s.opcode)));
      return "u64";
    }
    if (t == "pred") return "pred";
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
      drop({"volatile", "relaxed", "weak", "cta", "gpu", "sys", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "nc"});
      if (mods.size() != 2) unsupported(s, fmt::format("'{}' (vector, or without a state space)", joined(s.opcode)));
      const std::string& space = mods[0];
      if (space == "param" && op == "ld") {
        need(s, 2);
        const std::string name = o[1].substr(1, o[1].size() - 2);
        if (o[1].front() != '[' || !param_names_.count(name))
          unsupported(s, fmt::format("ld.param from '{}' (a part of a parameter)", o[1]));
        instruction(s, fmt::format("mov.{} {}, {}", param_types_.at(name), reg(s, o[0]), param_names_.at(name)));
        return;
      }
      if (space != "global" && space != "shared")
        unsupported(s, fmt::format("'{}' ({} memory)", joined(s.opcode), space == "u32" || space == "f32" || space == "u64" ? "generic" : space));
      const std::string t = type(s, mods[1], false);
      if (t == "pred") unsupported(s, joined(s.opcode));
      need(s, 2);
      if (op == "ld")
        instruction(s, fmt::format("ld.{}.{} {}, {}", space, t, reg(s, o[0]), memory(s, o[1], space == "shared")));
      else
        instruction(s, fmt::format("st.{}.{} {}, {}", space, t, memory(s, o[0], space == "shared"), value(s, o[1], t)));
      return;
    }
    if (op == "cvta") {
      need(s, 2);
      if (mods.size() == 3 && mods[0] == "to" && mods[1] == "global" && mods[2] == "u64") {
        instruction(s, fmt::format("mov.u64 {}, {}", reg(s, o[0]), value(s, o[1], "u64")));
        return;
      }
      unsupported(s, fmt::format("'{}' (generic addresses)", joined(s.opcode)));
    }
    if (op == "mov") {
      need(s, 2);
      if (mods.size() != 1) unsupported(s, joined(s.opcode));
      const std::string t = type(s, mods[0], false);
      if (o[1].starts_with("{") || o[0].starts_with("{")) unsupported(s, "mov packing or unpacking a vector");
      instruction(s, fmt::format("mov.{} {}, {}", t, reg(s, o[0]), value(s, o[1], t)));
      return;
    }
    if (op == "add" || op == "sub" || op == "mul" || op == "mad" || op == "fma" || op == "div" || op == "rem" ||
        op == "min" || op == "max" || op == "and" || op == "or" || op == "xor" || op == "shl" || op == "shr" ||
        op == "neg" || op == "abs" || op == "not") {
      arithmetic(s, op, mods);
      return;
    }
    if (op == "sqrt" || op == "rcp") {
      need(s, 2);
      if (mods != std::vector<std::string>{"rn", "f32"})
        unsupported(s, fmt::format("'{}' (only the correctly rounded .rn.f32 form)", joined(s.opcode)));
      if (op == "sqrt") instruction(s, fmt::format("sqrt.f32 {}, {}", reg(s, o[0]), value(s, o[1], "f32")));
      // rcp.rn is the correctly rounded 1/x, which is exactly div.rn 1.0, x.
      else instruction(s, fmt::format("div.f32 {}, 0f3f800000, {}", reg(s, o[0]), value(s, o[1], "f32")));
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
      const bool sync = has("sync") || o.size() == 3;
      if (sync && (o.size() != 3 || (constant(o[2]) != 0xffffffffu && constant(o[2]) != ~std::uint64_t{0})))
        unsupported(s, "vote.sync with a mask other than 0xffffffff");
      if (o.size() < 2 || o[1].starts_with("!")) unsupported(s, joined(s.opcode));
      if (mods == std::vector<std::string>{"any", "pred"} || mods == std::vector<std::string>{"all", "pred"})
        return instruction(s, fmt::format("vote.{}.pred {}, {}", mods[0], reg(s, o[0]), reg(s, o[1])));
      if (mods == std::vector<std::string>{"ballot", "b32"})
        return instruction(s, fmt::format("vote.ballot.u32 {}, {}", reg(s, o[0]), reg(s, o[1])));
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

  void arithmetic(const PtxStatement& s, const std::string& op, std::vector<std::string> mods) {
    const auto& o = s.operands;
    std::string name = op == "fma" ? "mad" : op;
    if (mods.empty()) unsupported(s, joined(s.opcode));
    const std::string ptx_type = mods.back();
    mods.pop_back();
    bool wide = false;
    for (const auto& m : mods) {
      if (m == "lo" && (op == "mul" || op == "mad")) continue;
      if (m == "rn" && ptx_type == "f32" && (op == "add" || op == "sub" || op == "mul" || op == "mad" || op == "fma" || op == "div")) continue;
      if (m == "wide" && op == "mul") {
        wide = true;
        continue;
      }
      unsupported(s, fmt::format("'{}' (the .{} modifier)", joined(s.opcode), m));
    }
    if ((op == "mad" || op == "fma") && ptx_type == "f32" && mods.empty() && op == "fma") unsupported(s, joined(s.opcode));
    if (op == "div" && ptx_type == "f32" && std::find(mods.begin(), mods.end(), "rn") == mods.end())
      unsupported(s, fmt::format("'{}' (approximate division; only div.rn.f32)", joined(s.opcode)));
    const bool sign_matters = op == "div" || op == "rem" || op == "min" || op == "max" || op == "shr" || op == "neg" ||
                              op == "abs" || wide;
    std::string t = type(s, ptx_type, sign_matters);
    if (t == "pred" && op != "and" && op != "or" && op != "xor" && op != "not") unsupported(s, joined(s.opcode));
    if (ptx_type == "b32" && (op == "neg" || op == "abs")) t = "s32";
    if ((op == "neg" || op == "abs") && t != "s32" && t != "f32") unsupported(s, joined(s.opcode));
    if (wide) {
      need(s, 3);
      if (t != "u32" && t != "s32") unsupported(s, joined(s.opcode));
      return instruction(s, fmt::format("mul.wide.{} {}, {}, {}", t, reg(s, o[0]), value(s, o[1], t), value(s, o[2], t)));
    }
    const std::size_t arity = op == "mad" || op == "fma" ? 4 : op == "neg" || op == "abs" || op == "not" ? 2 : 3;
    need(s, arity);
    std::string text = fmt::format("{}.{} {}", name, t, reg(s, o[0]));
    for (std::size_t i = 1; i < arity; ++i)
      text += ", " + ((op == "shl" || op == "shr") && i == 2 ? value(s, o[i], "u32") : value(s, o[i], t));
    instruction(s, text);
  }

  void convert(const PtxStatement& s, std::vector<std::string> mods) {
    need(s, 2);
    if (mods.size() < 2) unsupported(s, joined(s.opcode));
    const std::string src = mods.back();
    mods.pop_back();
    const std::string dst = mods.back();
    mods.pop_back();
    const bool from_float = src == "f32", to_float = dst == "f32";
    for (const auto& m : mods) {
      if (m == "rzi" && from_float && !to_float) continue;  // truncation, the IR's rule
      if (m == "rn" && to_float && !from_float) continue;   // round to nearest, the IR's rule
      unsupported(s, fmt::format("'{}' (the .{} rounding or modifier)", joined(s.opcode), m));
    }
    if (from_float && to_float) unsupported(s, joined(s.opcode));
    auto ir = [&](const std::string& t, bool destination) -> std::string {
      if (t == "u32" || t == "s32" || t == "f32" || t == "u64") return t;
      if (t == "s64") {
        if (from_float || to_float) unsupported(s, fmt::format("'{}' (signed 64-bit)", joined(s.opcode)));
        return "u64";  // integer to and from s64: sign extension from s32 and truncation have the u64 bits
      }
      (void)destination;
      unsupported(s, fmt::format("'{}' (.{} values)", joined(s.opcode), t));
    };
    std::string d = ir(dst, true), a = ir(src, false);
    if ((dst == "u32" || dst == "s32") && (src == "u64" || src == "s64")) d = "u32", a = "u64";
    instruction(s, fmt::format("cvt.{}.{} {}, {}", d, a, reg(s, s.operands[0]), value(s, s.operands[1], a)));
  }

  void compare(const PtxStatement& s, std::vector<std::string> mods) {
    const auto& o = s.operands;
    if (mods.size() != 2) unsupported(s, fmt::format("'{}' (setp combining with a predicate)", joined(s.opcode)));
    if (o.size() != 3 || o[0].find('|') != std::string::npos) unsupported(s, fmt::format("'{}' with two results", joined(s.opcode)));
    const std::string& ptx_type = mods[1];
    std::string cmp = mods[0];
    if (ptx_type == "f32") {
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
    if (mods.size() != 3 || (mods[0] != "global" && mods[0] != "shared"))
      unsupported(s, fmt::format("'{}' (generic address, ordering or vector form)", joined(s.opcode)));
    const std::string& what = mods[1];
    static const std::set<std::string> kOps = {"add", "min", "max", "exch", "cas", "inc"};
    if (!kOps.count(what)) unsupported(s, joined(s.opcode));
    const std::string t = type(s, mods[2], what == "min" || what == "max");
    const auto& o = s.operands;
    std::vector<std::string> operands;
    std::size_t first = 0;
    if (op == "red") {
      operands.push_back(scratch(t == "u64" ? "b64" : "b32"));
    } else {
      operands.push_back(reg(s, o.at(0)));
      first = 1;
    }
    const std::size_t sources = what == "cas" ? 2 : 1;
    need(s, first + 1 + sources);
    operands.push_back(memory(s, o[first], mods[0] == "shared"));
    for (std::size_t i = 0; i < sources; ++i) operands.push_back(value(s, o[first + 1 + i], t));
    instruction(s, fmt::format("atom.{}.{}.{} {}", what, mods[0], t, fmt::join(operands, ", ")));
  }

  // red has no result: the IR's atom writes the old value to a register nothing reads.
  std::string scratch(const std::string& type) {
    const std::string name = type == "b64" ? "red_old64" : "red_old32";
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
    const auto mask = constant(o[4]);
    if (!c || (*c & 0xffffffffu) != clamp)
      unsupported(s, fmt::format("'{}' with a width other than 32 (clamp operand {})", joined(s.opcode), o[3]));
    if (!mask || (*mask & 0xffffffffu) != 0xffffffffu) unsupported(s, fmt::format("'{}' with a mask other than 0xffffffff", joined(s.opcode)));
    instruction(s, fmt::format("shfl.{}.u32 {}, {}, {}", mode, reg(s, d), value(s, o[1], "u32"), value(s, o[2], "u32")));
  }

  const PtxKernel& k_;
  const std::vector<CudaParam>& names_;
  KirText& out_;
  std::map<std::string, std::string> registers_, shared_, param_names_, param_types_;
  std::map<std::string, std::uint64_t> constants_;
  std::set<std::string> reads_, scratch_;
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
    KernelTranslator(module.kernels.at(kernels[i]), i < names.size() ? names[i] : std::vector<CudaParam>{}, out).run();
  }
  return out;
}

}  // namespace warpsim::frontend
