// The integer bit operations PTX import needs (issue 10): mul.hi, bfe, bfi, popc, clz, brev, prmt,
// each checked on every lane against a bit-by-bit host reference written from the PTX manual.
#include <cstdint>
#include <random>

#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {


// Bit i of x.
std::uint64_t bit(std::uint64_t x, unsigned i) { return i < 64 ? (x >> i) & 1 : 0; }

// PTX ISA, bfe: d[i] = (i < len && pos + i <= msb) ? a[pos + i] : sbit.
std::uint64_t bfe_reference(std::uint64_t a, std::uint32_t b, std::uint32_t c, unsigned width, bool is_signed) {
  const unsigned msb = width - 1, pos = b & 0xff, len = c & 0xff;
  const std::uint64_t sbit = (!is_signed || len == 0) ? 0 : bit(a, std::min(pos + len - 1, msb));
  std::uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) d |= ((i < len && pos + i <= msb) ? bit(a, pos + i) : sbit) << i;
  return d;
}

// PTX ISA, bfi: f = b; f[pos + i] = a[i] for i < len and pos + i <= msb.
std::uint64_t bfi_reference(std::uint64_t a, std::uint64_t b, std::uint32_t c, std::uint32_t d, unsigned width) {
  const unsigned msb = width - 1, pos = c & 0xff, len = d & 0xff;
  std::uint64_t f = b;
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) f = (f & ~(std::uint64_t{1} << (pos + i))) | (bit(a, i) << (pos + i));
  return f;
}

std::uint32_t prmt_reference(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  const std::uint8_t bytes[8] = {std::uint8_t(a), std::uint8_t(a >> 8), std::uint8_t(a >> 16), std::uint8_t(a >> 24),
                                 std::uint8_t(b), std::uint8_t(b >> 8), std::uint8_t(b >> 16), std::uint8_t(b >> 24)};
  std::uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned s = (c >> (4 * i)) & 0xf;
    std::uint32_t byte = bytes[s & 7];
    if (s & 8) byte = (byte >> 7) ? 0xff : 0;
    d |= byte << (8 * i);
  }
  return d;
}

// Inputs that reach the edge cases: 0, all ones, sign bits, positions and lengths past the width.
template <class T>
std::vector<T> inputs(std::uint32_t seed, bool small) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(kLanes);
  for (unsigned i = 0; i < kLanes; ++i) {
    const std::uint64_t r = rng();
    v[i] = small ? static_cast<T>(i < 8 ? r % 80 : i < 16 ? 250 + i : r % 70) : static_cast<T>(r);
  }
  if (!small) {
    v[0] = 0;
    v[1] = static_cast<T>(~std::uint64_t{0});
    v[2] = static_cast<T>(std::uint64_t{1} << (sizeof(T) * 8 - 1));
  }
  return v;
}

}  // namespace

TEST_CASE("mul.hi gives the high half of the double-width product, signed and unsigned, 32 and 64 bits",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.u32 a, ptr.u64 w, ptr.u32 out, ptr.u64 wout) {
    reg u32 i, hu
    reg b32 x, y
    reg s32 hs
    reg u64 off, p, wu
    reg b64 wx, wy
    reg s64 ws
    mov.u32 i, %tid.x
    mul.wide.u32 off, i, 4
    add.u64 p, a, off
    ld.global.b32 x, [p]
    ld.global.b32 y, [p+256]
    mul.hi.u32 hu, x, y
    mul.hi.s32 hs, x, y
    add.u64 p, out, off
    st.global.u32 [p], hu
    st.global.s32 [p+256], hs
    mul.wide.u32 off, i, 8
    add.u64 p, w, off
    ld.global.b64 wx, [p]
    ld.global.b64 wy, [p+512]
    mul.hi.u64 wu, wx, wy
    mul.hi.s64 ws, wx, wy
    add.u64 p, wout, off
    st.global.u64 [p], wu
    st.global.s64 [p+512], ws
    exit
}
)";
  auto a = inputs<std::uint32_t>(1, false);
  const auto b = inputs<std::uint32_t>(2, false);
  a.insert(a.end(), b.begin(), b.end());
  auto w = inputs<std::uint64_t>(3, false);
  const auto x = inputs<std::uint64_t>(4, false);
  w.insert(w.end(), x.begin(), x.end());
  Gpu gpu;
  const auto da = upload(gpu, a, "a");
  const auto dw = upload(gpu, w, "w");
  const auto out = gpu.allocate(2 * kLanes * 4, "out");
  const auto wout = gpu.allocate(2 * kLanes * 8, "wout");
  gpu.launch(spec(*compile(text), {1}, {kLanes}, {da, dw, out, wout}));
  const auto o = download<std::uint32_t>(gpu, out, 2 * kLanes);
  const auto wo = download<std::uint64_t>(gpu, wout, 2 * kLanes);
  for (unsigned l = 0; l < kLanes; ++l) {
    INFO("lane " << l);
    const std::uint32_t p = a[l], q = a[l + kLanes];
    CHECK(o[l] == static_cast<std::uint32_t>((std::uint64_t{p} * q) >> 32));
    CHECK(o[l + kLanes] == static_cast<std::uint32_t>(
                               static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(p)} *
                                                          std::int64_t{static_cast<std::int32_t>(q)}) >> 32));
    const std::uint64_t r = w[l], s = w[l + kLanes];
    CHECK(wo[l] == static_cast<std::uint64_t>((static_cast<unsigned __int128>(r) * s) >> 64));
    CHECK(wo[l + kLanes] ==
          static_cast<std::uint64_t>(static_cast<unsigned __int128>(static_cast<__int128>(static_cast<std::int64_t>(r)) *
                                                                    static_cast<std::int64_t>(s)) >> 64));
  }
}

