#include "isa/diagnostic.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace warpsim::isa {

namespace {

// A long source line is shown as a window of this many bytes around the caret, a long message as
// its beginning and end: a diagnostic on a 10 MB line stays one screen line, not 30 MB.
constexpr std::size_t kLineWindow = 160;
constexpr std::size_t kLineBefore = 60;  // bytes kept before the caret
constexpr std::size_t kMessageMax = 400;
constexpr std::size_t kMessageHead = 300;
constexpr std::size_t kMessageTail = 60;

// Moves a cut back to the start of a UTF-8 character, so that none is split.
std::size_t char_start(std::string_view text, std::size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xc0) == 0x80) --at;
  return at;
}

std::string shorten_message(const std::string& message) {
  if (message.size() <= kMessageMax) return message;
  const std::size_t head = char_start(message, kMessageHead);
  const std::size_t tail = char_start(message, message.size() - kMessageTail);
  return fmt::format("{} [... {} bytes left out ...] {}", message.substr(0, head), tail - head, message.substr(tail));
}

}  // namespace

std::string Diagnostic::format() const {
  const char* what = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
  std::string out = fmt::format("{}:{}:{}: {}: {}\n", file.empty() ? "<input>" : file, loc.line, loc.column,
                                what, shorten_message(message));
  if (!source_line.empty() && loc.column > 0) {
    // The window of the line around the caret, marked with "..." where it was cut.
    const std::string_view line = source_line;
    const std::size_t caret = std::min<std::size_t>(loc.column - 1, line.size());
    std::size_t begin = 0, end = line.size();
    if (line.size() > kLineWindow) {
      begin = char_start(line, caret > kLineBefore ? caret - kLineBefore : 0);
      end = char_start(line, std::min(line.size(), begin + kLineWindow));
    }
    const std::string before = begin > 0 ? "..." : "";
    // Control bytes (a binary file, an escape sequence) would reach the terminal raw: show '?'.
    std::string shown(line.substr(begin, end - begin));
    for (auto& c : shown)
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) c = '?';
    out += fmt::format("    {}{}{}\n", before, shown, end < line.size() ? "..." : "");
    // Keep tabs so the caret lines up under the same column in a terminal.
    std::string pad(before.size(), ' ');
    for (std::size_t i = begin; i < caret && i < end; ++i) pad += line[i] == '\t' ? '\t' : ' ';
    const std::size_t room = end > caret ? end - caret : 1;
    const std::size_t underline = std::min<std::size_t>(length > 1 ? length : 1, room);
    out += fmt::format("    {}^{}\n", pad, std::string(underline - 1, '~'));
  }
  return out;
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

}  // namespace warpsim::isa
