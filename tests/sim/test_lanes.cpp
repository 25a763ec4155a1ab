#include <cmath>
#include <limits>

#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {

// Runs `op r, a, b` (or `op r, a`) on one thread with a and b of type `in` and r of type `out`.
std::uint64_t eval(const std::string& op, const std::string& in, const std::string& out, std::uint64_t a,
                   std::uint64_t b = 0, bool unary = false, const std::string& b_type = "") {
  const std::string bt = b_type.empty() ? in : b_type;
  const std::string text = fmt::format(R"(kernel k(ptr.u64 dst, {1} a, {5} b) {{
    reg {2} r
    reg u64 w
    {0} r, a{3}
    {4}
    st.global.u64 [dst], w
    exit
}}
)",
                                       op, in, out, unary ? "" : ", b",
                                       out == "u64" ? "mov.u64 w, r" : "cvt.u64.u32 w, r", bt);
  // cvt.u64.{s32,f32} would convert the value; keep the raw bits of 32-bit results instead.
  std::string body = text;
  if (out != "u64" && out != "u32") {
    body = fmt::format(R"(kernel k(ptr.u64 dst, {1} a, {5} b) {{
    reg {2} r
    reg u64 w
    {0} r, a{3}
    st.global.{2} [dst], r
    exit
}}
)",
                       op, in, out, unary ? "" : ", b", "", bt);
  }
  auto k = compile(body);
  Gpu gpu;
  const auto dst = gpu.allocate(8, "dst");
  gpu.launch(spec(*k, {1}, {1}, {dst, a, b}));
  return download<std::uint64_t>(gpu, dst, 1)[0];
}

std::uint32_t s32(std::int32_t v) { return static_cast<std::uint32_t>(v); }
std::uint64_t f(float v) { return f32_bits(v); }
float as_f(std::uint64_t bits) {
  const auto u = static_cast<std::uint32_t>(bits);
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}
constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();

}  // namespace

TEST_CASE("integer division and remainder by zero give 0, INT_MIN / -1 gives INT_MIN, remainder 0", "[sim][lanes]") {
  CHECK(eval("div.u32", "u32", "u32", 7, 0) == 0);
  CHECK(eval("rem.u32", "u32", "u32", 7, 0) == 0);
  CHECK(eval("div.u64", "u64", "u64", 7, 0) == 0);
  CHECK(static_cast<std::uint32_t>(eval("div.s32", "s32", "s32", s32(kMin), s32(-1))) == s32(kMin));
  CHECK(static_cast<std::uint32_t>(eval("rem.s32", "s32", "s32", s32(kMin), s32(-1))) == 0);
  CHECK(static_cast<std::uint32_t>(eval("div.s32", "s32", "s32", s32(-7), 2)) == s32(-3));
  CHECK(static_cast<std::uint32_t>(eval("rem.s32", "s32", "s32", s32(-7), 2)) == s32(-1));
}

TEST_CASE("integer overflow wraps, neg and abs of INT_MIN give INT_MIN", "[sim][lanes]") {
  CHECK(static_cast<std::uint32_t>(eval("add.s32", "s32", "s32", s32(std::numeric_limits<std::int32_t>::max()), 1)) ==
        s32(kMin));
  CHECK(static_cast<std::uint32_t>(eval("mul.s32", "s32", "s32", s32(kMin), s32(-1))) == s32(kMin));
  CHECK(static_cast<std::uint32_t>(eval("neg.s32", "s32", "s32", s32(kMin), 0, true)) == s32(kMin));
  CHECK(static_cast<std::uint32_t>(eval("abs.s32", "s32", "s32", s32(kMin), 0, true)) == s32(kMin));
  CHECK(eval("sub.u32", "u32", "u32", 0, 1) == 0xffffffffu);
}

TEST_CASE("shifts by the width or more give 0, or the sign for shr.s32", "[sim][lanes]") {
  CHECK(eval("shl.u32", "u32", "u32", 1, 31) == 0x80000000u);
  CHECK(eval("shl.u32", "u32", "u32", 1, 32) == 0);
  CHECK(eval("shr.u32", "u32", "u32", 0x80000000u, 40) == 0);
  CHECK(static_cast<std::uint32_t>(eval("shr.s32", "s32", "s32", s32(-8), 1, false, "u32")) == s32(-4));
  CHECK(static_cast<std::uint32_t>(eval("shr.s32", "s32", "s32", s32(-8), 100, false, "u32")) == 0xffffffffu);
  CHECK(static_cast<std::uint32_t>(eval("shr.s32", "s32", "s32", 8, 32, false, "u32")) == 0);
}