TEST_CASE("bfe and bfi follow the PTX manual's bit-by-bit rules, positions and lengths past the width included",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.u32 a, ptr.u64 w, ptr.u32 pos, ptr.u32 len, ptr.u32 out, ptr.u64 wout) {
    reg u32 i, p, n, d
    reg s32 sd
    reg b32 x, by, bd
    reg u64 off, q, wd
    reg s64 sw
    reg b64 wx, bw
    mov.u32 i, %tid.x
    mul.wide.u32 off, i, 4
    add.u64 q, a, off
    ld.global.b32 x, [q]
    ld.global.b32 by, [q+256]
    add.u64 q, pos, off
    ld.global.u32 p, [q]
    add.u64 q, len, off
    ld.global.u32 n, [q]
    bfe.u32 d, x, p, n
    bfe.s32 sd, x, p, n
    bfi.b32 bd, x, by, p, n
    add.u64 q, out, off
    st.global.u32 [q], d
    st.global.s32 [q+256], sd
    st.global.b32 [q+512], bd
    mul.wide.u32 off, i, 8
    add.u64 q, w, off
    ld.global.b64 wx, [q]
    bfe.u64 wd, wx, p, n
    bfe.s64 sw, wx, p, n
    ld.global.b64 bw, [q+512]
    bfi.b64 bw, wx, bw, p, 7
    add.u64 q, wout, off
    st.global.u64 [q], wd
    st.global.s64 [q+512], sw
    st.global.b64 [q+1024], bw
    exit
}
)";
  auto a = inputs<std::uint32_t>(5, false);
  const auto a2 = inputs<std::uint32_t>(6, false);
  a.insert(a.end(), a2.begin(), a2.end());
  auto w = inputs<std::uint64_t>(7, false);
  const auto w2 = inputs<std::uint64_t>(8, false);
  w.insert(w.end(), w2.begin(), w2.end());
  const auto pos = inputs<std::uint32_t>(9, true);
  auto len = inputs<std::uint32_t>(10, true);
  len[3] = 0;
  len[4] = 256 + 5;  // mod 256
  Gpu gpu;
  const auto da = upload(gpu, a, "a");
  const auto dw = upload(gpu, w, "w");
  const auto dp = upload(gpu, pos, "pos");
  const auto dl = upload(gpu, len, "len");
  const auto out = gpu.allocate(3 * kLanes * 4, "out");
  const auto wout = gpu.allocate(3 * kLanes * 8, "wout");
  gpu.launch(spec(*compile(text), {1}, {kLanes}, {da, dw, dp, dl, out, wout}));
  const auto o = download<std::uint32_t>(gpu, out, 3 * kLanes);
  const auto wo = download<std::uint64_t>(gpu, wout, 3 * kLanes);
  for (unsigned l = 0; l < kLanes; ++l) {
    INFO("lane " << l << " pos " << pos[l] << " len " << len[l]);
    CHECK(o[l] == bfe_reference(a[l], pos[l], len[l], 32, false));
    CHECK(o[l + kLanes] == static_cast<std::uint32_t>(bfe_reference(a[l], pos[l], len[l], 32, true)));
    CHECK(o[l + 2 * kLanes] == bfi_reference(a[l], a[l + kLanes], pos[l], len[l], 32));
    CHECK(wo[l] == bfe_reference(w[l], pos[l], len[l], 64, false));
    CHECK(wo[l + kLanes] == bfe_reference(w[l], pos[l], len[l], 64, true));
    CHECK(wo[l + 2 * kLanes] == bfi_reference(w[l], w[l + kLanes], pos[l], 7, 64));
  }
}

