// The types PTX import needs (issue 10): 8- and 16-bit memory types, s64, f64 and the bit types,
// each checked against the value the host computes.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {

// Runs `text` on one block of `threads` threads with the given arguments.
void run(const std::string& text, std::uint32_t threads, std::vector<std::uint64_t> args, Gpu& gpu) {
  auto k = compile(text);
  gpu.launch(spec(*k, {1}, {threads}, std::move(args)));
}

std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }

}  // namespace

TEST_CASE("ld.global.u8 zero-extends and ld.global.s8 sign-extends into a 32-bit register, and st.global.u8 stores the "
          "low byte",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.u8 in, ptr.u32 out, ptr.s32 sout, ptr.u8 bytes) {
    reg u32 i, v
    reg s32 s
    reg u64 off, p, q
    mov.u32 i, %tid.x
    cvt.u64.u32 off, i
    add.u64 p, in, off
    ld.global.u8 v, [p]
    ld.global.s8 s, [p]
    add.u32 v, v, 0x100
    add.u64 q, bytes, off
    st.global.u8 [q], v
    mul.wide.u32 off, i, 4
    add.u64 q, out, off
    st.global.u32 [q], v
    add.u64 q, sout, off
    st.global.s32 [q], s
    exit
}
)";
  std::vector<std::uint8_t> in(64);
  for (unsigned i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(i * 37 + 5);
  Gpu gpu;
  const auto a = upload(gpu, in, "in");
  const auto out = gpu.allocate(64 * 4, "out");
  const auto sout = gpu.allocate(64 * 4, "sout");
  const auto bytes = gpu.allocate(64, "bytes");
  run(text, 64, {a, out, sout, bytes}, gpu);
  const auto u = download<std::uint32_t>(gpu, out, 64);
  const auto s = download<std::int32_t>(gpu, sout, 64);
  const auto b = download<std::uint8_t>(gpu, bytes, 64);
  for (unsigned i = 0; i < 64; ++i) {
    INFO("lane " << i);
    CHECK(u[i] == std::uint32_t{in[i]} + 0x100);
    CHECK(s[i] == static_cast<std::int8_t>(in[i]));
    CHECK(b[i] == in[i]);
  }
}

TEST_CASE("16-bit registers: ld.u16/s16, mul and shr wrap and shift in 16 bits, cvt.s32.s16 sign-extends, st.u16 "
          "stores 16 bits",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.u16 in, ptr.u16 out, ptr.s32 wide, ptr.u32 flags) {
    reg b16 x, y
    reg s16 z
    reg s32 w
    reg u32 i, f
    reg u64 off, p
    reg pred neg
    mov.u32 i, %tid.x
    mul.wide.u32 off, i, 2
    add.u64 p, in, off
    ld.global.u16 x, [p]
    ld.global.s16 z, [p]
    mul.s16 y, x, 3
    shr.s16 z, z, 1
    setp.lt.s16 neg, z, 0
    selp.u32 f, 1, 0, neg
    add.u64 p, out, off
    st.global.u16 [p], y
    cvt.s32.s16 w, z
    mul.wide.u32 off, i, 4
    add.u64 p, wide, off
    st.global.s32 [p], w
    add.u64 p, flags, off
    st.global.u32 [p], f
    exit
}
)";
  std::vector<std::uint16_t> in(32);
  for (unsigned i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint16_t>(i * 4099 + 17);
  Gpu gpu;
  const auto a = upload(gpu, in, "in");
  const auto out = gpu.allocate(32 * 2, "out");
  const auto wide = gpu.allocate(32 * 4, "wide");
  const auto flags = gpu.allocate(32 * 4, "flags");
  run(text, 32, {a, out, wide, flags}, gpu);
  const auto o = download<std::uint16_t>(gpu, out, 32);
  const auto w = download<std::int32_t>(gpu, wide, 32);
  const auto f = download<std::uint32_t>(gpu, flags, 32);
  for (unsigned i = 0; i < 32; ++i) {
    INFO("lane " << i);
    CHECK(o[i] == static_cast<std::uint16_t>(in[i] * 3));
    const std::int32_t shifted = static_cast<std::int16_t>(in[i]) >> 1;
    CHECK(w[i] == shifted);
    CHECK(f[i] == (shifted < 0 ? 1u : 0u));
  }
}

