// Checks a kernel against the opcode table and its control flow. It stands alone: kernels built in
// code get the same checks as parsed ones, and a broken kernel yields diagnostics, never a crash.
#include "isa/verifier.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "isa/analysis.hpp"

namespace warpsim::isa {

namespace {

// Where each line of the source starts, so that a kernel with many diagnostics finds each line at once.
class LineIndex {
 public:
  explicit LineIndex(std::string_view source) : source_(source) {}
  std::string_view line(std::uint32_t number) {
    if (number == 0 || source_.empty()) return {};
    if (starts_.empty()) {
      starts_.push_back(0);
      for (std::size_t i = source_.find('\n'); i != std::string_view::npos; i = source_.find('\n', i + 1))
        starts_.push_back(i + 1);
    }
    if (number > starts_.size()) return {};
    const std::size_t start = starts_[number - 1];
    const std::size_t end = number < starts_.size() ? starts_[number] - 1 : source_.size();
    std::string_view text = source_.substr(start, end - start);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    return text;
  }

 private:
  std::string_view source_;
  std::vector<std::size_t> starts_;
};


// A read of a register that no earlier write in its own block covers.
struct OpenUse {
  std::uint32_t reg = 0;
  std::uint32_t block = 0;
  SourceLoc loc;
};

// Each reached block's pre-order number in the dominator tree and the last number in its subtree:
// a strictly dominates b when first[a] < first[b] <= last[a].
struct DominatorIntervals {
  std::vector<std::uint32_t> first, last;
};

DominatorIntervals dominator_intervals(const Cfg& cfg) {
  const DominatorTree dom = compute_dominators(cfg);
  const auto n = static_cast<std::uint32_t>(cfg.blocks.size());
  std::vector<std::uint32_t> start(n + 1, 0), children(n);
  for (std::uint32_t b = 1; b < n; ++b)
    if (dom.idom[b] != kNoBlock) ++start[dom.idom[b] + 1];
  for (std::uint32_t b = 0; b < n; ++b) start[b + 1] += start[b];
  std::vector<std::uint32_t> cursor(start.begin(), start.end() - 1);
  for (std::uint32_t b = 1; b < n; ++b)
    if (dom.idom[b] != kNoBlock) children[cursor[dom.idom[b]]++] = b;
  DominatorIntervals out{std::vector<std::uint32_t>(n, 0), std::vector<std::uint32_t>(n, 0)};
  std::uint32_t number = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0, start[0]}};  // block, next child
  out.first[0] = number++;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    if (next < start[b + 1]) {
      const std::uint32_t child = children[next++];
      out.first[child] = number++;
      stack.emplace_back(child, start[child]);
      continue;
    }
    out.last[b] = number - 1;
    stack.pop_back();
  }
  return out;
}

// The mnemonic with its modifiers as written in kernel text: "ld.global.f32", "cvt.f32.u32".
std::string spelling(const Instruction& instruction) {
  std::string text(mnemonic(instruction.op));
  if (instruction.space != Space::None) text += fmt::format(".{}", space_name(instruction.space));
  if (instruction.non_coherent) text += ".nc";
  if (instruction.compare != Compare::None) text += fmt::format(".{}", compare_name(instruction.compare));
  if (instruction.rounding != Rounding::None) text += fmt::format(".{}", rounding_name(instruction.rounding));
  if (instruction.ftz) text += ".ftz";
  if (instruction.saturate) text += ".sat";
  if (instruction.type != Type::None) text += fmt::format(".{}", type_name(instruction.type));
  if (instruction.source_type != Type::None) text += fmt::format(".{}", type_name(instruction.source_type));
  return text;
}

// Whether an immediate's bits are a value of type t (s32 is stored sign-extended).
bool immediate_fits(std::uint64_t bits, Type t) {
  switch (t) {
    case Type::Pred: return bits <= 1;
    case Type::U32:
    case Type::F32: return bits <= 0xffffffffu;
    case Type::S32: {
      const auto value = static_cast<std::int64_t>(bits);
      return value >= INT32_MIN && value <= INT32_MAX;
    }
    case Type::S16: {
      const auto value = static_cast<std::int64_t>(bits);
      return value >= INT16_MIN && value <= INT16_MAX;
    }
    case Type::S8: {
      const auto value = static_cast<std::int64_t>(bits);
      return value >= INT8_MIN && value <= INT8_MAX;
    }
    case Type::U16:
    case Type::B16: return bits <= 0xffffu;
    case Type::U8:
    case Type::B8: return bits <= 0xffu;
    case Type::B32: return bits <= 0xffffffffu;
    default: return true;
  }
}

