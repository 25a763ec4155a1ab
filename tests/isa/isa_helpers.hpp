// Parsing helpers shared by the IR's tests.
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "isa/parser.hpp"

namespace warpsim::isa::test {

// Every diagnostic of a parse, formatted, one after another.
inline std::string all_messages(const ParseResult& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += d.format();
  return out;
}

// The one kernel of `text`, which must parse.
inline Kernel kernel_of(std::string_view text) {
  ParseResult result = parse(text, "test.kir");
  INFO(all_messages(result));
  REQUIRE(result.ok());
  REQUIRE(result.module.kernels.size() == 1);
  return result.module.kernels[0];
}

}  // namespace warpsim::isa::test
