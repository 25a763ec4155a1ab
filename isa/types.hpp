// Value types, special registers and small enums of the kernel IR.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim::isa {

// Register and operand types. Pred is a one-bit predicate; pointers are u64 addresses. B32 and B64
// are untyped registers of 32 and 64 bits, as PTX's .b32/.b64 registers: an instruction of any
// type of that width reads and writes them (the instruction's type says what the bits mean). They
// are register types only; no instruction has them as its type.
enum class Type : std::uint8_t { None, Pred, U32, S32, U64, F32, B32, B64 };

std::string_view type_name(Type t);                 // "u32", "pred", ... ("" for None)
std::optional<Type> type_from_name(std::string_view name);
unsigned type_bytes(Type t);                         // storage size in memory (pred: 0)
bool is_integer(Type t);                             // u32, s32, u64
bool is_signed(Type t);                              // s32
bool is_bits(Type t);                                // b32, b64
// Whether a register of type `reg` may stand where a value of type `wanted` is expected: the same
// type, or an untyped register (b32, b64) of the same width.
bool register_accepts(Type reg, Type wanted);

// Bit set of types an opcode accepts.
using TypeMask = std::uint8_t;
constexpr TypeMask type_bit(Type t) { return static_cast<TypeMask>(1u << static_cast<unsigned>(t)); }

// Memory spaces addressed by ld, st and atom.
enum class Space : std::uint8_t { None, Global, Shared };
std::string_view space_name(Space s);

// Comparison of setp. Float comparisons follow C: every comparison with NaN is false except ne.
enum class Compare : std::uint8_t { None, Eq, Ne, Lt, Le, Gt, Ge };
std::string_view compare_name(Compare c);

// Special (read-only) registers, written %name in kernel text.
#define WARPSIM_SPECIAL_REGISTERS(X)                                                                 \
  X(TidX, "%tid.x", U32) X(TidY, "%tid.y", U32) X(TidZ, "%tid.z", U32)                               \
  X(NtidX, "%ntid.x", U32) X(NtidY, "%ntid.y", U32) X(NtidZ, "%ntid.z", U32)                         \
  X(CtaidX, "%ctaid.x", U32) X(CtaidY, "%ctaid.y", U32) X(CtaidZ, "%ctaid.z", U32)                   \
  X(NctaidX, "%nctaid.x", U32) X(NctaidY, "%nctaid.y", U32) X(NctaidZ, "%nctaid.z", U32)             \
  X(LaneId, "%laneid", U32) X(WarpId, "%warpid", U32) X(NWarpId, "%nwarpid", U32)                    \
  X(WarpSize, "%warpsize", U32) X(Clock, "%clock", U32) X(Clock64, "%clock64", U64)

enum class Special : std::uint8_t {
#define WARPSIM_X(name, text, type) name,
  WARPSIM_SPECIAL_REGISTERS(WARPSIM_X)
#undef WARPSIM_X
};

std::string_view special_name(Special s);            // "%tid.x"
Type special_type(Special s);
std::optional<Special> special_from_name(std::string_view name);

}  // namespace warpsim::isa