class KernelVerifier {
 public:
  KernelVerifier(const Kernel& kernel, const std::string& file, std::string_view source,
                 std::vector<Diagnostic>& out)
      : kernel_(kernel), file_(file), lines_(source), out_(out) {}

  void run() {
    check_declarations();
    if (kernel_.code.empty()) {
      error(kernel_.loc, fmt::format("kernel '{}' has no instructions; it must end in exit or ret", kernel_.name));
      return;
    }
    for (std::uint32_t pc = 0; pc < kernel_.code.size(); ++pc) check_instruction(kernel_.code[pc]);
    check_flow();
  }

 private:
  void report(Severity severity, SourceLoc loc, std::string message, std::uint32_t length = 1) {
    Diagnostic d;
    d.severity = severity;
    d.file = file_;
    d.loc = loc;
    d.message = std::move(message);
    d.source_line = std::string(lines_.line(loc.line));
    d.length = std::max<std::uint32_t>(length, 1);
    out_.push_back(std::move(d));
  }
  void error(SourceLoc loc, std::string message, std::uint32_t length = 1) {
    report(Severity::Error, loc, std::move(message), length);
  }
  static SourceLoc where(const Instruction& instruction, const Operand& operand) {
    return operand.loc.line != 0 ? operand.loc : instruction.loc;
  }
  bool valid_register(std::uint32_t index) const { return index < kernel_.registers.size(); }
  const Register& reg(std::uint32_t index) const { return kernel_.registers[index]; }
  static std::uint32_t width(const std::string& name) { return static_cast<std::uint32_t>(name.size()); }

  void check_declarations() {
    for (const Register& r : kernel_.registers)
      if (r.type == Type::None) error(r.loc, fmt::format("register '{}' has no type", r.name), width(r.name));
    for (const SharedArray& s : kernel_.shared) {
      const std::string_view what = space_name(s.space);
      if (s.space != Space::Shared && s.space != Space::Local)
        error(s.loc, fmt::format("array '{}' is neither shared nor local", s.name), width(s.name));
      if (s.count == 0)
        error(s.loc, fmt::format("{} array '{}' has size 0; the size must be a positive constant", what, s.name),
              width(s.name));
      if (type_bytes(s.element) == 0)
        error(s.loc,
              fmt::format("{} array '{}' has element type {}; expected u32, s32, u64 or f32", what, s.name,
                          s.element == Type::None ? "none" : type_name(s.element)),
              width(s.name));
    }
    // CUDA gives a thread at most 512 KiB of local memory; the simulator keeps every resident
    // thread's, so a larger declaration is refused here rather than failing to allocate.
    constexpr std::uint64_t kMaxLocalBytes = 512 * 1024;
    std::uint64_t local_bytes = 0;
    for (const SharedArray& s : kernel_.shared)
      if (s.space == Space::Local) local_bytes = std::max<std::uint64_t>(local_bytes, std::uint64_t{s.offset} + s.bytes());
    if (local_bytes > kMaxLocalBytes)
      for (const SharedArray& s : kernel_.shared)
        if (s.space == Space::Local && std::uint64_t{s.offset} + s.bytes() > kMaxLocalBytes) {
          error(s.loc, fmt::format("local arrays take {} bytes per thread; CUDA allows at most {} (512 KiB)", local_bytes,
                                   kMaxLocalBytes),
                width(s.name));
          break;
        }
    for (const Label& l : kernel_.labels)
      if (l.position > kernel_.code.size())
        error(l.loc, fmt::format("label '{}' is past the end of the kernel", l.name), width(l.name));
  }

