// Reads .kir text into a Module, collecting every error it can find (not just the first).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "isa/diagnostic.hpp"
#include "isa/module.hpp"

namespace warpsim::isa {

struct ParseResult {
  Module module;                         // what could be read; complete only when ok()
  std::vector<Diagnostic> diagnostics;   // in source order
  bool ok() const { return !has_errors(diagnostics); }
};

ParseResult parse(std::string_view text, std::string file = "");
// Reads the file; a file that cannot be opened gives one diagnostic at 0:0.
ParseResult parse_file(const std::string& path);

}  // namespace warpsim::isa
