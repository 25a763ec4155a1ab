// Checks a parsed kernel: types agree, registers are defined before use on some path, branch
// targets exist, every path ends in exit/ret, shared sizes are positive; unreachable code warns.
#pragma once
#include <vector>

#include "isa/diagnostic.hpp"
#include "isa/module.hpp"

namespace warpsim::isa {

// source_text: the module's text, so diagnostics can show the line (may be empty).
std::vector<Diagnostic> verify(const Module& module, std::string_view source_text = {});
std::vector<Diagnostic> verify(const Kernel& kernel, const std::string& file = "", std::string_view source_text = {});

}  // namespace warpsim::isa