  void check_instruction(const Instruction& instruction) {
    const OpcodeInfo& info = instruction.info();
    const std::string name = spelling(instruction);
    const SourceLoc loc = instruction.loc;
    const auto name_width = width(name);

    bool type_ok = true;
    if (info.types == kNone) {
      if (instruction.type != Type::None) error(loc, fmt::format("'{}' takes no type suffix", name), name_width);
    } else if (instruction.type == Type::None) {
      error(loc, fmt::format("'{}' needs a type suffix", name), name_width);
      type_ok = false;
    } else if ((info.types & type_bit(instruction.type)) == 0) {
      error(loc, fmt::format("'{}' does not accept type {}", mnemonic(instruction.op), type_name(instruction.type)),
            name_width);
      type_ok = false;
    }
    switch (info.modifier) {
      case Modifier::Space:
        if (instruction.space == Space::None)
          error(loc, fmt::format("'{}' needs a memory space: .global, .shared or .local", name), name_width);
        break;
      case Modifier::Compare:
        if (instruction.compare == Compare::None)
          error(loc, fmt::format("'{}' needs a comparison: .eq, .ne, .lt, .le, .gt or .ge", name), name_width);
        break;
      case Modifier::SourceType:
        if ((kConvert & type_bit(instruction.source_type)) == 0) {
          error(loc, fmt::format("'{}' needs a source type: .u8, .s8, .u16, .s16, .u32, .s32, .u64, .s64, .f32 or .f64", name),
                name_width);
          type_ok = false;
        }
        break;
      case Modifier::None: break;
    }

    check_qualifiers(instruction, name, loc, name_width);

    if (instruction.guarded) {
      if (!valid_register(instruction.guard))
        error(loc, fmt::format("the guard of '{}' names register #{}, which does not exist", name, instruction.guard));
      else if (reg(instruction.guard).type != Type::Pred)
        error(loc, fmt::format("guard '{}' is {}; a guard must be a pred register", reg(instruction.guard).name,
                               type_name(reg(instruction.guard).type)));
    }

    if (!check_vector(instruction, name, loc, name_width)) return;
    const unsigned expected = expected_operands(instruction);
    const bool mask_left_out = info.arity > 0 && info.roles[info.arity - 1] == Role::SrcMask &&
                               instruction.operand_count + 1u == info.arity;
    if (instruction.operand_count != expected && !mask_left_out) {
      error(loc, fmt::format("'{}' takes {} operand{}, not {}", name, expected, expected == 1 ? "" : "s",
                             instruction.operand_count),
            name_width);
      return;
    }
    for (unsigned i = 0; i < instruction.operand_count; ++i)
      check_operand(instruction, name, i, operand_role(instruction, i), type_ok);
    if (instruction.space == Space::Local && info.latency == Latency::Atomic)
      error(loc, fmt::format("'{}': atomics work on global and shared memory, not local", name), name_width);
  }

  // Braced lists: ld/st .v2 and .v4 of at most 16 bytes, and mov.b32/.b64 packing two halves.
  bool check_vector(const Instruction& in, const std::string& name, SourceLoc loc, std::uint32_t name_width) {
    if (in.vector == 0) return true;
    const OpcodeInfo& info = in.info();
    bool ok = (info.qualifiers & kVector) != 0 && in.vector_at < info.arity;
    if (ok && in.op == Opcode::Mov) {
      ok = in.vector == 2 && (in.type == Type::B32 || in.type == Type::B64);
      if (!ok) error(loc, fmt::format("'{}': a packing mov is mov.b32 or mov.b64 with two registers in braces", name), name_width);
      return ok;
    }
    if (ok) ok = (in.vector == 2 || in.vector == 4) && info.roles[in.vector_at] != Role::Mem;
    if (!ok) {
      error(loc, fmt::format("'{}' takes no register list (vectors are ld and st .v2 and .v4)", name), name_width);
      return false;
    }
    if (type_bytes(in.type) * in.vector > 16 || type_bytes(in.type) < 2) {
      error(loc, fmt::format("'{}': a vector access moves 4 to 16 bytes of 16-, 32- or 64-bit elements", name), name_width);
      return false;
    }
    return true;
  }

  // PTX's rules for the qualifiers an opcode's table row allows (docs/ir.md, "Qualifiers").
  void check_qualifiers(const Instruction& in, const std::string& name, SourceLoc loc, std::uint32_t name_width) {
    const QualifierMask allowed = in.info().qualifiers;
    if ((in.non_coherent && !(allowed & kNc)) || (in.ftz && !(allowed & kFtz)) || (in.saturate && !(allowed & kSat)) ||
        !accepts_rounding(in.op, in.rounding)) {
      error(loc, fmt::format("'{}' takes none of its qualifiers here", name), name_width);
      return;
    }
    if (in.non_coherent && in.space != Space::Global)
      error(loc, fmt::format("'{}': .nc applies to ld.global only", name), name_width);
    const bool is_cvt = in.op == Opcode::Cvt;
    const bool fp = is_float(in.type), fp_source = is_float(in.source_type);
    if (in.ftz && in.type != Type::F32 && !(is_cvt && in.source_type == Type::F32))
      error(loc, fmt::format("'{}': .ftz applies to f32 only", name), name_width);
    if (in.saturate && !fp && !is_cvt && !(in.type == Type::S32 && (in.op == Opcode::Add || in.op == Opcode::Sub)))
      error(loc, fmt::format("'{}': .sat applies to f32 and f64 (and to add.s32, sub.s32)", name), name_width);
    if (in.rounding == Rounding::None) return;
    const bool integral = in.rounding >= Rounding::Rni && in.rounding <= Rounding::Rpi;
    if (!is_cvt) {
      if (!fp) error(loc, fmt::format("'{}': .{} applies to f32 and f64 only", name, rounding_name(in.rounding)), name_width);
      return;
    }
    if (integral && !fp_source)
      error(loc, fmt::format("'{}': .{} applies to conversions from f32 or f64", name, rounding_name(in.rounding)),
            name_width);
    if (!integral && !(fp && (!fp_source || type_bytes(in.type) < type_bytes(in.source_type))))
      error(loc,
            fmt::format("'{}': .{} applies to conversions to a float from an integer or a wider float", name,
                        rounding_name(in.rounding)),
            name_width);
  }