TEST_CASE("mul.wide.s32 sign-extends, mul.wide.u32 zero-extends", "[sim][lanes]") {
  CHECK(eval("mul.wide.s32", "s32", "u64", s32(-3), 5) == static_cast<std::uint64_t>(-15));
  CHECK(eval("mul.wide.u32", "u32", "u64", 0xffffffffu, 2) == 0x1fffffffeull);
}

TEST_CASE("min and max compare signed for s32 and unsigned for u32", "[sim][lanes]") {
  CHECK(static_cast<std::uint32_t>(eval("min.s32", "s32", "s32", s32(-1), 1)) == s32(-1));
  CHECK(eval("min.u32", "u32", "u32", 0xffffffffu, 1) == 1);
}

TEST_CASE("f32: min/max ignore one NaN and order -0 below +0, setp with NaN is true only for ne", "[sim][lanes]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(as_f(eval("min.f32", "f32", "f32", f(nan), f(2.0f))) == 2.0f);
  CHECK(as_f(eval("max.f32", "f32", "f32", f(3.0f), f(nan))) == 3.0f);
  CHECK(std::signbit(as_f(eval("min.f32", "f32", "f32", f(0.0f), f(-0.0f)))));
  CHECK_FALSE(std::signbit(as_f(eval("max.f32", "f32", "f32", f(-0.0f), f(0.0f)))));
  // Fused: (1 + 2^-12)(1 - 2^-12) - 1 = -2^-24 exactly; an unfused product would round to 1 and give 0.
  {
    auto k = compile(R"(kernel k(ptr.f32 dst, f32 a, f32 b) {
    reg f32 r
    mad.f32 r, a, b, -1.0
    st.global.f32 [dst], r
    exit
}
)");
    Gpu gpu;
    const auto dst = gpu.allocate(4, "dst");
    gpu.launch(spec(*k, {1}, {1}, {dst, f(1.0f + 0x1p-12f), f(1.0f - 0x1p-12f)}));
    CHECK(download<float>(gpu, dst, 1)[0] == -0x1p-24f);
  }
  for (const char* cmp : {"eq", "lt", "le", "gt", "ge", "ne"}) {
    auto k = compile(fmt::format(R"(kernel k(ptr.u32 dst, f32 a, f32 b) {{
    reg pred p
    reg u32 r
    setp.{}.f32 p, a, b
    selp.u32 r, 1, 0, p
    st.global.u32 [dst], r
    exit
}}
)",
                                 cmp));
    Gpu gpu;
    const auto dst = gpu.allocate(4, "dst");
    gpu.launch(spec(*k, {1}, {1}, {dst, f(nan), f(1.0f)}));
    INFO(cmp);
    CHECK(download<std::uint32_t>(gpu, dst, 1)[0] == (std::string(cmp) == "ne" ? 1u : 0u));
  }
}

TEST_CASE("cvt from f32 truncates, saturates and maps NaN to 0", "[sim][lanes]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(eval("cvt.u32.f32", "f32", "u32", f(-3.5f), 0, true) == 0);
  CHECK(eval("cvt.u32.f32", "f32", "u32", f(1e10f), 0, true) == 0xffffffffu);
  CHECK(static_cast<std::uint32_t>(eval("cvt.s32.f32", "f32", "s32", f(-1e10f), 0, true)) == s32(kMin));
  CHECK(static_cast<std::uint32_t>(eval("cvt.s32.f32", "f32", "s32", f(-2.75f), 0, true)) == s32(-2));
  CHECK(eval("cvt.u32.f32", "f32", "u32", f(nan), 0, true) == 0);
  CHECK(eval("cvt.u64.f32", "f32", "u64", f(1e30f), 0, true) == std::numeric_limits<std::uint64_t>::max());
  CHECK(eval("cvt.u64.s32", "s32", "u64", s32(-1), 0, true) == std::numeric_limits<std::uint64_t>::max());
  CHECK(as_f(eval("cvt.f32.u32", "u32", "f32", 16777217u, 0, true)) == 16777216.0f);
}
