#include "isa/module.hpp"

#include <algorithm>

namespace warpsim::isa {

bool Operand::same(const Operand& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case OperandKind::None: return true;
    case OperandKind::Register:
    case OperandKind::SharedAddress:
    case OperandKind::Label: return index == o.index;
    case OperandKind::Immediate: return bits == o.bits;
    case OperandKind::Special: return special == o.special;
    case OperandKind::MemRegister:
    case OperandKind::MemShared: return index == o.index && offset == o.offset;
  }
  return false;
}

bool Instruction::same(const Instruction& o) const {
  if (op != o.op || type != o.type || source_type != o.source_type || space != o.space ||
      compare != o.compare || guarded != o.guarded || operand_count != o.operand_count || rounding != o.rounding ||
      ftz != o.ftz || saturate != o.saturate || non_coherent != o.non_coherent || vector != o.vector ||
      vector_at != o.vector_at)
    return false;
  if (guarded && (guard_negated != o.guard_negated || guard != o.guard)) return false;
  for (unsigned i = 0; i < operand_count; ++i)
    if (!operands[i].same(o.operands[i])) return false;
  return true;
}

Type operand_type(const Instruction& in, Role role) {
  switch (role) {
    case Role::DstT:
    case Role::SrcT:
      if (in.op == Opcode::Mov && in.vector != 0 && in.vector_at < in.info().arity && in.info().roles[in.vector_at] == role)
        return in.type == Type::B64 ? Type::B32 : Type::B16;
      return in.type;
    case Role::SrcS: return in.source_type;
    case Role::DstPred:
    case Role::SrcPred: return Type::Pred;
    case Role::SrcU32:
    case Role::SrcMask:
    case Role::DstU32: return Type::U32;
    case Role::DstWide:
      switch (in.type) {
        case Type::U16: return Type::U32;
        case Type::S16: return Type::S32;
        case Type::S32: return Type::S64;
        default: return Type::U64;
      }
    case Role::Mem:
    case Role::Label:
    case Role::None: break;
  }
  return Type::None;
}

Role operand_role(const Instruction& in, unsigned i) {
  const OpcodeInfo& info = in.info();
  if (i < info.arity) return info.roles[i];
  if (in.vector > 1 && in.vector_at < info.arity && i < info.arity + in.vector - 1u) return info.roles[in.vector_at];
  return Role::None;
}

unsigned expected_operands(const Instruction& in) {
  return in.info().arity + (in.vector > 1 ? in.vector - 1u : 0u);
}

bool register_fits(const Instruction& in, Role role, Type reg) {
  const Type expected = operand_type(in, role);
  if (role == Role::DstWide)
    return type_bytes(reg) == type_bytes(expected) && (is_integer(reg) || is_bits(reg));
  const bool widening = (in.op == Opcode::Ld || in.op == Opcode::St || in.op == Opcode::Cvt) &&
                        (role == Role::DstT || role == Role::SrcT || role == Role::SrcS);
  return compatible(reg, expected, widening);
}

std::uint32_t Kernel::shared_bytes() const {
  std::uint32_t end = 0;
  for (const auto& s : shared)
    if (s.space == Space::Shared) end = std::max(end, s.offset + s.bytes());
  return end;
}

std::uint32_t Kernel::local_bytes() const {
  std::uint32_t end = 0;
  for (const auto& s : shared)
    if (s.space == Space::Local) end = std::max(end, s.offset + s.bytes());
  return end;
}

namespace {
template <typename T>
int find_by_name(const std::vector<T>& items, std::string_view name) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return -1;
}
}  // namespace

int Kernel::find_register(std::string_view n) const { return find_by_name(registers, n); }
int Kernel::find_label(std::string_view n) const { return find_by_name(labels, n); }
int Kernel::find_shared(std::string_view n) const { return find_by_name(shared, n); }

bool Kernel::same(const Kernel& o) const {
  if (name != o.name || params != o.params || registers.size() != o.registers.size() ||
      shared.size() != o.shared.size() || labels.size() != o.labels.size() || code.size() != o.code.size())
    return false;
  for (std::size_t i = 0; i < registers.size(); ++i) {
    const auto &a = registers[i], &b = o.registers[i];
    if (a.name != b.name || a.type != b.type || a.is_param != b.is_param || a.pointee != b.pointee) return false;
  }
  for (std::size_t i = 0; i < shared.size(); ++i) {
    const auto &a = shared[i], &b = o.shared[i];
    if (a.name != b.name || a.element != b.element || a.count != b.count || a.offset != b.offset || a.space != b.space)
      return false;
  }
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i].name != o.labels[i].name || labels[i].position != o.labels[i].position) return false;
  for (std::size_t i = 0; i < code.size(); ++i)
    if (!code[i].same(o.code[i])) return false;
  return true;
}

std::string Kernel::origin_text(const Instruction& in) const {
  if (in.origin.file == 0 || in.origin.line == 0) return {};
  for (const auto& f : files)
    if (f.index == in.origin.file) {
      // The file's own name: reports name "saxpy.cu:4", not the folder NVRTC or nvcc was given.
      const auto slash = f.path.find_last_of('/');
      return (slash == std::string::npos ? f.path : f.path.substr(slash + 1)) + ":" + std::to_string(in.origin.line);
    }
  return {};
}

const Kernel* Module::find_kernel(std::string_view n) const {
  for (const auto& k : kernels)
    if (k.name == n) return &k;
  return nullptr;
}

bool Module::same(const Module& o) const {
  if (kernels.size() != o.kernels.size()) return false;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (!kernels[i].same(o.kernels[i])) return false;
  return true;
}

}  // namespace warpsim::isa