TEST_CASE("s64 arithmetic is signed: cvt.s64.s32 sign-extends, div truncates toward zero, shr is arithmetic",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.s64 out, s32 a, s64 b) {
    reg s64 x, y, q, r, m
    reg pred p
    reg u64 flag
    cvt.s64.s32 x, a
    mul.s64 y, x, b
    div.s64 q, y, 7
    rem.s64 r, y, 7
    shr.s64 m, y, 3
    st.global.s64 [out], x
    st.global.s64 [out+8], y
    st.global.s64 [out+16], q
    st.global.s64 [out+24], r
    st.global.s64 [out+32], m
    min.s64 m, x, b
    st.global.s64 [out+40], m
    setp.lt.s64 p, y, 0
    selp.s64 m, -1, 1, p
    st.global.s64 [out+48], m
    div.s64 m, -9223372036854775808, -1
    st.global.s64 [out+56], m
    exit
}
)";
  const std::int32_t a = -123457;
  const std::int64_t b = 98765432101;
  Gpu gpu;
  const auto out = gpu.allocate(8 * 8, "out");
  run(text, 1, {out, static_cast<std::uint32_t>(a), static_cast<std::uint64_t>(b)}, gpu);
  const auto o = download<std::int64_t>(gpu, out, 8);
  const std::int64_t y = static_cast<std::int64_t>(a) * b;
  CHECK(o[0] == a);
  CHECK(o[1] == y);
  CHECK(o[2] == y / 7);
  CHECK(o[3] == y % 7);
  CHECK(o[4] == (y >> 3));
  CHECK(o[5] == std::min<std::int64_t>(a, b));
  CHECK(o[6] == (y < 0 ? -1 : 1));
  CHECK(o[7] == std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("f64 arithmetic rounds once per instruction as the host's double does, and conversions saturate", "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.f64 x, ptr.f64 out, ptr.s32 ints, f64 scale) {
    reg f64 a, b, c
    reg f32 s
    reg s32 i
    reg u64 off, p
    reg u32 t
    mov.u32 t, %tid.x
    mul.wide.u32 off, t, 8
    add.u64 p, x, off
    ld.global.f64 a, [p]
    mul.f64 b, a, scale
    mad.f64 c, a, b, 0d3ff0000000000000
    div.f64 c, c, 3.0
    sqrt.f64 b, b
    add.f64 c, c, b
    max.f64 c, c, -1.5
    cvt.f32.f64 s, c
    cvt.f64.f32 b, s
    sub.f64 c, c, b
    add.u64 p, out, off
    st.global.f64 [p], c
    cvt.s32.f64 i, a
    mul.wide.u32 off, t, 4
    add.u64 p, ints, off
    st.global.s32 [p], i
    exit
}
)";
  std::vector<double> x(32);
  for (unsigned i = 0; i < x.size(); ++i) x[i] = (i == 31) ? -1e300 : (i * 1.37 + 0.1) * (i % 2 ? 1.0 : 3.0e9);
  const double scale = 0.3;
  Gpu gpu;
  const auto in = upload(gpu, x, "x");
  const auto out = gpu.allocate(32 * 8, "out");
  const auto ints = gpu.allocate(32 * 4, "ints");
  run(text, 32, {in, out, ints, bits(scale)}, gpu);
  const auto o = download<double>(gpu, out, 32);
  const auto n = download<std::int32_t>(gpu, ints, 32);
  for (unsigned i = 0; i < 32; ++i) {
    INFO("lane " << i);
    const double a = x[i];
    double b = a * scale;
    double c = std::fma(a, b, 1.0) / 3.0;
    b = std::sqrt(b);
    c = std::fmax(c + b, -1.5);
    const double expected = c - static_cast<double>(static_cast<float>(c));
    CHECK(bits(o[i]) == bits(expected));
    const std::int32_t saturated = a <= -2147483648.0 ? std::numeric_limits<std::int32_t>::min()
                                   : a >= 2147483647.0 ? std::numeric_limits<std::int32_t>::max()
                                                       : static_cast<std::int32_t>(a);
    CHECK(n[i] == saturated);
  }
}

