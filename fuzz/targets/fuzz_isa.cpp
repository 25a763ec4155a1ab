// libFuzzer target: any bytes through the parser, and what parses through the verifier, the
// analyses and the printer. A crash, a sanitizer report or a broken round trip is a finding:
// print(parse(text)) must parse to the same module, and printing that again gives the same text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "isa/printer.hpp"
#include "isa/verifier.hpp"

using namespace warpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = isa::parse(text, "fuzz.kir");
  for (const auto& d : parsed.diagnostics) (void)d.format();
  if (!parsed.ok()) return 0;
  const auto diagnostics = isa::verify(parsed.module, text);
  for (const auto& d : diagnostics) (void)d.format();
  const std::string printed = isa::print(parsed.module);
  auto again = isa::parse(printed, "printed.kir");
  if (!again.ok() || !again.module.same(parsed.module) || isa::print(again.module) != printed) std::abort();
  if (isa::has_errors(diagnostics)) return 0;
  for (const auto& kernel : parsed.module.kernels) (void)isa::analyze(kernel);
  return 0;
}
