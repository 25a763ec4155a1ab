// PTX's float qualifiers (issue 10): directed rounding, .sat, .ftz, cvt's round-to-integral, the
// approximate special functions and ld.global.nc, each against a host reference; and the expf
// sequence NVRTC emits, which needs fma.rm.f32, cvt.sat.f32.f32 and ex2.approx.ftz.f32.
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <random>

#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {


// The host's own directed rounding: the reference the emulation must match bit for bit.
float host_rounded(int mode, int op, float a, float b, float c) {
  volatile float x = a, y = b, z = c;
  std::fesetround(mode);
  volatile float r = op == 0 ? x + y : op == 1 ? x * y : std::fma(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z));
  std::fesetround(FE_TONEAREST);
  return r;
}

std::vector<float> float_inputs(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(kLanes);
  for (unsigned i = 0; i < kLanes; ++i) {
    const std::uint32_t bits = rng();
    // Mostly ordinary numbers of both signs, some tiny (subnormal results), some huge (overflow).
    const int exponent = i % 8 == 0 ? 1 : i % 8 == 1 ? 250 : 100 + static_cast<int>(bits % 56);
    v[i] = std::bit_cast<float>((bits & 0x807fffffu) | (static_cast<std::uint32_t>(exponent) << 23));
  }
  v[2] = 1.0f;
  v[3] = -1.0f;
  return v;
}

std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }

}  // namespace

TEST_CASE("add, mul and fma with .rz, .rm and .rp round as the host's rounding modes do, overflow and exact zeros "
          "included",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.f32 in, ptr.f32 out) {
    reg u32 i
    reg u64 off, p, q
    reg f32 a, b, c, r
    mov.u32 i, %tid.x
    mul.wide.u32 off, i, 4
    add.u64 p, in, off
    ld.global.f32 a, [p]
    ld.global.f32 b, [p+256]
    ld.global.f32 c, [p+512]
    add.u64 q, out, off
    add.rz.f32 r, a, b
    st.global.f32 [q], r
    add.rm.f32 r, a, b
    st.global.f32 [q+256], r
    add.rp.f32 r, a, b
    st.global.f32 [q+512], r
    mul.rz.f32 r, a, b
    st.global.f32 [q+768], r
    mul.rm.f32 r, a, b
    st.global.f32 [q+1024], r
    mul.rp.f32 r, a, b
    st.global.f32 [q+1280], r
    fma.rz.f32 r, a, b, c
    st.global.f32 [q+1536], r
    fma.rm.f32 r, a, b, c
    st.global.f32 [q+1792], r
    fma.rp.f32 r, a, b, c
    st.global.f32 [q+2048], r
    sub.rm.f32 r, a, a
    st.global.f32 [q+2304], r
    exit
}
)";
  auto in = float_inputs(1);
  const auto b = float_inputs(2), c = float_inputs(3);
  in.insert(in.end(), b.begin(), b.end());
  in.insert(in.end(), c.begin(), c.end());
  in[kLanes + 2] = -1.0f;  // lane 2: 1 + -1 is an exact zero
  Gpu gpu;
  const auto din = upload(gpu, in, "in");
  const auto out = gpu.allocate(10 * kLanes * 4, "out");
  gpu.launch(spec(*compile(text), {1}, {kLanes}, {din, out}));
  const auto o = download<float>(gpu, out, 10 * kLanes);
  const int modes[] = {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  for (unsigned l = 0; l < kLanes; ++l) {
    const float x = in[l], y = in[l + kLanes], z = in[l + 2 * kLanes];
    INFO("lane " << l << ": " << x << ", " << y << ", " << z);
    for (int op = 0; op < 3; ++op)
      for (int m = 0; m < 3; ++m) {
        INFO("op " << op << " mode " << m);
        CHECK(bits_of(o[(op * 3 + m) * kLanes + l]) == bits_of(host_rounded(modes[m], op, x, y, z)));
      }
    CHECK(bits_of(o[9 * kLanes + l]) == (std::isfinite(x) ? 0x80000000u : bits_of(x - x)));
  }
}