TEST_CASE("popc, clz and brev count and reverse bits of b32 and b64 values, and prmt picks bytes and replicates signs",
          "[sim][ptx]") {
  const std::string text = R"(kernel k(ptr.b32 a, ptr.b64 w, ptr.u32 out, ptr.b64 wout) {
    reg u32 i, c
    reg b32 x, y, s, d
    reg u64 off, q
    reg b64 wx, wd
    mov.u32 i, %tid.x
    mul.wide.u32 off, i, 4
    add.u64 q, a, off
    ld.global.b32 x, [q]
    ld.global.b32 y, [q+256]
    ld.global.b32 s, [q+512]
    add.u64 q, out, off
    popc.b32 c, x
    st.global.u32 [q], c
    clz.b32 c, x
    st.global.u32 [q+256], c
    brev.b32 d, x
    st.global.b32 [q+512], d
    prmt.b32 d, x, y, s
    st.global.b32 [q+768], d
    mul.wide.u32 off, i, 8
    add.u64 q, w, off
    ld.global.b64 wx, [q]
    add.u64 q, wout, off
    brev.b64 wd, wx
    st.global.b64 [q], wd
    popc.b64 c, wx
    mul.wide.u32 off, i, 4
    add.u64 q, out, off
    st.global.u32 [q+1024], c
    clz.b64 c, wx
    st.global.u32 [q+1280], c
    exit
}
)";
  auto a = inputs<std::uint32_t>(11, false);
  for (unsigned seed : {12u, 13u}) {
    const auto more = inputs<std::uint32_t>(seed, false);
    a.insert(a.end(), more.begin(), more.end());
  }
  const auto w = inputs<std::uint64_t>(14, false);
  Gpu gpu;
  const auto da = upload(gpu, a, "a");
  const auto dw = upload(gpu, w, "w");
  const auto out = gpu.allocate(6 * kLanes * 4, "out");
  const auto wout = gpu.allocate(kLanes * 8, "wout");
  gpu.launch(spec(*compile(text), {1}, {kLanes}, {da, dw, out, wout}));
  const auto o = download<std::uint32_t>(gpu, out, 6 * kLanes);
  const auto wo = download<std::uint64_t>(gpu, wout, kLanes);
  for (unsigned l = 0; l < kLanes; ++l) {
    INFO("lane " << l);
    const std::uint32_t x = a[l];
    unsigned ones = 0, zeros = 0;
    std::uint32_t reversed = 0;
    for (unsigned i = 0; i < 32; ++i) {
      ones += bit(x, i);
      reversed |= static_cast<std::uint32_t>(bit(x, i)) << (31 - i);
    }
    while (zeros < 32 && !bit(x, 31 - zeros)) ++zeros;
    CHECK(o[l] == ones);
    CHECK(o[l + kLanes] == zeros);
    CHECK(o[l + 2 * kLanes] == reversed);
    CHECK(o[l + 3 * kLanes] == prmt_reference(x, a[l + kLanes], a[l + 2 * kLanes]));
    const std::uint64_t y = w[l];
    unsigned wide_ones = 0, wide_zeros = 0;
    std::uint64_t wide_reversed = 0;
    for (unsigned i = 0; i < 64; ++i) {
      wide_ones += bit(y, i);
      wide_reversed |= bit(y, i) << (63 - i);
    }
    while (wide_zeros < 64 && !bit(y, 63 - wide_zeros)) ++wide_zeros;
    CHECK(wo[l] == wide_reversed);
    CHECK(o[l + 4 * kLanes] == wide_ones);
    CHECK(o[l + 5 * kLanes] == wide_zeros);
  }
}
