// Prints the canonical text form; parse(print(m)) is the same module as m.
#pragma once
#include <string>

#include "isa/module.hpp"

namespace warpsim::isa {

std::string print(const Module& module);
std::string print(const Kernel& kernel);
// One instruction as it appears in kernel text ("@!p bra done", "ld.global.f32 x, [pa+4]").
std::string print(const Kernel& kernel, const Instruction& instruction);

}  // namespace warpsim::isa