TEST_CASE("cvt rounds to integral values with .rni, .rzi, .rmi and .rpi, and cvt.sat.f32.f32 clamps to 0..1, and "
          "cvt.rz.f32.f64 truncates",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.f32 in, ptr.s32 out, ptr.f32 fout, f64 d) {
    reg u32 i
    reg s32 n
    reg u64 off, p, q
    reg f32 a, r
    mov.u32 i, %tid.x
    mul.wide.u32 off, i, 4
    add.u64 p, in, off
    ld.global.f32 a, [p]
    add.u64 q, out, off
    cvt.rni.s32.f32 n, a
    st.global.s32 [q], n
    cvt.rzi.s32.f32 n, a
    st.global.s32 [q+256], n
    cvt.rmi.s32.f32 n, a
    st.global.s32 [q+512], n
    cvt.rpi.s32.f32 n, a
    st.global.s32 [q+768], n
    add.u64 q, fout, off
    cvt.rni.f32.f32 r, a
    st.global.f32 [q], r
    cvt.rmi.f32.f32 r, a
    st.global.f32 [q+256], r
    cvt.sat.f32.f32 r, a
    st.global.f32 [q+512], r
    cvt.rz.f32.f64 r, d
    st.global.f32 [q+768], r
    cvt.rp.f32.f64 r, d
    st.global.f32 [q+1024], r
    exit
}
)";
  std::vector<float> in(kLanes);
  for (unsigned l = 0; l < kLanes; ++l) in[l] = (static_cast<float>(l) - 32.0f) * 0.25f;  // halves and quarters
  in[0] = std::nanf("");
  in[1] = 3e9f;
  in[2] = -0.0f;
  in[3] = 1e-40f;
  const double d = 1.0 / 3.0;
  Gpu gpu;
  const auto din = upload(gpu, in, "in");
  const auto out = gpu.allocate(4 * kLanes * 4, "out");
  const auto fout = gpu.allocate(5 * kLanes * 4, "fout");
  gpu.launch(spec(*compile(text), {1}, {kLanes}, {din, out, fout, std::bit_cast<std::uint64_t>(d)}));
  const auto o = download<std::int32_t>(gpu, out, 4 * kLanes);
  const auto f = download<float>(gpu, fout, 5 * kLanes);
  auto to_int = [](double x) -> std::int32_t {
    if (std::isnan(x)) return 0;
    return x >= 2147483647.0 ? 2147483647 : x <= -2147483648.0 ? -2147483647 - 1 : static_cast<std::int32_t>(x);
  };
  for (unsigned l = 0; l < kLanes; ++l) {
    const float x = in[l];
    INFO("lane " << l << ": " << x);
    CHECK(o[l] == to_int(std::nearbyint(x)));
    CHECK(o[l + kLanes] == to_int(std::trunc(x)));
    CHECK(o[l + 2 * kLanes] == to_int(std::floor(x)));
    CHECK(o[l + 3 * kLanes] == to_int(std::ceil(x)));
    if (!std::isnan(x)) {
      CHECK(bits_of(f[l]) == bits_of(std::nearbyint(x)));
      CHECK(bits_of(f[l + kLanes]) == bits_of(std::floor(x)));
    }
    CHECK(f[l + 2 * kLanes] == (std::isnan(x) || x <= 0 ? 0.0f : x >= 1 ? 1.0f : x));
    CHECK_FALSE(std::signbit(f[l + 2 * kLanes]));
  }
  const float nearest = static_cast<float>(d);
  CHECK(f[3 * kLanes] == (nearest > d ? std::nextafter(nearest, 0.0f) : nearest));
  CHECK(f[4 * kLanes] == (nearest < d ? std::nextafter(nearest, 1.0f) : nearest));
  CHECK(f[3 * kLanes] < f[4 * kLanes]);
}

