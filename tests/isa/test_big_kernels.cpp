// Kernels far larger than anyone writes by hand check and print in about linear time: a generated kernel of
// 100,000 instructions, registers and labels would take many minutes with a linear name lookup or
// a blocks x registers dataflow, and runs here well inside ctest's default timeout.
#include <catch2/catch.hpp>

#include <string>

#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "isa/printer.hpp"
#include "isa/verifier.hpp"

using namespace warpsim::isa;

namespace {

// n registers r0..r(n-1) and n-1 labels, each before an add that reads the previous register;
// every third add is followed by a branch five labels ahead, so most blocks have two predecessors.
// With `undefined`, the last add reads a register nothing writes.
std::string chain_kernel(std::size_t n, bool undefined) {
  std::string text = "kernel big(ptr.u32 out, u32 n) {\n    reg pred p\n    reg u32 never\n";
  for (std::size_t i = 0; i < n; i += 100) {
    text += "    reg u32 ";
    for (std::size_t j = i; j < std::min(n, i + 100); ++j) text += (j == i ? "r" : ", r") + std::to_string(j);
    text += "\n";
  }
  text += "    setp.lt.u32 p, %tid.x, n\n    mov.u32 r0, %tid.x\n";
  for (std::size_t i = 1; i < n; ++i) {
    const bool last = i + 1 == n;
    const std::string source = last && undefined ? "never" : "r" + std::to_string(i - 1);
    text += "L" + std::to_string(i) + ":\n    add.u32 r" + std::to_string(i) + ", " + source + ", 1\n";
    if (i % 3 == 0 && i + 5 < n) text += "    @p bra L" + std::to_string(i + 5) + "\n";
  }
  text += "    st.global.u32 [out], r" + std::to_string(n - 1) + "\n    exit\n}\n";
  return text;
}

}  // namespace

TEST_CASE("a kernel of 100,000 registers, labels and instructions parses and verifies") {
  const auto text = chain_kernel(100'000, false);
  const auto parsed = parse(text, "big.kir");
  REQUIRE(parsed.ok());
  const auto& k = parsed.module.kernels.at(0);
  CHECK(k.registers.size() == 100'004);
  CHECK(k.labels.size() == 99'999);
  CHECK(k.code.size() > 130'000);
  const auto diagnostics = verify(parsed.module, text);
  CHECK(diagnostics.empty());
  // The printer places labels by position, not by a search through every label per instruction.
  const auto printed = print(parsed.module);
  const auto again = parse(printed, "printed.kir");
  REQUIRE(again.ok());
  CHECK(again.module.same(parsed.module));
}

TEST_CASE("in a kernel of 100,000 blocks a read nothing writes is still found") {
  const auto text = chain_kernel(100'000, true);
  const auto parsed = parse(text, "big.kir");
  REQUIRE(parsed.ok());
  const auto diagnostics = verify(parsed.module, text);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].message == "register 'never' is used before it is defined on every path");
}

namespace {
// n registers, each written on entry to its diamond, rewritten on one side, added into `acc` at the
// join and read by the next diamond: two registers live at once (acc and the current one) however
// long the kernel, each register live across three blocks.
std::string diamond_kernel(std::size_t n) {
  std::string text = "kernel diamonds(ptr.u32 out) {\n    reg pred p\n    reg u32 acc\n";
  for (std::size_t i = 0; i < n; i += 100) {
    text += "    reg u32 ";
    for (std::size_t j = i; j < std::min(n, i + 100); ++j) text += (j == i ? "r" : ", r") + std::to_string(j);
    text += "\n";
  }
  text += "    setp.lt.u32 p, %tid.x, 7\n    mov.u32 r0, %tid.x\n    mov.u32 acc, 0\n";
  for (std::size_t i = 1; i < n; ++i) {
    const std::string r = "r" + std::to_string(i), label = "J" + std::to_string(i);
    text += "    add.u32 " + r + ", r" + std::to_string(i - 1) + ", 1\n    @p bra " + label + "\n    add.u32 " + r + ", " +
            r + ", 2\n" + label + ":\n    add.u32 acc, acc, " + r + "\n";
  }
  text += "    st.global.u32 [out], acc\n    exit\n}\n";
  return text;
}
}  // namespace

// 150,000 diamonds (300,000 until stop 27; halved for CI time under the sanitizers): a blocks x
// registers dataflow would still take about 4.5e10 steps.
TEST_CASE("the register count of a kernel of 150,000 registers and 300,000 blocks takes linear time") {
  const auto text = diamond_kernel(150'000);
  const auto parsed = parse(text, "big.kir");
  REQUIRE(parsed.ok());
  const auto& k = parsed.module.kernels.at(0);
  REQUIRE(k.code.size() > 450'000);
  const auto analysis = analyze(k);
  CHECK(analysis.cfg.blocks.size() >= 299'999);
  // acc and r(i) (a destination counts with what stays live past it).
  CHECK(analysis.registers_per_thread == 2);
}
