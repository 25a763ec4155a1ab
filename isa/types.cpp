#include "isa/types.hpp"

#include <array>

namespace warpsim::isa {

namespace {
constexpr std::array<std::string_view, 8> kTypeNames{"", "pred", "u32", "s32", "u64", "f32", "b32", "b64"};
constexpr std::array<std::string_view, 3> kSpaceNames{"", "global", "shared"};
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
    case Type::U32:
    case Type::S32:
    case Type::F32:
    case Type::B32: return 4;
    case Type::U64:
    case Type::B64: return 8;
    default: return 0;
  }
}

bool is_integer(Type t) { return t == Type::U32 || t == Type::S32 || t == Type::U64; }
bool is_signed(Type t) { return t == Type::S32; }

std::string_view space_name(Space s) { return kSpaceNames[static_cast<unsigned>(s)]; }
std::string_view compare_name(Compare c) { return kCompareNames[static_cast<unsigned>(c)]; }

std::string_view special_name(Special s) { return kSpecials[static_cast<unsigned>(s)].name; }
Type special_type(Special s) { return kSpecials[static_cast<unsigned>(s)].type; }

std::optional<Special> special_from_name(std::string_view name) {
  for (unsigned i = 0; i < std::size(kSpecials); ++i)
    if (kSpecials[i].name == name) return static_cast<Special>(i);
  return std::nullopt;
}

bool is_bits(Type t) { return t == Type::B32 || t == Type::B64; }

bool register_accepts(Type reg, Type wanted) {
  if (reg == wanted) return true;
  if (!is_bits(reg) || wanted == Type::Pred || wanted == Type::None) return false;
  return type_bytes(reg) == type_bytes(wanted);
}

}  // namespace warpsim::isa