TEST_CASE("NVRTC's expf sequence (fma.rm, cvt.sat, ex2.approx.ftz) computes exp within 2 ulp, and the special "
          "functions stay within the hardware's documented error",
          "[sim][ptx]") {
  // As nvcc -O3 emits expf(x) for sm_90 (register names shortened).
  const std::string text = R"(kernel k(ptr.f32 in, ptr.f32 out) {
    reg u32 i
    reg u64 off, p, q
    reg f32 f1, f4, f5, f8, f9, f10, f12, f14, f15, f16, f17, r
    reg b32 r2, r3
    mov.u32 i, %tid.x
    mul.wide.u32 off, i, 4
    add.u64 p, in, off
    ld.global.nc.f32 f1, [p]
    fma.rn.f32 f4, f1, 0f3BBB989D, 0f3F000000
    cvt.sat.f32.f32 f5, f4
    fma.rm.f32 f8, f5, 0f437C0000, 0f4B400001
    add.f32 f9, f8, 0fCB40007F
    neg.f32 f10, f9
    fma.rn.f32 f12, f1, 0f3FB8AA3B, f10
    fma.rn.f32 f14, f1, 0f32A57060, f12
    mov.b32 r2, f8
    shl.b32 r3, r2, 23
    mov.b32 f15, r3
    ex2.approx.ftz.f32 f16, f14
    mul.f32 f17, f16, f15
    add.u64 q, out, off
    st.global.f32 [q], f17
    rcp.approx.f32 r, f1
    st.global.f32 [q+256], r
    rsqrt.approx.f32 r, f1
    st.global.f32 [q+512], r
    lg2.approx.f32 r, f1
    st.global.f32 [q+768], r
    sin.approx.f32 r, f1
    st.global.f32 [q+1024], r
    cos.approx.f32 r, f1
    st.global.f32 [q+1280], r
    sqrt.approx.f32 r, f1
    st.global.f32 [q+1536], r
    exit
}
)";
  std::vector<float> in(kLanes);
  for (unsigned l = 0; l < kLanes; ++l) in[l] = 0.05f + static_cast<float>(l) * 0.37f;
  Gpu gpu;
  const auto din = upload(gpu, in, "in");
  const auto out = gpu.allocate(7 * kLanes * 4, "out");
  gpu.launch(spec(*compile(text), {1}, {kLanes}, {din, out}));
  const auto o = download<float>(gpu, out, 7 * kLanes);
  auto close = [](float got, double want, double relative) { return std::fabs(got - want) <= relative * std::fabs(want); };
  for (unsigned l = 0; l < kLanes; ++l) {
    const double x = in[l];
    INFO("lane " << l << ": x = " << x << ", expf gave " << o[l]);
    CHECK(close(o[l], std::exp(x), 2.5e-7));
    CHECK(close(o[l + kLanes], 1 / x, 1.2e-7));
    CHECK(close(o[l + 2 * kLanes], 1 / std::sqrt(x), 2.4e-7));
    CHECK(std::fabs(o[l + 3 * kLanes] - std::log2(x)) <= 1e-6 * std::max(1.0, std::fabs(std::log2(x))));
    CHECK(std::fabs(o[l + 4 * kLanes] - std::sin(x)) <= 1e-6);
    CHECK(std::fabs(o[l + 5 * kLanes] - std::cos(x)) <= 1e-6);
    CHECK(close(o[l + 6 * kLanes], std::sqrt(x), 1.2e-7));
  }
}

TEST_CASE("add.sat.s32 clamps to the s32 range, and add.sat.f32 clamps to 0..1, and .ftz flushes subnormals to zero",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.s32 out, ptr.f32 fout, s32 a, s32 b, f32 x, f32 tiny) {
    reg s32 n
    reg f32 r
    add.sat.s32 n, a, b
    st.global.s32 [out], n
    sub.sat.s32 n, b, a
    st.global.s32 [out+4], n
    add.s32 n, a, b
    st.global.s32 [out+8], n
    add.sat.f32 r, x, x
    st.global.f32 [fout], r
    sub.sat.f32 r, tiny, x
    st.global.f32 [fout+4], r
    add.ftz.f32 r, tiny, 0.0
    st.global.f32 [fout+8], r
    add.f32 r, tiny, 0.0
    st.global.f32 [fout+12], r
    mul.ftz.f32 r, x, 0f000ae397
    st.global.f32 [fout+16], r
    exit
}
)";
  const std::int32_t a = 2000000000, b = 1000000000;
  const float x = 0.75f, tiny = -1e-40f;
  Gpu gpu;
  const auto out = gpu.allocate(12, "out");
  const auto fout = gpu.allocate(20, "fout");
  gpu.launch(spec(*compile(text), {1}, {1},
                  {out, fout, static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), f32_bits(x), f32_bits(tiny)}));
  const auto o = download<std::int32_t>(gpu, out, 3);
  const auto f = download<float>(gpu, fout, 5);
  CHECK(o[0] == 2147483647);
  CHECK(o[1] == -1000000000);
  CHECK(o[2] == static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b)));
  CHECK(f[0] == 1.0f);
  CHECK(bits_of(f[1]) == 0u);
  CHECK(bits_of(f[2]) == 0u);  // the flushed -0 plus +0
  CHECK(f[3] == tiny);
  CHECK(bits_of(f[4]) == 0u);
}