  void check_operand(const Instruction& instruction, const std::string& name, unsigned i, Role role, bool type_ok) {
    const Operand& operand = instruction.operands[i];
    const SourceLoc loc = where(instruction, operand);
    const std::string position = fmt::format("operand {} of '{}'", i + 1, name);
    const Type expected = operand_type(instruction, role);
    switch (role) {
      case Role::Mem: check_memory(instruction, operand, position, loc); return;
      case Role::Label: check_label(operand, position, loc); return;
      case Role::None: return;
      default: break;
    }
    const bool typed_by_instruction = role == Role::DstT || role == Role::SrcT || role == Role::SrcS;
    const bool check_type = !typed_by_instruction || type_ok;

    if (is_destination(role) || role == Role::SrcPred) {
      if (operand.kind != OperandKind::Register) {
        error(loc, fmt::format("{} must be a {}register", position, role == Role::SrcPred ? "pred " : ""));
        return;
      }
    }
    switch (operand.kind) {
      case OperandKind::Register: {
        if (!valid_register(operand.index)) {
          error(loc, fmt::format("{} names register #{}, which does not exist", position, operand.index));
          return;
        }
        const Register& r = reg(operand.index);
        if (is_destination(role) && r.is_param) {
          error(loc, fmt::format("cannot write to parameter '{}'; parameters are read-only", r.name), width(r.name));
          return;
        }
        if (check_type && !register_fits(instruction, role, r.type))
          error(loc,
                fmt::format("register '{}' is {}, but {} must be {}", r.name, type_name(r.type), position,
                            type_name(expected)),
                width(r.name));
        return;
      }
      case OperandKind::Immediate:
        if (check_type && !immediate_fits(operand.bits, expected))
          error(loc, fmt::format("immediate {:#x} does not fit {}, which is {}", operand.bits, position,
                                 type_name(expected)));
        return;
      case OperandKind::Special:
        if (check_type && !compatible(special_type(operand.special), expected))
          error(loc,
                fmt::format("'{}' is {}, but {} must be {}", special_name(operand.special),
                            type_name(special_type(operand.special)), position, type_name(expected)),
                width(std::string(special_name(operand.special))));
        return;
      case OperandKind::SharedAddress:
        if (operand.index >= kernel_.shared.size())
          error(loc, fmt::format("{} names shared array #{}, which does not exist", position, operand.index));
        else if (check_type && !compatible(Type::U32, expected))
          error(loc,
                fmt::format("shared array '{}' stands for a u32 address, but {} must be {}",
                            kernel_.shared[operand.index].name, position, type_name(expected)),
                width(kernel_.shared[operand.index].name));
        return;
      default:
        error(loc, fmt::format("{} must be a value: a register, parameter, special register or immediate", position));
        return;
    }
  }

