#include "isa/diagnostic.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace warpsim::isa {

std::string Diagnostic::format() const {
  const char* what = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
  std::string out = fmt::format("{}:{}:{}: {}: {}\n", file.empty() ? "<input>" : file, loc.line, loc.column,
                                what, message);
  if (!source_line.empty() && loc.column > 0) {
    // Control bytes (a binary file, an escape sequence) would reach the terminal raw: show '?'.
    std::string shown = source_line;
    for (auto& c : shown)
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) c = '?';
    out += fmt::format("    {}\n", shown);
    std::string pad;
    // Keep tabs so the caret lines up under the same column in a terminal.
    for (std::uint32_t i = 0; i + 1 < loc.column && i < source_line.size(); ++i)
      pad += source_line[i] == '\t' ? '\t' : ' ';
    out += fmt::format("    {}^{}\n", pad, std::string(length > 1 ? length - 1 : 0, '~'));
  }
  return out;
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

}  // namespace warpsim::isa
