#include "isa/types.hpp"

#include <array>

namespace warpsim::isa {

namespace {
constexpr std::array<std::string_view, 16> kTypeNames{"",    "pred", "u32", "s32", "u64", "f32", "s64", "f64",
                                                      "u16", "s16",  "u8",  "s8",  "b8",  "b16", "b32", "b64"};
constexpr std::array<std::string_view, 4> kSpaceNames{"", "global", "shared", "local"};
constexpr std::array<std::string_view, 7> kCompareNames{"", "eq", "ne", "lt", "le", "gt", "ge"};

struct SpecialInfo {
  std::string_view name;
  Type type;
};
constexpr SpecialInfo kSpecials[] = {
#define WARPSIM_X(name, text, type) {text, Type::type},
    WARPSIM_SPECIAL_REGISTERS(WARPSIM_X)
#undef WARPSIM_X
};
}  // namespace

std::string_view type_name(Type t) { return kTypeNames[static_cast<unsigned>(t)]; }

std::optional<Type> type_from_name(std::string_view name) {
  for (unsigned i = 1; i < kTypeNames.size(); ++i)
    if (kTypeNames[i] == name) return static_cast<Type>(i);
  return std::nullopt;
}

unsigned type_bytes(Type t) {
  switch (t) {
    case Type::U8:
    case Type::S8:
    case Type::B8: return 1;
    case Type::U16:
    case Type::S16:
    case Type::B16: return 2;
    case Type::U32:
    case Type::S32:
    case Type::F32:
    case Type::B32: return 4;
    case Type::U64:
    case Type::S64:
    case Type::F64:
    case Type::B64: return 8;
    case Type::None:
    case Type::Pred: return 0;
  }
  return 0;
}

bool is_integer(Type t) {
  switch (t) {
    case Type::U8:
    case Type::S8:
    case Type::U16:
    case Type::S16:
    case Type::U32:
    case Type::S32:
    case Type::U64:
    case Type::S64: return true;
    default: return false;
  }
}
bool is_signed(Type t) { return t == Type::S8 || t == Type::S16 || t == Type::S32 || t == Type::S64; }
bool is_float(Type t) { return t == Type::F32 || t == Type::F64; }
bool is_bits(Type t) { return t == Type::B8 || t == Type::B16 || t == Type::B32 || t == Type::B64; }
bool is_wide(Type t) { return type_bytes(t) == 8; }

bool compatible(Type reg, Type expected, bool widening) {
  if (reg == expected) return true;
  const unsigned size = type_bytes(reg);
  if (size == 0) return false;
  if (size == type_bytes(expected) && (is_bits(reg) || is_bits(expected))) return true;
  const auto integral = [](Type t) { return is_integer(t) || is_bits(t); };
  return widening && type_bytes(expected) <= 2 && integral(expected) && integral(reg) && size > type_bytes(expected) &&
         size <= 4;
}

std::string_view rounding_name(Rounding r) {
  constexpr std::string_view kNames[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "approx", "full"};
  return kNames[static_cast<unsigned>(r)];
}

std::string_view space_name(Space s) { return kSpaceNames[static_cast<unsigned>(s)]; }
std::string_view compare_name(Compare c) { return kCompareNames[static_cast<unsigned>(c)]; }

std::string_view special_name(Special s) { return kSpecials[static_cast<unsigned>(s)].name; }
Type special_type(Special s) { return kSpecials[static_cast<unsigned>(s)].type; }

std::optional<Special> special_from_name(std::string_view name) {
  for (unsigned i = 0; i < std::size(kSpecials); ++i)
    if (kSpecials[i].name == name) return static_cast<Special>(i);
  return std::nullopt;
}

}  // namespace warpsim::isa
