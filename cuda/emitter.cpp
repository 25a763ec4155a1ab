#include "cuda/emitter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "device/errors.hpp"
#include "isa/printer.hpp"

namespace warpsim::cuda {

using isa::Opcode;
using isa::Operand;
using isa::OperandKind;
using isa::Type;

namespace {

std::string_view c_type(Type t) {
  switch (t) {
    case Type::Pred: return "bool";
    case Type::U32: return "unsigned";
    case Type::S32: return "int";
    case Type::U64: return "unsigned long long";
    case Type::F32: return "float";
    case Type::S64: return "long long";
    case Type::F64: return "double";
    case Type::U16:
    case Type::B16: return "unsigned short";
    case Type::S16: return "short";
    case Type::U8:
    case Type::B8: return "unsigned char";
    case Type::S8: return "signed char";
    case Type::B32: return "unsigned";
    case Type::B64: return "unsigned long long";
    case Type::None: break;
  }
  return "void";
}

// CUDA's built-in vector type of n (2 or 4) elements of t, whose alignment (its size) tells NVVM a
// PTX ld/st.v2/.v4 may be one vector access (LDG.E.128, LDS.128); "" where there is none. A PTX
// vector access must be aligned to its whole size, so the cast is what the IR's access promises. An
// element-wise copy through a scalar pointer compiles to scalar loads on the GPU (the generic pointer's
// alignment is unknown): set28's batch_mm4 ran 32 LD.E where a user's float4 code runs 8 LDG.E.128.
std::string vector_type(Type t, unsigned n) {
  if (n != 2 && n != 4) return {};
  const char* base = nullptr;
  switch (t) {
    case Type::F32: base = "float"; break;
    case Type::S32: base = "int"; break;
    case Type::U32:
    case Type::B32: base = "uint"; break;
    case Type::S16: base = "short"; break;
    case Type::U16:
    case Type::B16: base = "ushort"; break;
    case Type::S8: base = "char"; break;
    case Type::U8:
    case Type::B8: base = "uchar"; break;
    case Type::F64: base = n == 2 ? "double" : nullptr; break;
    case Type::S64: base = n == 2 ? "longlong" : nullptr; break;
    case Type::U64:
    case Type::B64: base = n == 2 ? "ulonglong" : nullptr; break;
    default: break;
  }
  return base == nullptr ? std::string() : fmt::format("{}{}", base, n);
}

// Names a kernel may not have: C++ keywords, CUDA built-ins and the functions emitted code calls
// (an extern "C" kernel of that name would clash with them). Registers, labels and shared arrays
// get prefixes (r_, L_, s_), so only the kernel name is checked.
constexpr std::array kReservedNames = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
    "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
    "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "main",
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "smem", "clock", "clock64", "atomicAdd",
    "atomicMin", "atomicMax", "atomicExch", "atomicCAS", "atomicInc", "fminf", "fmaxf", "fabsf", "printf",
    "malloc", "free", "memcpy", "memset", "assert", "min", "max", "abs", "fabs", "sqrt", "sqrtf", "fma", "fmaf",
    "exp", "expf", "log", "logf", "pow", "powf", "sin", "sinf", "cos", "cosf", "floor", "floorf", "ceil", "ceilf",
    "round", "roundf", "trunc", "truncf", "isnan", "isinf", "signbit", "dim3", "uint3", "float2", "float4", "int2",
    "int4", "uint2", "uint4", "char2", "char4", "uchar2", "uchar4", "short2", "short4", "ushort2", "ushort4",
    "double2", "longlong2", "ulonglong2", "size_t", "std", "cuda"};

void check_kernel_name(const std::string& name) {
  const bool reserved = std::find(kReservedNames.begin(), kReservedNames.end(), name) != kReservedNames.end();
  if (reserved || name.starts_with("ws_") || name.starts_with("WS_") || name.starts_with("__"))
    throw Error(fmt::format("kernel '{}' cannot be emitted as CUDA: '{}' is reserved in CUDA C++ or by the "
                            "warpsim prelude; rename the kernel",
                            name, name));
}

std::string f32_literal(std::uint32_t bits) {
  const float f = std::bit_cast<float>(bits);
  if (!std::isfinite(f)) return fmt::format("__int_as_float(0x{:08x})", bits);
  std::string text = fmt::format("{}", f);  // shortest text that reads back as the same float
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text + "f";
}

std::string literal(std::uint64_t bits, Type t) {
  switch (t) {
    case Type::Pred: return bits ? "true" : "false";
    case Type::U32: return fmt::format("{}u", static_cast<std::uint32_t>(bits));
    case Type::S32: {
      const auto v = static_cast<std::int32_t>(bits);
      if (v == std::numeric_limits<std::int32_t>::min()) return "(-2147483647 - 1)";
      return fmt::format("{}", v);
    }
    case Type::U64:
    case Type::B64: return fmt::format("{}ull", bits);
    case Type::F32: return f32_literal(static_cast<std::uint32_t>(bits));
    case Type::S64: return fmt::format("(long long)0x{:x}ull", bits);
    case Type::F64: return fmt::format("__longlong_as_double(0x{:x}ll)", bits);
    case Type::B32: return fmt::format("{}u", static_cast<std::uint32_t>(bits));
    case Type::U16:
    case Type::B16:
    case Type::U8:
    case Type::B8: return fmt::format("({}){}u", c_type(t), bits);
    case Type::S16:
    case Type::S8: return fmt::format("({})({})", c_type(t), static_cast<std::int64_t>(bits));
    case Type::None: break;
  }
  return "0";
}

// `expr` of type `from` as a value of type `to`. Valid kernels hardly need it (the verifier makes
// types agree); where they do, integers convert as in C and f32 <-> integer keeps the bits.
std::string convert(std::string expr, Type from, Type to) {
  if (from == to || to == Type::None) return expr;
  if (to == Type::Pred) return fmt::format("(({}) != 0)", expr);
  if (from == Type::F32 && to != Type::F64) return fmt::format("({})__float_as_uint({})", c_type(to), expr);
  if (from == Type::F64 && to != Type::F32) return fmt::format("({})__double_as_longlong({})", c_type(to), expr);
  if (to == Type::F32 && from != Type::F64) return fmt::format("__uint_as_float((unsigned)({}))", expr);
  if (to == Type::F64 && from != Type::F32) return fmt::format("__longlong_as_double((long long)({}))", expr);
  return fmt::format("({})({})", c_type(to), expr);
}

std::string special_expr(isa::Special s) {
  using isa::Special;
  switch (s) {
    case Special::TidX: return "threadIdx.x";
    case Special::TidY: return "threadIdx.y";
    case Special::TidZ: return "threadIdx.z";
    case Special::NtidX: return "blockDim.x";
    case Special::NtidY: return "blockDim.y";
    case Special::NtidZ: return "blockDim.z";
    case Special::CtaidX: return "blockIdx.x";
    case Special::CtaidY: return "blockIdx.y";
    case Special::CtaidZ: return "blockIdx.z";
    case Special::NctaidX: return "gridDim.x";
    case Special::NctaidY: return "gridDim.y";
    case Special::NctaidZ: return "gridDim.z";
    case Special::LaneId: return "ws_laneid()";
    case Special::WarpId: return "ws_warpid()";
    case Special::NWarpId: return "ws_nwarpid()";
    case Special::WarpSize: return "32u";
    case Special::Clock: return "(unsigned)clock()";
    case Special::Clock64: return "(unsigned long long)clock64()";
  }
  return "0u";
}

std::string_view compare_operator(isa::Compare c) {
  switch (c) {
    case isa::Compare::Eq: return "==";
    case isa::Compare::Ne: return "!=";
    case isa::Compare::Lt: return "<";
    case isa::Compare::Le: return "<=";
    case isa::Compare::Gt: return ">";
    case isa::Compare::Ge: return ">=";
    case isa::Compare::None: break;
  }
  return "==";
}

std::string offset_suffix(std::int64_t offset, std::string_view literal_suffix) {
  if (offset == 0) return "";
  if (offset > 0) return fmt::format(" + {}{}", offset, literal_suffix);
  return fmt::format(" - {}{}", -static_cast<std::uint64_t>(offset), literal_suffix);
}

bool is_warp_op(Opcode op) {
  switch (op) {
    case Opcode::BarWarpSync:
    case Opcode::VoteAny:
    case Opcode::VoteAll:
    case Opcode::VoteBallot:
    case Opcode::Activemask:
    case Opcode::ShflDown:
    case Opcode::ShflUp:
    case Opcode::ShflXor:
    case Opcode::ShflIdx: return true;
    default: return false;
  }
}

class KernelEmitter {
 public:
  KernelEmitter(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, EmitMode mode)
      : k_(kernel), a_(analysis), mode_(mode) {}

