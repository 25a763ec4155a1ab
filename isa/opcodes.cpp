#include "isa/opcodes.hpp"

#include <span>

namespace warpsim::isa {

namespace {

template <typename... R>
constexpr OpcodeInfo make(Opcode op, std::string_view mnemonic, TypeMask types, Modifier modifier, Unit unit,
                          Latency latency, bool terminator, QualifierMask qualifiers, R... roles) {
  return OpcodeInfo{op,    mnemonic, std::array<Role, 5>{roles...}, static_cast<std::uint8_t>(sizeof...(R)),
                    types, modifier, unit,
                    latency, terminator, qualifiers};
}

#define WARPSIM_ROLES_0()
#define WARPSIM_EXPAND_ROLES(...) __VA_OPT__(, ) __VA_ARGS__
constexpr Role DstT = Role::DstT, DstPred = Role::DstPred, DstWide = Role::DstWide, DstU32 = Role::DstU32, SrcT = Role::SrcT,
               SrcS = Role::SrcS, SrcPred = Role::SrcPred, SrcU32 = Role::SrcU32, SrcMask = Role::SrcMask, Mem = Role::Mem,
               Label = Role::Label;

constexpr OpcodeInfo kTable[] = {
#define WARPSIM_X(name, mnemonic, roles, types, modifier, unit, latency, terminator, qualifiers)       \
  make(Opcode::name, mnemonic, types, Modifier::modifier, Unit::unit, Latency::latency,              \
       terminator, qualifiers WARPSIM_EXPAND_ROLES roles),
    WARPSIM_OPCODES(WARPSIM_X)
#undef WARPSIM_X
};

constexpr std::string_view kUnitNames[] = {"alu", "sfu", "lsu", "control", "sync", "warp"};
constexpr std::string_view kLatencyNames[] = {"simple", "mul",    "div",     "sqrt",      "convert",
                                              "load",   "store",  "atomic",  "branch",    "barrier",
                                              "fence_cta", "fence_gl", "vote", "shuffle"};

}  // namespace

const OpcodeInfo& info(Opcode op) { return kTable[static_cast<unsigned>(op)]; }
std::span<const OpcodeInfo> all_opcodes() { return kTable; }

std::optional<Opcode> opcode_from_mnemonic(std::string_view mnemonic) {
  for (const auto& entry : kTable)
    if (entry.mnemonic == mnemonic) return entry.opcode;
  return std::nullopt;
}

bool accepts_rounding(Opcode op, Rounding r) {
  const QualifierMask q = info(op).qualifiers;
  switch (r) {
    case Rounding::None: return true;
    case Rounding::Rn:
    case Rounding::Rz:
    case Rounding::Rm:
    case Rounding::Rp: return q & kRound;
    case Rounding::Rni:
    case Rounding::Rzi:
    case Rounding::Rmi:
    case Rounding::Rpi: return q & kRoundInt;
    case Rounding::Approx: return q & kApprox;
    case Rounding::Full: return q & kFull;
  }
  return false;
}

std::string_view unit_name(Unit u) { return kUnitNames[static_cast<unsigned>(u)]; }
std::string_view latency_name(Latency l) { return kLatencyNames[static_cast<unsigned>(l)]; }

}  // namespace warpsim::isa
