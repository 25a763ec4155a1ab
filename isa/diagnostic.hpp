// Compiler-style diagnostics: file:line:col: severity: message, the source line and a caret.
#pragma once
#include <string>
#include <vector>

#include "isa/module.hpp"

namespace warpsim::isa {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  SourceLoc loc;
  std::string message;
  std::string source_line;  // the text of line loc.line, for the caret display ("" if unknown)
  std::uint32_t length = 1; // how many columns the caret underline covers

  // "file:3:7: error: message\n    source line\n      ^~~~\n"
  std::string format() const;
};

bool has_errors(const std::vector<Diagnostic>& diagnostics);

}  // namespace warpsim::isa
