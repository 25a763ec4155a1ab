// Test helpers: a kernel read from .kir text and analysed, as the CUDA backend receives it.
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "isa/verifier.hpp"

namespace warpsim::test {

struct ParsedModule {
  isa::Module module;
  std::vector<isa::KernelAnalysis> analyses;
};

inline std::string diagnostics_text(const std::vector<isa::Diagnostic>& diagnostics) {
  std::string text;
  for (const auto& d : diagnostics) text += d.format();
  return text;
}

// Parses, verifies and analyses; fails the test with the diagnostics when the text is not valid.
inline ParsedModule parse_kir(const std::string& text, const std::string& file = "inline.kir") {
  auto parsed = isa::parse(text, file);
  INFO(diagnostics_text(parsed.diagnostics));
  REQUIRE(parsed.ok());
  auto problems = isa::verify(parsed.module, text);
  INFO(diagnostics_text(problems));
  REQUIRE(!isa::has_errors(problems));
  ParsedModule out{std::move(parsed.module), {}};
  for (const auto& k : out.module.kernels) out.analyses.push_back(isa::analyze(k));
  return out;
}

}  // namespace warpsim::test
