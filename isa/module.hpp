// The in-memory kernel IR: modules hold kernels; a kernel holds its registers (parameters are
// read-only registers), shared arrays, labels and a flat instruction list. Basic blocks are an
// analysis over that list (isa/analysis.hpp), so the text form and the value form map one to one.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "isa/opcodes.hpp"
#include "isa/types.hpp"

namespace warpsim::isa {

struct SourceLoc {
  std::uint32_t line = 0;    // 1-based; 0 when the value was not read from text
  std::uint32_t column = 0;  // 1-based
};

enum class OperandKind : std::uint8_t {
  None,
  Register,       // index: register
  Immediate,      // bits: the value in the operand's type (f32 as its IEEE bits, s32 sign-extended)
  Special,        // special: which special register
  SharedAddress,  // index: shared array; the value is the array's shared-memory address (u32)
  MemRegister,    // [reg + offset]: index = base register
  MemShared,      // [array + offset]: index = shared array
  Label,          // index: label
};

struct Operand {
  OperandKind kind = OperandKind::None;
  Special special = Special::TidX;
  std::uint32_t index = 0;
  std::int64_t offset = 0;  // byte offset of memory operands
  std::uint64_t bits = 0;
  SourceLoc loc;

  // Equal in meaning; source locations are ignored.
  bool same(const Operand& other) const;
};

// Where an instruction came from in the program the kernel was imported from (a CUDA .cu file,
// through PTX's .loc): an index into the kernel's source files and a 1-based line; file 0: none.
struct Origin {
  std::uint32_t file = 0;
  std::uint32_t line = 0;
};

// A source file the kernel's origins name (`file N "path"` in .kir, PTX's .file).
struct SourceFileName {
  std::uint32_t index = 0;
  std::string path;
};

struct Instruction {
  Opcode op = Opcode::Exit;
  Type type = Type::None;         // the type suffix (None for untyped opcodes)
  Type source_type = Type::None;  // cvt only
  Space space = Space::None;      // ld, st, atom.*
  Compare compare = Compare::None;
  Rounding rounding = Rounding::None;  // .rn, .rzi, .approx, ... (float instructions, cvt)
  bool ftz = false;                    // .ftz: subnormal f32 inputs and results flush to zero
  bool saturate = false;               // .sat: floats clamp to [0, 1], s32 add/sub to the s32 range
  bool non_coherent = false;           // ld.global.nc: read through the non-coherent (texture) path
  // A braced register list: ld.v2/.v4 (the destinations), st.v2/.v4 (the values), mov's packed
  // form (`mov.b64 {lo, hi}, x`, `mov.b64 x, {lo, hi}`). `vector` is the number of registers (0: no
  // braces); the first stands at operands[vector_at] (the braced role's position), the others at
  // operands[arity ...] in order.
  std::uint8_t vector = 0;
  std::uint8_t vector_at = 0;
  bool guarded = false;           // @p or @!p in front
  bool guard_negated = false;     // @!p
  std::uint32_t guard = 0;        // predicate register when guarded
  std::uint8_t operand_count = 0;
  std::array<Operand, 5> operands{};
  SourceLoc loc;
  Origin origin;                  // `loc F L` in .kir; ignored by same()

  const OpcodeInfo& info() const { return isa::info(op); }
  bool same(const Instruction& other) const;
};

// The type operand position `role` of `in` reads or writes (DstWide: the doubled integer type;
// the braced side of a packing mov: half the instruction's width; Mem and Label: None).
Type operand_type(const Instruction& in, Role role);
// The role of operand position i, extra braced registers included (None past them).
Role operand_role(const Instruction& in, unsigned i);
// How many operands an instruction of this shape holds: the table's arity, plus the braced list's
// extra registers.
unsigned expected_operands(const Instruction& in);
// Whether a register of type `reg` may be that operand (types.hpp's compatible(), with widening
// for ld, st and cvt of 8- and 16-bit types; DstWide takes any integer or bit register of its size).
bool register_fits(const Instruction& in, Role role, Type reg);

struct Register {
  std::string name;
  Type type = Type::None;
  bool is_param = false;
  Type pointee = Type::None;  // parameters declared ptr.T: type is U64, pointee is T
  SourceLoc loc;
};

// A shared array (`shared u32 tile[256]`, one per block) or a local array (`local u32 buf[8]`, one
// per thread): both are named, typed and laid out in declaration order within their own space.
struct SharedArray {
  std::string name;
  Type element = Type::None;
  std::uint32_t count = 0;
  std::uint32_t offset = 0;  // byte offset in the block's shared memory or the thread's local memory (aligned to the element size)
  Space space = Space::Shared;  // Shared or Local
  SourceLoc loc;
  std::uint32_t bytes() const { return count * type_bytes(element); }
};

struct Label {
  std::string name;
  std::uint32_t position = 0;  // index of the instruction the label stands before
  SourceLoc loc;
};

struct Kernel {
  std::string name;
  std::vector<std::uint32_t> params;  // register indices, in declaration order
  std::vector<Register> registers;    // parameters first, then declared registers
  std::vector<SharedArray> shared;    // shared and local arrays, in declaration order
  std::vector<Label> labels;
  std::vector<Instruction> code;
  std::vector<SourceFileName> files;  // the module's source files, for origins
  SourceLoc loc;

  std::uint32_t shared_bytes() const;  // per block, shared arrays only
  std::uint32_t local_bytes() const;   // per thread, local arrays only
  // Lookups by name; -1 when absent.
  int find_register(std::string_view name) const;
  int find_label(std::string_view name) const;
  int find_shared(std::string_view name) const;
  // "saxpy.cu:4" for an instruction with an origin in a known file; "" otherwise.
  std::string origin_text(const Instruction& in) const;
  bool same(const Kernel& other) const;
};

struct Module {
  std::string file;  // the path the module was read from ("" when built in code)
  std::vector<SourceFileName> files;  // `file N "path"` lines; every kernel holds a copy
  std::vector<Kernel> kernels;
  const Kernel* find_kernel(std::string_view name) const;
  bool same(const Module& other) const;
};

}  // namespace warpsim::isa