  std::string emit() {
    check_kernel_name(k_.name);
    signature();
    declarations();
    body();
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  const isa::Kernel& k_;
  const isa::KernelAnalysis& a_;
  EmitMode mode_;
  std::string out_;

  bool instrumented() const { return mode_ == EmitMode::Instrumented; }
  std::string reg(std::uint32_t index) const { return "r_" + k_.registers.at(index).name; }
  std::string label(std::uint32_t index) const { return "L_" + k_.labels.at(index).name; }

  void line(std::string_view text) {
    out_ += "  ";
    out_ += text;
    out_ += '\n';
  }

  void signature() {
    out_ += fmt::format("extern \"C\" __global__ void {}(", k_.name);
    bool first = true;
    for (auto p : k_.params) {
      const auto& r = k_.registers.at(p);
      if (!first) out_ += ", ";
      first = false;
      out_ += fmt::format("const {} {}", c_type(r.type), reg(p));
      if (r.pointee != Type::None) out_ += fmt::format(" /* ptr.{} */", isa::type_name(r.pointee));
    }
    if (instrumented()) {
      if (!first) out_ += ", ";
      out_ += fmt::format("const unsigned long long {}, const unsigned {}", kTraceBufferParam, kTraceCapacityParam);
    }
    out_ += ") {\n";
  }

  bool uses_shared() const {
    if (k_.shared_bytes() != 0) return true;
    return std::any_of(k_.code.begin(), k_.code.end(),
                       [](const isa::Instruction& in) { return in.space == isa::Space::Shared; });
  }

  void declarations() {
    if (uses_shared()) {
      line(fmt::format("__shared__ __align__(16) unsigned char smem[{}];", std::max<std::uint32_t>(16, k_.shared_bytes())));
    }
    if (k_.local_bytes() != 0)
      line(fmt::format("__align__(16) unsigned char lmem[{}];  // the thread's local arrays", k_.local_bytes()));
    for (const auto& s : k_.shared)
      line(fmt::format("const unsigned s_{} = {}u;  // {} {} {}[{}]", s.name, s.offset, isa::space_name(s.space),
                       isa::type_name(s.element), s.name, s.count));
    for (Type t : {Type::Pred, Type::U32, Type::S32, Type::U64, Type::F32, Type::S64, Type::F64, Type::U16,
                   Type::S16, Type::B16, Type::B32, Type::B64}) {
      std::string names;
      for (std::uint32_t i = 0; i < k_.registers.size(); ++i) {
        const auto& r = k_.registers[i];
        if (r.is_param || r.type != t) continue;
        if (!names.empty()) names += ", ";
        names += fmt::format("{} = {}", reg(i), literal(0, t));
      }
      if (!names.empty()) line(fmt::format("{} {};", c_type(t), names));
    }
    if (instrumented())
      line(fmt::format("const ws_trace_t ws_t = ws_trace_begin({}, {});", kTraceBufferParam, kTraceCapacityParam));
  }

  void body() {
    std::vector<int> block_at(k_.code.size(), -1);
    for (std::uint32_t b = 0; b < a_.cfg.blocks.size(); ++b)
      if (a_.cfg.blocks[b].begin < block_at.size()) block_at[a_.cfg.blocks[b].begin] = static_cast<int>(b);
    std::vector<bool> targeted(k_.labels.size(), false);
    for (const auto& in : k_.code)
      for (std::uint8_t i = 0; i < in.operand_count; ++i)
        if (in.operands[i].kind == OperandKind::Label) targeted.at(in.operands[i].index) = true;

    for (std::uint32_t pc = 0; pc < k_.code.size(); ++pc) {
      if (block_at[pc] >= 0) {
        out_ += fmt::format("  // block {}\n", block_at[pc]);
      }
      for (std::uint32_t l = 0; l < k_.labels.size(); ++l) {
        if (k_.labels[l].position != pc) continue;
        if (targeted[l])
          out_ += fmt::format("{}: ;\n", label(l));
        else
          out_ += fmt::format("  // {}: (no branch targets it)\n", k_.labels[l].name);
      }
      if (block_at[pc] >= 0 && instrumented()) line(fmt::format("ws_record(ws_t, {}u);", block_at[pc]));
      const auto& in = k_.code[pc];
      line(fmt::format("{}  // {}", statement(in), source_comment(in)));
    }
  }

  std::string source_comment(const isa::Instruction& in) const {
    std::string text = isa::print(k_, in);
    if (in.loc.line) text = fmt::format("{}: {}", in.loc.line, text);
    return text;
  }

  // The value of operand `i` as a C expression of type `t`.
  std::string value(const isa::Instruction& in, int i, Type t) const {
    const Operand& op = in.operands.at(i);
    switch (op.kind) {
      case OperandKind::Register: return convert(reg(op.index), k_.registers.at(op.index).type, t);
      case OperandKind::Immediate: return literal(op.bits, t);
      case OperandKind::Special: return convert(special_expr(op.special), isa::special_type(op.special), t);
      case OperandKind::SharedAddress: return convert("s_" + k_.shared.at(op.index).name, Type::U32, t);
      default: break;
    }
    throw Error(fmt::format("kernel '{}': line {}: operand {} of '{}' is not a value", k_.name, in.loc.line, i + 1,
                            isa::mnemonic(in.op)));
  }

  std::string dst(const isa::Instruction& in, int i = 0) const {
    const Operand& op = in.operands.at(i);
    if (op.kind != OperandKind::Register)
      throw Error(fmt::format("kernel '{}': line {}: the destination of '{}' is not a register", k_.name, in.loc.line,
                              isa::mnemonic(in.op)));
    return reg(op.index);
  }

  // dst = expr, converting when the register's type differs from the value's.
  std::string assign(const isa::Instruction& in, std::string expr, Type expr_type, int i = 0) const {
    const Type reg_type = k_.registers.at(in.operands.at(i).index).type;
    return fmt::format("{} = {};", dst(in, i), convert(std::move(expr), expr_type, reg_type));
  }

  // A pointer of element type `t` to the memory operand `i`.
  std::string pointer(const isa::Instruction& in, int i, Type t) const {
    const Operand& op = in.operands.at(i);
    const bool shared = in.space == isa::Space::Shared || in.space == isa::Space::Local;
    const char* space = in.space == isa::Space::Local ? "lmem" : "smem";
    std::string address;
    if (op.kind == OperandKind::MemShared) {
      address = fmt::format("{} + (s_{}{})", space, k_.shared.at(op.index).name, offset_suffix(op.offset, "u"));
    } else if (op.kind == OperandKind::MemRegister) {
      const Type base_type = k_.registers.at(op.index).type;
      // smem + base + offset, not smem + (u32)(base + offset): the IR's shared and local addresses
      // do not wrap (docs/ir.md), and in this form the compiler folds the offset into the access.
      // With the u32 sum, NVRTC (whose shared pointers are 64-bit) keeps one 64-bit pointer per
      // offset live across a loop: set25's matmul_rect took 93 registers instead of 32.
      if (shared)
        address = fmt::format("{} + ({}){}", space, convert(reg(op.index), base_type, Type::U32), offset_suffix(op.offset, ""));
      else
        address = fmt::format("{}{}", convert(reg(op.index), base_type, Type::U64), offset_suffix(op.offset, "ull"));
    } else {
      throw Error(fmt::format("kernel '{}': line {}: operand {} of '{}' is not a memory operand", k_.name, in.loc.line,
                              i + 1, isa::mnemonic(in.op)));
    }
    return fmt::format("(({}*)({}))", c_type(t), address);
  }

  // Whether integer arithmetic of type t needs the prelude's wrapping helpers: signed types (whose
  // overflow C leaves undefined) and 16-bit types (which C promotes to int).
  static bool needs_wrap(Type t) { return isa::is_signed(t) || isa::type_bytes(t) == 2; }

  std::string binary(const isa::Instruction& in, std::string_view op, std::string_view f32_fn, std::string_view s32_fn,
                     std::string_view f64_fn = {}) const {
    const Type t = in.type;
    const std::string a = value(in, 1, t), b = value(in, 2, t);
    if (t == Type::F32 && !f32_fn.empty()) return assign(in, fmt::format("{}({}, {})", f32_fn, a, b), t);
    if (t == Type::F64 && !f64_fn.empty()) return assign(in, fmt::format("{}({}, {})", f64_fn, a, b), t);
    if (needs_wrap(t) && !s32_fn.empty()) return assign(in, fmt::format("{}({}, {})", s32_fn, a, b), t);
    return assign(in, fmt::format("{} {} {}", a, op, b), t);
  }

  std::string call(const isa::Instruction& in, std::string_view fn, int args) const {
    std::string list;
    for (int i = 1; i <= args; ++i) list += (i > 1 ? ", " : "") + value(in, i, in.type);
    return assign(in, fmt::format("{}({})", fn, list), in.type);
  }

  std::string cvt(const isa::Instruction& in) const {
    const Type to = in.type, from = in.source_type;
    const std::string x = value(in, 1, from);
    if (to == from) return assign(in, x, to);
    if (to == Type::F32 && from == Type::F64) return assign(in, fmt::format("__double2float_rn({})", x), to);
    if (to == Type::F64 && from == Type::F32) return assign(in, fmt::format("(double)({})", x), to);
    if (to == Type::F32) {
      const char* fn = from == Type::U32   ? "__uint2float_rn"
                       : from == Type::U64 ? "__ull2float_rn"
                       : from == Type::S64 ? "__ll2float_rn"
                                           : "__int2float_rn";  // s32 and the 8- and 16-bit types (exact in int)
      return assign(in, fmt::format("{}({})", fn, x), to);
    }
    if (to == Type::F64) {
      const char* fn = from == Type::U64 ? "__ull2double_rn" : from == Type::S64 ? "__ll2double_rn" : "(double)";
      return assign(in, fmt::format("{}({})", fn, x), to);
    }
    if (isa::is_float(from)) {
      const bool single = from == Type::F32;
      switch (to) {
        case Type::U32: return assign(in, fmt::format("{}({})", single ? "ws_f2u32" : "ws_d2u32", x), to);
        case Type::S32: return assign(in, fmt::format("{}({})", single ? "ws_f2s32" : "ws_d2s32", x), to);
        case Type::U64: return assign(in, fmt::format("{}({})", single ? "ws_f2u64" : "ws_d2u64", x), to);
        case Type::S64: return assign(in, fmt::format("ws_f2s64({})", x), to);
        default: {
          const unsigned bits = isa::type_bytes(to) * 8;
          const long long lo = isa::is_signed(to) ? -(1ll << (bits - 1)) : 0;
          const long long hi = isa::is_signed(to) ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
          return assign(in, fmt::format("({})ws_f2narrow({}, {}, {})", c_type(to), x, lo, hi), to);
        }
      }
    }
    return assign(in, fmt::format("({})({})", c_type(to), x), to);  // integers: wrap, truncate, extend as C
  }

  std::string atomic(const isa::Instruction& in, std::string_view fn) const {
    const Type t = in.type;
    std::string args = pointer(in, 1, t) + ", " + value(in, 2, t);
    if (in.op == Opcode::AtomCas) args += ", " + value(in, 3, t);
    return assign(in, fmt::format("{}({})", fn, args), t);
  }

  // The instruction itself as inline PTX, for qualifiers (rounding, .ftz, .sat, .approx) and the
  // special functions: on the GPU their exact meaning is the PTX instruction's own.
  std::string inline_ptx(const isa::Instruction& in) const {
    isa::Instruction bare = in;
    bare.guarded = false;
    const std::string text = isa::print(k_, bare);
    const auto& info = in.info();
    std::string temps, outputs, inputs, operands, back;
    for (unsigned i = 0; i < info.arity; ++i) {
      const isa::Role role = info.roles[i];
      const Type t = isa::operand_type(in, role);
      // The C type and constraint of a PTX register of t (8-bit values travel in 32 bits).
      const Type held = t == Type::F32 || t == Type::F64 ? t
                        : isa::type_bytes(t) == 8        ? Type::U64
                        : isa::type_bytes(t) == 2        ? Type::U16
                                                         : Type::U32;
      const char* constraint = held == Type::F32 ? "f" : held == Type::F64 ? "d" : held == Type::U64 ? "l" : held == Type::U16 ? "h" : "r";
      operands += fmt::format("{}%{}", i ? ", " : "", i);
      if (isa::is_destination(role)) {
        temps += fmt::format("{} ws_d{}; ", c_type(held), i);
        outputs += fmt::format("{}\"={}\"(ws_d{})", outputs.empty() ? "" : ", ", constraint, i);
        back += " " + assign(in, fmt::format("ws_d{}", i), held, static_cast<int>(i));
      } else {
        inputs += fmt::format("{}\"{}\"({})", inputs.empty() ? "" : ", ", constraint, convert(value(in, static_cast<int>(i), t), t, held));
      }
    }
    return fmt::format("{{ {}asm(\"{} {};\" : {} : {});{} }}", temps, text.substr(0, text.find(' ')), operands, outputs,
                       inputs, back);
  }

  static bool needs_inline_ptx(const isa::Instruction& in) {
    switch (in.op) {
      case Opcode::Rcp:
      case Opcode::Rsqrt:
      case Opcode::Ex2:
      case Opcode::Lg2:
      case Opcode::Sin:
      case Opcode::Cos: return true;
      default: return in.rounding != isa::Rounding::None || in.ftz || in.saturate;
    }
  }

  // The statement for `in` without its guard; `lanes` names the lanes that run it (warp ops).
  std::string operation(const isa::Instruction& in, std::string_view lanes) const {
    const Type t = in.type;
    if (needs_inline_ptx(in)) return inline_ptx(in);
    switch (in.op) {
      case Opcode::Mov:
        if (in.vector == 2) return packed_mov(in);
        return assign(in, value(in, 1, t), t);
      case Opcode::Add: return binary(in, "+", "__fadd_rn", "ws_add", "__dadd_rn");
      case Opcode::Sub: return binary(in, "-", "__fsub_rn", "ws_sub", "__dsub_rn");
      case Opcode::Mul: return binary(in, "*", "__fmul_rn", "ws_mul", "__dmul_rn");
      case Opcode::MulWide:
        if (t == Type::S32)
          return assign(in, fmt::format("(unsigned long long)((long long){} * {})", value(in, 1, t), value(in, 2, t)), Type::U64);
        if (t == Type::U32)
          return assign(in, fmt::format("(unsigned long long){} * {}", value(in, 1, t), value(in, 2, t)), Type::U64);
        if (t == Type::S16) return assign(in, fmt::format("(int){} * (int){}", value(in, 1, t), value(in, 2, t)), Type::S32);
        return assign(in, fmt::format("(unsigned){} * (unsigned){}", value(in, 1, t), value(in, 2, t)), Type::U32);
      case Opcode::Mad:
        if (t == Type::F32) return call(in, "__fmaf_rn", 3);
        if (t == Type::F64) return call(in, "__fma_rn", 3);
        if (needs_wrap(t)) return call(in, "ws_mad", 3);
        return assign(in, fmt::format("{} * {} + {}", value(in, 1, t), value(in, 2, t), value(in, 3, t)), t);
      case Opcode::Div:
        return t == Type::F32 ? call(in, "__fdiv_rn", 2) : t == Type::F64 ? call(in, "__ddiv_rn", 2) : call(in, "ws_div", 2);
      case Opcode::Rem: return call(in, "ws_rem", 2);
      case Opcode::Min:
        return t == Type::F32 ? call(in, "fminf", 2) : t == Type::F64 ? call(in, "fmin", 2) : call(in, "ws_min", 2);
      case Opcode::Max:
        return t == Type::F32 ? call(in, "fmaxf", 2) : t == Type::F64 ? call(in, "fmax", 2) : call(in, "ws_max", 2);
      case Opcode::Neg: return isa::is_float(t) ? assign(in, "-" + value(in, 1, t), t) : call(in, "ws_neg", 1);
      case Opcode::Abs: return t == Type::F32 ? call(in, "fabsf", 1) : t == Type::F64 ? call(in, "fabs", 1) : call(in, "ws_abs", 1);
      case Opcode::And: return binary(in, t == Type::Pred ? "&&" : "&", "", "");
      case Opcode::Or: return binary(in, t == Type::Pred ? "||" : "|", "", "");
      case Opcode::Xor: return binary(in, t == Type::Pred ? "!=" : "^", "", "");
      case Opcode::Not: return assign(in, (t == Type::Pred ? "!" : "~") + value(in, 1, t), t);
      case Opcode::Shl:
      case Opcode::Shr:
        return assign(in, fmt::format("{}({}, {})", in.op == Opcode::Shl ? "ws_shl" : "ws_shr", value(in, 1, t),
                                      value(in, 2, Type::U32)), t);
      case Opcode::MulHi:
        return call(in, t == Type::U32 ? "__umulhi" : t == Type::S32 ? "__mulhi" : t == Type::U64 ? "__umul64hi" : "__mul64hi", 2);
      case Opcode::Bfe:
        return assign(in, fmt::format("ws_bfe({}, {}, {})", value(in, 1, t), value(in, 2, Type::U32), value(in, 3, Type::U32)), t);
      case Opcode::Bfi:
        return assign(in, fmt::format("ws_bfi({}, {}, {}, {})", value(in, 1, t), value(in, 2, t), value(in, 3, Type::U32),
                                      value(in, 4, Type::U32)), t);
      case Opcode::Popc:
        return assign(in, fmt::format("(unsigned){}({})", t == Type::B64 ? "__popcll" : "__popc", value(in, 1, t)), Type::U32);
      case Opcode::Clz:
        return assign(in, t == Type::B64 ? fmt::format("(unsigned)__clzll((long long){})", value(in, 1, t))
                                         : fmt::format("(unsigned)__clz((int){})", value(in, 1, t)),
                      Type::U32);
      case Opcode::Brev: return call(in, t == Type::B64 ? "__brevll" : "__brev", 1);
      case Opcode::Prmt: return call(in, "ws_prmt", 3);
      case Opcode::Sqrt: return call(in, t == Type::F64 ? "__dsqrt_rn" : "__fsqrt_rn", 1);
      case Opcode::Cvt: return cvt(in);
      case Opcode::Setp:
        return assign(in, fmt::format("{} {} {}", value(in, 1, t), compare_operator(in.compare), value(in, 2, t)), Type::Pred);
      case Opcode::Selp:
        return assign(in, fmt::format("{} ? {} : {}", value(in, 3, Type::Pred), value(in, 1, t), value(in, 2, t)), t);
      case Opcode::Ld:
        if (in.vector > 1 && !vector_type(t, in.vector).empty()) {  // one vector access, as the IR's
          const std::string vt = vector_type(t, in.vector);
          const std::string from = fmt::format("(const {}*){}", vt, pointer(in, 1, t));
          std::string text =
              fmt::format("{{ const {} ws_v = {}; ", vt, in.non_coherent ? fmt::format("__ldg({})", from) : "*" + from);
          for (unsigned k = 0; k < in.vector; ++k)
            text += assign(in, fmt::format("ws_v.{}", "xyzw"[k]), t, k == 0 ? 0 : static_cast<int>(k + 1)) + " ";
          return text + "}";
        }
        if (in.vector > 1) {  // element k to the k-th braced register (operands 0, then 2 ...)
          std::string text = fmt::format("{{ const {}* ws_p = {}; ", c_type(t), pointer(in, 1, t));
          for (unsigned k = 0; k < in.vector; ++k)
            text += assign(in, in.non_coherent ? fmt::format("__ldg(ws_p + {})", k) : fmt::format("ws_p[{}]", k), t,
                           k == 0 ? 0 : static_cast<int>(k + 1)) + " ";
          return text + "}";
        }
        if (in.non_coherent) return assign(in, fmt::format("__ldg({})", pointer(in, 1, t)), t);
        return assign(in, "*" + pointer(in, 1, t), t);
      case Opcode::Fma: return call(in, t == Type::F64 ? "__fma_rn" : "__fmaf_rn", 3);
      case Opcode::Rcp:
      case Opcode::Rsqrt:
      case Opcode::Ex2:
      case Opcode::Lg2:
      case Opcode::Sin:
      case Opcode::Cos: return inline_ptx(in);
      case Opcode::St:
        if (in.vector > 1 && !vector_type(t, in.vector).empty()) {  // one vector access, as the IR's
          const std::string vt = vector_type(t, in.vector);
          std::string values;
          for (unsigned k = 0; k < in.vector; ++k)
            values += fmt::format("{}({})({})", k == 0 ? "" : ", ", c_type(t), value(in, static_cast<int>(k + 1), t));
          return fmt::format("{{ {} ws_v = {{{}}}; *({}*){} = ws_v; }}", vt, values, vt, pointer(in, 0, t));
        }
        if (in.vector > 1) {  // the braced values are operands 1, then 2 ...
          std::string text = fmt::format("{{ {}* ws_p = {}; ", c_type(t), pointer(in, 0, t));
          for (unsigned k = 0; k < in.vector; ++k) text += fmt::format("ws_p[{}] = {}; ", k, value(in, static_cast<int>(k + 1), t));
          return text + "}";
        }
        return fmt::format("*{} = {};", pointer(in, 0, t), value(in, 1, t));
      case Opcode::AtomAdd: return atomic(in, "atomicAdd");
      case Opcode::AtomMin: return atomic(in, "atomicMin");
      case Opcode::AtomMax: return atomic(in, "atomicMax");
      case Opcode::AtomExch: return atomic(in, "atomicExch");
      case Opcode::AtomCas: return atomic(in, "atomicCAS");
      case Opcode::AtomInc: return atomic(in, "atomicInc");
      case Opcode::AtomDec: return atomic(in, "atomicDec");
      case Opcode::AtomAnd: return atomic(in, "atomicAnd");
      case Opcode::AtomOr: return atomic(in, "atomicOr");
      case Opcode::AtomXor: return atomic(in, "atomicXor");
      case Opcode::BarSync: return "__syncthreads();";
      case Opcode::BarWarpSync:
        return fmt::format("__syncwarp({});", in.operand_count == 1 ? value(in, 0, Type::U32) : std::string(lanes));
      case Opcode::MembarCta: return "__threadfence_block();";
      case Opcode::MembarGl: return "__threadfence();";
      case Opcode::VoteAny:
        return assign(in, fmt::format("__any_sync({}, {}) != 0", members(in, lanes), value(in, 1, Type::Pred)), Type::Pred);
      case Opcode::VoteAll:
        return assign(in, fmt::format("__all_sync({}, {}) != 0", members(in, lanes), value(in, 1, Type::Pred)), Type::Pred);
      case Opcode::VoteBallot:
        return assign(in, fmt::format("__ballot_sync({}, {})", members(in, lanes), value(in, 1, Type::Pred)), Type::U32);
      case Opcode::Activemask: return assign(in, std::string(lanes), Type::U32);
      case Opcode::ShflDown:
      case Opcode::ShflUp:
      case Opcode::ShflXor:
      case Opcode::ShflIdx: {
        const char* fn = in.op == Opcode::ShflDown ? "ws_shfl_down"
                         : in.op == Opcode::ShflUp ? "ws_shfl_up"
                         : in.op == Opcode::ShflXor ? "ws_shfl_xor"
                                                    : "ws_shfl_idx";
        return assign(in, fmt::format("{}({}, {}, {})", fn, members(in, lanes), value(in, 1, t), value(in, 2, Type::U32)), t);
      }
      case Opcode::Bra: return fmt::format("goto {};", label(in.operands.at(0).index));
      case Opcode::Exit:
      case Opcode::Ret:
        if (!instrumented()) return "return;";
        if (lanes == "__activemask()") return "{ ws_record(ws_t, WS_EXIT); return; }";
        return fmt::format("{{ ws_record_lanes(ws_t, WS_EXIT, {}); return; }}", lanes);
    }
    return "";
  }

  // The lanes a warp instruction names: its membermask operand where it has one, else `lanes`.
  std::string members(const isa::Instruction& in, std::string_view lanes) const {
    const unsigned arity = in.info().arity;
    if (arity > 0 && in.info().roles[arity - 1] == isa::Role::SrcMask && in.operand_count == arity)
      return value(in, static_cast<int>(arity - 1), Type::U32);
    return std::string(lanes);
  }

  // mov.b64 {lo, hi}, x / mov.b64 x, {lo, hi} (and .b32 with 16-bit halves).
  std::string packed_mov(const isa::Instruction& in) const {
    const bool wide = in.type == Type::B64;
    const Type half = wide ? Type::U32 : Type::U16;
    const unsigned bits = wide ? 32 : 16;
    if (in.vector_at == 0) {  // unpack: operands lo, x, hi
      const std::string x = value(in, 1, wide ? Type::U64 : Type::U32);
      const char* whole = wide ? "unsigned long long" : "unsigned";
      return fmt::format("{{ const {} ws_x = {}; {} {} }}", whole, x,
                         assign(in, fmt::format("({})(ws_x & {}u)", c_type(half), wide ? "0xffffffff" : "0xffff"), half, 0),
                         assign(in, fmt::format("({})(ws_x >> {})", c_type(half), bits), half, 2));
    }
    // pack: operands x, lo, hi
    const std::string lo = value(in, 1, half), hi = value(in, 2, half);
    if (wide)
      return assign(in, fmt::format("((unsigned long long)({}) << 32) | (unsigned long long)({})", hi, lo), Type::U64);
    return assign(in, fmt::format("((unsigned)({}) << 16) | (unsigned)({})", hi, lo), Type::U32);
  }

  std::string statement(const isa::Instruction& in) const {
    const bool needs_lanes = is_warp_op(in.op) || (instrumented() && (in.op == Opcode::Exit || in.op == Opcode::Ret));
    if (!in.guarded) return operation(in, "__activemask()");
    const std::string guard = (in.guard_negated ? "!" : "") + reg(in.guard);
    if (in.op == Opcode::Bra && instrumented())
      return fmt::format("if (ws_branch({})) {}", guard, operation(in, "__activemask()"));
    // A guarded warp instruction runs on the active lanes whose guard holds; those lanes are
    // named explicitly so the shuffle, vote or exit record covers exactly them.
    if (needs_lanes)
      return fmt::format("{{ const unsigned ws_lanes = __ballot_sync(__activemask(), {}); if ({}) {} }}", guard, guard,
                         operation(in, "ws_lanes"));
    return fmt::format("if ({}) {}", guard, operation(in, "__activemask()"));
  }
};

}  // namespace

std::string emit_kernel(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, EmitMode mode) {
  std::string out = fmt::format("// kernel {} ({} mode), emitted by warpsim from {} IR instructions\n", kernel.name,
                                mode == EmitMode::Plain ? "plain" : "instrumented", kernel.code.size());
  return out + KernelEmitter(kernel, analysis, mode).emit();
}

std::string emit_cuda(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, EmitMode mode) {
  return cuda_prelude(mode) + "\n" + emit_kernel(kernel, analysis, mode);
}

std::string emit_cuda(const isa::Module& module, const std::vector<isa::KernelAnalysis>& analyses, EmitMode mode) {
  if (analyses.size() != module.kernels.size())
    throw Error(fmt::format("emit_cuda: {} kernels but {} analyses", module.kernels.size(), analyses.size()),
                ExitCode::Internal);
  std::string out = cuda_prelude(mode);
  for (std::size_t i = 0; i < module.kernels.size(); ++i) out += "\n" + emit_kernel(module.kernels[i], analyses[i], mode);
  return out;
}

}  // namespace warpsim::cuda