  void check_memory(const Instruction& instruction, const Operand& operand, const std::string& position,
                    SourceLoc loc) {
    if (operand.kind == OperandKind::MemShared) {
      if (operand.index >= kernel_.shared.size())
        error(loc, fmt::format("{} names shared array #{}, which does not exist", position, operand.index));
      else if (instruction.space == Space::Global)
        error(loc,
              fmt::format("{} array '{}' is not in global memory; a global memory operand needs a u64 base",
                          space_name(kernel_.shared[operand.index].space), kernel_.shared[operand.index].name),
              width(kernel_.shared[operand.index].name));
      else if (kernel_.shared[operand.index].space != instruction.space)
        error(loc,
              fmt::format("{} array '{}' is not in {} memory", space_name(kernel_.shared[operand.index].space),
                          kernel_.shared[operand.index].name, space_name(instruction.space)),
              width(kernel_.shared[operand.index].name));
      return;
    }
    if (operand.kind != OperandKind::MemRegister) {
      error(loc, fmt::format("{} must be a memory operand: [base], [base+offset] or [base-offset]", position));
      return;
    }
    if (!valid_register(operand.index)) {
      error(loc, fmt::format("{} names register #{}, which does not exist", position, operand.index));
      return;
    }
    const Register& base = reg(operand.index);
    if (instruction.space == Space::Global && !compatible(base.type, Type::U64))
      error(loc,
            fmt::format("the base of a global memory operand must be a u64 register or parameter, but '{}' is {}",
                        base.name, type_name(base.type)),
            width(base.name));
    if ((instruction.space == Space::Shared || instruction.space == Space::Local) && !compatible(base.type, Type::U32))
      error(loc,
            fmt::format("the base of a {0} memory operand must be a u32 register or a {0} array, but '{1}' is {2}",
                        space_name(instruction.space), base.name, type_name(base.type)),
            width(base.name));
  }

  void check_label(const Operand& operand, const std::string& position, SourceLoc loc) {
    if (operand.kind != OperandKind::Label) {
      error(loc, fmt::format("{} must be a label", position));
      return;
    }
    if (operand.index >= kernel_.labels.size()) {
      error(loc, fmt::format("branch target label #{} does not exist", operand.index));
      return;
    }
    const Label& label = kernel_.labels[operand.index];
    if (label.position == kernel_.code.size())
      error(loc,
            fmt::format("branch target '{}' has no instruction after it; execution would fall off the end",
                        label.name),
            width(label.name));
  }

  // Reachability, the end of every path, and "maybe defined" registers: a forward dataflow where a
  // register is defined at a point if some path from the entry to it writes the register.
  void check_flow() {
    const Cfg cfg = build_cfg(kernel_);
    const std::vector<bool> reached = reachable_blocks(cfg);
    const auto size = static_cast<std::uint32_t>(kernel_.code.size());

    for (std::uint32_t b = 0; b < cfg.blocks.size(); ++b)
      if (!reached[b])
        report(Severity::Warning, kernel_.code[cfg.blocks[b].begin].loc,
               "unreachable code: no path from the kernel's entry reaches this instruction");

    const Instruction& last = kernel_.code[size - 1];
    const bool ends_path = last.info().terminator && !last.guarded;
    if (reached[cfg.block_of[size - 1]] && !ends_path)
      error(last.loc, "execution falls off the end of the kernel here; every path must end in exit or ret");

    check_definitions(cfg, reached);
  }