TEST_CASE("bit-type registers stand for any type of their size, as in PTX", "[sim][ptx]") {
  // b32 holds an f32's bits (mov.b32), then serves as u32 (shift) and as f32 (add).
  const std::string text = R"(kernel k(ptr.f32 out, f32 a) {
    reg b32 r
    reg f32 x
    mov.b32 r, a
    shl.b32 r, r, 1
    shr.u32 r, r, 1
    add.f32 x, r, 1.0
    mov.b32 r, 0fbf800000
    add.f32 x, x, r
    st.global.f32 [out], x
    exit
}
)";
  Gpu gpu;
  const auto out = gpu.allocate(4, "out");
  run(text, 1, {out, f32_bits(-2.5f)}, gpu);
  CHECK(download<float>(gpu, out, 1)[0] == std::fabs(-2.5f) + 1.0f - 1.0f);
}

TEST_CASE("cvt between 8-, 16-, 32- and 64-bit integers extends by the source type and cuts to the destination",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.u32 out, u32 a) {
    reg u32 r
    reg b16 h
    reg s64 w
    cvt.u8.u32 r, a
    st.global.u32 [out], r
    cvt.s8.u32 r, a
    st.global.u32 [out+4], r
    cvt.s16.u32 h, a
    cvt.s64.s16 w, h
    cvt.u32.s64 r, w
    st.global.u32 [out+8], r
    cvt.u16.u32 h, a
    cvt.u32.u16 r, h
    st.global.u32 [out+12], r
    exit
}
)";
  const std::uint32_t a = 0x1234f6c8u;
  Gpu gpu;
  const auto out = gpu.allocate(16, "out");
  run(text, 1, {out, a}, gpu);
  const auto o = download<std::uint32_t>(gpu, out, 4);
  CHECK(o[0] == (a & 0xffu));
  CHECK(o[1] == static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(a))));
  CHECK(o[2] == static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(a))));
  CHECK(o[3] == (a & 0xffffu));
}

TEST_CASE("atom.dec wraps to its bound at 0, and atom.and, atom.or and atom.xor combine bits lane after lane",
          "[sim][warp-ops]") {
  auto k = compile(R"(kernel bit_atomics(ptr.u32 words, ptr.u32 olds, ptr.u64 wide) {
    reg u32 t, bit, old
    reg u64 off, p, bit64, old64
    mov.u32 t, %tid.x
    shl.b32 bit, 1, t
    mul.wide.u32 off, t, 16
    add.u64 p, olds, off
    atom.dec.global.u32 old, [words], 4
    st.global.u32 [p], old
    atom.or.global.b32 old, [words+4], bit
    st.global.u32 [p+4], old
    atom.and.global.b32 old, [words+8], bit
    st.global.u32 [p+8], old
    atom.xor.global.b32 old, [words+12], t
    st.global.u32 [p+12], old
    cvt.u64.u32 bit64, bit
    shl.b64 bit64, bit64, 32
    atom.xor.global.b64 old64, [wide], bit64
    exit
}
)");
  Gpu gpu;
  const auto words = upload<std::uint32_t>(gpu, {2, 0x80000000u, 0xffffffffu, 0}, "words");
  const auto olds = gpu.allocate(32 * 16, "olds");
  const std::uint64_t wide_start = 0xf0f0f0f0'0000ffffull;
  const auto wide = upload<std::uint64_t>(gpu, {wide_start}, "wide");
  gpu.launch(spec(*k, {1}, {32}, {words, olds, wide}));
  const auto v = download<std::uint32_t>(gpu, olds, 32 * 4);
  std::uint32_t dec = 2, ored = 0x80000000u, anded = 0xffffffffu, xored = 0;
  for (std::uint32_t t = 0; t < 32; ++t) {  // lane order: each lane sees its predecessors' updates
    INFO("lane " << t);
    CHECK(v[4 * t] == dec);
    CHECK(v[4 * t + 1] == ored);
    CHECK(v[4 * t + 2] == anded);
    CHECK(v[4 * t + 3] == xored);
    dec = dec == 0 || dec > 4 ? 4 : dec - 1;
    ored |= 1u << t;
    anded &= 1u << t;
    xored ^= t;
  }
  const auto after = download<std::uint32_t>(gpu, words, 4);
  CHECK(after[0] == dec);
  CHECK(after[1] == 0xffffffffu);
  CHECK(after[2] == 0u);
  CHECK(after[3] == xored);
  CHECK(download<std::uint64_t>(gpu, wide, 1)[0] == (wide_start ^ 0xffffffff'00000000ull));
}
