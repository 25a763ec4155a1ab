// Value types, special registers and small enums of the kernel IR.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace warpsim::isa {

// Register and operand types, spelt as PTX spells them. Pred is a one-bit predicate; pointers are
// u64 addresses. The first six are the original IR; the rest came with PTX import (issue 10):
// s64, f64, the 8- and 16-bit integers and the bit types bN, which hold N untyped bits and are
// compatible with every type of their size (see compatible()). 8-bit types exist only as memory
// and conversion types: no register is 8 bits wide.
enum class Type : std::uint8_t { None, Pred, U32, S32, U64, F32, S64, F64, U16, S16, U8, S8, B8, B16, B32, B64 };

std::string_view type_name(Type t);                 // "u32", "pred", ... ("" for None)
std::optional<Type> type_from_name(std::string_view name);
unsigned type_bytes(Type t);                         // storage size in memory (pred: 0)
bool is_integer(Type t);                             // u8..u64, s8..s64 (not the bit types)
bool is_signed(Type t);                              // s8, s16, s32, s64
bool is_float(Type t);                               // f32, f64
bool is_bits(Type t);                                // b8, b16, b32, b64
bool is_wide(Type t);                                // 64 bits: held in the 64-bit register pool
// Whether a register of type `reg` may stand where a value of type `expected` is read or written:
// the same type, or the same size with a bit type on either side (PTX's rule: b32 is u32, s32 and
// f32). With `widening` (ld, st and cvt of an 8- or 16-bit integer or bit type), any integer or
// bit register of 16 or 32 bits that is at least as wide also fits: loads zero- or sign-extend
// into it, stores and conversions read its low bits.
bool compatible(Type reg, Type expected, bool widening = false);

// Bit set of types an opcode accepts.
using TypeMask = std::uint16_t;
constexpr TypeMask type_bit(Type t) { return static_cast<TypeMask>(1u << static_cast<unsigned>(t)); }

// Memory spaces addressed by ld, st and atom.
enum class Space : std::uint8_t { None, Global, Shared, Local };
std::string_view space_name(Space s);

// Rounding and precision qualifiers of float instructions and conversions, spelt as PTX spells
// them: .rn .rz .rm .rp (to nearest even, toward zero, down, up), .rni .rzi .rmi .rpi (cvt: round
// to an integral value), .approx and .full (div, sqrt, rcp and the special functions).
enum class Rounding : std::uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Approx, Full };
std::string_view rounding_name(Rounding r);  // "rn", ... ("" for None)

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