  // "Maybe defined" registers: a read is an error when no path from the entry to it writes the
  // register. Checked sparsely, so that a kernel with a million registers and blocks checks in
  // seconds: a write earlier in the same block, a parameter, or a write in a block that strictly
  // dominates the reader settles most reads at once; only the rest search forward from the
  // register's writes, and each search stops when it has reached every read it is looking for.
  void check_definitions(const Cfg& cfg, const std::vector<bool>& reached) {
    const std::size_t registers = kernel_.registers.size();
    std::vector<std::uint32_t> written_in(registers, kNoBlock);  // the block whose scan last wrote it
    std::vector<std::vector<std::uint32_t>> writers(registers);   // blocks that write it, once each
    std::vector<OpenUse> open;                                    // reads no earlier write in their block covers
    auto read = [&](std::uint32_t r, std::uint32_t b, SourceLoc loc) {
      if (r >= registers || kernel_.registers[r].is_param || written_in[r] == b) return;
      open.push_back({r, b, loc});
    };
    for (std::uint32_t b = 0; b < cfg.blocks.size(); ++b) {
      if (!reached[b]) continue;
      for (std::uint32_t pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; ++pc) {
        const Instruction& instruction = kernel_.code[pc];
        if (instruction.guarded) read(instruction.guard, b, instruction.loc);
        for (unsigned i = 0; i < instruction.operand_count; ++i) {
          const Operand& operand = instruction.operands[i];
          const bool reads_register = operand.kind == OperandKind::MemRegister ||
                                      (operand.kind == OperandKind::Register && !is_destination(operand_role(instruction, i)));
          if (reads_register) read(operand.index, b, where(instruction, operand));
        }
        const RegisterAccess access = register_access(kernel_, instruction);
        for (unsigned k = 0; k < access.write_count; ++k) {
          const std::uint32_t write = access.writes[k];
          if (written_in[write] != b) {
            written_in[write] = b;
            writers[write].push_back(b);
          }
        }
      }
    }
    if (open.empty()) return;

    const DominatorIntervals dom = dominator_intervals(cfg);
    std::vector<std::uint32_t> by_register(open.size());
    for (std::uint32_t i = 0; i < by_register.size(); ++i) by_register[i] = i;
    std::stable_sort(by_register.begin(), by_register.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return open[a].reg < open[b].reg; });
    std::vector<bool> undefined(open.size(), false);
    std::vector<std::uint32_t> seen(cfg.blocks.size(), kNoRegister);    // register whose search reached it
    std::vector<std::uint32_t> wanted(cfg.blocks.size(), kNoRegister);  // register whose search looks for it
    std::vector<std::pair<std::uint32_t, std::uint32_t>> spans;
    std::vector<std::uint32_t> pending, work;
    for (std::size_t first = 0; first < by_register.size();) {
      const std::uint32_t r = open[by_register[first]].reg;
      std::size_t last = first;
      while (last < by_register.size() && open[by_register[last]].reg == r) ++last;
      // Pre-order numbers strictly inside a writer's dominator subtree, merged.
      spans.clear();
      for (std::uint32_t w : writers[r])
        if (dom.first[w] < dom.last[w]) spans.emplace_back(dom.first[w] + 1, dom.last[w]);
      std::sort(spans.begin(), spans.end());
      std::size_t merged = 0;
      for (const auto& span : spans) {
        if (merged > 0 && span.first <= spans[merged - 1].second + 1)
          spans[merged - 1].second = std::max(spans[merged - 1].second, span.second);
        else
          spans[merged++] = span;
      }
      spans.resize(merged);
      auto dominated = [&](std::uint32_t b) {
        const auto it = std::upper_bound(spans.begin(), spans.end(), std::make_pair(dom.first[b], kNoBlock));
        return it != spans.begin() && std::prev(it)->second >= dom.first[b];
      };
      pending.clear();
      std::size_t targets = 0;
      for (std::size_t i = first; i < last; ++i) {
        const std::uint32_t b = open[by_register[i]].block;
        if (dominated(b)) continue;
        pending.push_back(by_register[i]);
        if (wanted[b] != r) {
          wanted[b] = r;
          ++targets;
        }
      }
      // Forward from the ends of the writing blocks until every wanted block is reached.
      work.clear();
      auto visit = [&](std::uint32_t b) {
        if (seen[b] == r) return;
        seen[b] = r;
        work.push_back(b);
      };
      for (std::uint32_t w : writers[r])
        for (std::uint32_t s : cfg.blocks[w].successors) visit(s);
      for (std::size_t next = 0; next < work.size() && targets > 0; ++next) {
        const std::uint32_t b = work[next];
        if (wanted[b] == r) --targets;
        for (std::uint32_t s : cfg.blocks[b].successors) visit(s);
      }
      for (std::uint32_t i : pending)
        if (seen[open[i].block] != r) undefined[i] = true;
      first = last;
    }

    std::vector<bool> reported(registers, false);
    for (std::size_t i = 0; i < open.size(); ++i) {
      const std::uint32_t r = open[i].reg;
      if (!undefined[i] || reported[r]) continue;
      reported[r] = true;
      const std::string& name = kernel_.registers[r].name;
      error(open[i].loc, fmt::format("register '{}' is used before it is defined on every path", name), width(name));
    }
  }

  const Kernel& kernel_;
  const std::string& file_;
  LineIndex lines_;
  std::vector<Diagnostic>& out_;
};

}  // namespace

std::vector<Diagnostic> verify(const Kernel& kernel, const std::string& file, std::string_view source_text) {
  std::vector<Diagnostic> diagnostics;
  KernelVerifier(kernel, file, source_text, diagnostics).run();
  // Source order; diagnostics of kernels built in code (no locations) keep the order found.
  std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.column < b.loc.column;
  });
  return diagnostics;
}

std::vector<Diagnostic> verify(const Module& module, std::string_view source_text) {
  std::vector<Diagnostic> diagnostics;
  for (const Kernel& kernel : module.kernels) {
    std::vector<Diagnostic> found = verify(kernel, module.file, source_text);
    diagnostics.insert(diagnostics.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  return diagnostics;
}

}  // namespace warpsim::isa
