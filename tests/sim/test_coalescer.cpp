// The coalescer's fast paths (contiguous lanes with a constant stride) against a plain reference:
// the set of 32-byte sectors every executing lane touches, grouped by 128-byte line.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "sim/timing/coalescer.hpp"

using warpsim::sim::coalesce;
using warpsim::sim::LineAccess;

namespace {

std::map<std::uint64_t, std::uint32_t> reference(const std::uint64_t* addresses, std::uint64_t exec, unsigned bytes) {
  std::map<std::uint64_t, std::uint32_t> lines;
  for (unsigned l = 0; l < 64; ++l) {
    if (((exec >> l) & 1) == 0) continue;
    for (std::uint64_t s = addresses[l] / 32; s <= (addresses[l] + bytes - 1) / 32; ++s)
      lines[s / 4] |= std::uint32_t{1} << (s % 4);
  }
  return lines;
}

std::map<std::uint64_t, std::uint32_t> as_map(const std::vector<LineAccess>& out) {
  std::map<std::uint64_t, std::uint32_t> lines;
  std::uint64_t previous = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i > 0) REQUIRE(out[i].line > previous);  // ascending, one entry a line
    previous = out[i].line;
    lines[out[i].line] = out[i].sectors;
  }
  return lines;
}

}  // namespace

TEST_CASE("coalescing equals the per-lane sector set for strided, broadcast and scattered lanes", "[timing]") {
  std::mt19937_64 rng(7);
  std::vector<LineAccess> out;
  std::uint64_t addresses[64];
  const unsigned widths[] = {1, 2, 4, 8, 16};
  const std::uint64_t strides[] = {0, 1, 4, 8, 12, 16, 20, 36, 40, 64, 128, 4096};
  for (int round = 0; round < 4000; ++round) {
    const unsigned bytes = widths[rng() % 5];
    const std::uint64_t stride = strides[rng() % 12];
    const unsigned lanes = 1 + static_cast<unsigned>(rng() % 32);
    std::uint64_t exec = lanes == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lanes) - 1;
    if (round % 4 == 3) exec &= rng();  // not contiguous from lane 0: the general path
    const std::uint64_t base = (rng() % 100000) * bytes;
    for (unsigned l = 0; l < 64; ++l) addresses[l] = base + l * stride;
    if (round % 5 == 4) addresses[rng() % 32] += 32 * (1 + rng() % 8);  // one lane off the stride
    if (round % 7 == 6) std::swap(addresses[0], addresses[lanes - 1]);    // falling addresses
    warpsim::sim::ByteRange dense;
    coalesce(addresses, exec, bytes, 32, 128, out, &dense);
    INFO("round " << round << " bytes " << bytes << " stride " << stride << " exec " << exec);
    REQUIRE(as_map(out) == reference(addresses, exec, bytes));
    // `dense`: lanes 0..n-1 at consecutive elements, every byte of [first, end) written; claimed
    // exactly then (a store's partly written sectors are its range's ends: memory_path.cpp).
    bool consecutive = exec != 0 && (exec & (exec + 1)) == 0;
    const unsigned n = static_cast<unsigned>(std::popcount(exec));
    for (unsigned l = 0; l < n && consecutive; ++l) consecutive = addresses[l] == addresses[0] + std::uint64_t{l} * bytes;
    if (consecutive) {
      REQUIRE(dense.first == addresses[0]);
      REQUIRE(dense.end == addresses[0] + std::uint64_t{n} * bytes);
    } else {
      REQUIRE(dense.end == dense.first);
    }
  }
}

TEST_CASE("coalescing equals the per-lane sector set for the rows of a 2D block", "[timing]") {
  // Rows of `width` lanes with a constant stride, rows `pitch` bytes apart: rising, overlapping,
  // touching and falling rows, and a lane off the pattern now and then.
  std::mt19937_64 rng(13);
  std::vector<LineAccess> out;
  std::uint64_t addresses[64];
  const unsigned widths[] = {1, 2, 4, 8, 16};
  const unsigned row_lanes[] = {1, 2, 4, 8, 16, 32};
  const std::uint64_t strides[] = {0, 1, 4, 8, 12, 16, 36, 64};
  for (int round = 0; round < 4000; ++round) {
    const unsigned bytes = widths[rng() % 5];
    const std::uint64_t stride = strides[rng() % 8];
    const unsigned width = row_lanes[rng() % 6];
    const std::int64_t pitch = static_cast<std::int64_t>(rng() % 3000) - (round % 6 == 5 ? 1500 : 0);
    const unsigned lanes = 1 + static_cast<unsigned>(rng() % 64);
    const std::uint64_t exec = lanes == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << lanes) - 1;
    const std::uint64_t base = 1000000 + (rng() % 100000) * bytes;
    for (unsigned l = 0; l < 64; ++l)
      addresses[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(base + (l % width) * stride) +
                                                static_cast<std::int64_t>(l / width) * pitch);
    if (round % 5 == 4) addresses[rng() % lanes] += 32 * (1 + rng() % 8);
    coalesce(addresses, exec, bytes, 32, 128, out);
    INFO("round " << round << " bytes " << bytes << " stride " << stride << " width " << width << " pitch "
                  << pitch << " lanes " << lanes);
    REQUIRE(as_map(out) == reference(addresses, exec, bytes));
  }
}

// The caches' division-free remainder against %.
#include "sim/bits.hpp"

TEST_CASE("the division-free remainder equals % for every divisor and value width", "[timing]") {
  using warpsim::sim::Remainder;
  std::mt19937_64 rng(17);
  const std::uint64_t divisors[] = {1, 2, 3, 7, 16, 25600, 2048, 65535, (1ull << 31) - 1, 1ull << 31,
                                    (1ull << 32) - 1, 1ull << 32, (1ull << 32) + 1, ~0ull};
  const std::uint64_t edges[] = {0, 1, (1ull << 32) - 1, 1ull << 32, ~0ull, 25599, 25600, 25601};
  for (const std::uint64_t d : divisors) {
    const Remainder r(d);
    for (const std::uint64_t x : edges) REQUIRE(r.of(x) == x % d);
    for (int i = 0; i < 20000; ++i) {
      const std::uint64_t x = i % 2 == 0 ? rng() >> 32 : rng() >> (rng() % 64);
      INFO("d " << d << " x " << x);
      REQUIRE(r.of(x) == x % d);
    }
  }
}

// The scheduler's ready set against the plain rule it replaces: a slot is ready at `now` exactly
// when its cycle is at most `now`.
#include "sim/timing/ready_set.hpp"

TEST_CASE("the ready set gives exactly the slots whose cycle has come", "[timing]") {
  using warpsim::sim::ReadySet;
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    ReadySet set;
    std::uint64_t cycles[64];
    const unsigned slots = 1 + static_cast<unsigned>(rng() % 64);
    for (unsigned s = 0; s < slots; ++s) {
      cycles[s] = ReadySet::kNever;
      const std::uint64_t c = rng() % 3 == 0 ? ReadySet::kNever : rng() % 200;
      set.place(s, cycles[s], c);
      cycles[s] = c;
    }
    std::uint64_t now = 0;
    for (int step = 0; step < 400; ++step) {
      // Time moves on by 0 to 150 cycles, sometimes jumping past the whole wheel.
      const std::uint64_t r = rng() % 10;
      now += r < 5 ? r : r < 9 ? rng() % 70 : 100 + rng() % 500;
      const std::uint64_t got = set.ready(now, cycles);
      std::uint64_t want = 0, earliest = ReadySet::kNever;
      for (unsigned s = 0; s < slots; ++s) {
        if (cycles[s] <= now) want |= std::uint64_t{1} << s;
        else earliest = std::min(earliest, cycles[s]);
      }
      INFO("trial " << trial << " step " << step << " now " << now);
      REQUIRE(got == want);
      REQUIRE(set.next() <= earliest);  // a lower bound: never later than the earliest waiting slot
      REQUIRE(set.next() > now);
      // A few slots change, as issue, barriers and exits change them.
      for (int k = rng() % 4; k > 0; --k) {
        const unsigned s = static_cast<unsigned>(rng() % slots);
        const std::uint64_t kind = rng() % 6;
        const std::uint64_t c = kind == 0 ? ReadySet::kNever : kind == 1 ? now : now + 1 + rng() % (kind < 4 ? 64 : 1000);
        set.place(s, cycles[s], c);
        cycles[s] = c;
      }
    }
  }
}

TEST_CASE("an integer atomic's serial lanes per line: per sector its busiest word, summed over the line's sectors",
          "[timing]") {
  using warpsim::sim::serial_lanes_per_line;
  std::uint64_t a[32];
  std::vector<unsigned> out;
  const std::uint64_t base = 1 << 20;  // line-aligned
  // Every lane on one word: one line, 32.
  for (unsigned l = 0; l < 32; ++l) a[l] = base;
  serial_lanes_per_line(a, 0xffffffffu, 32, 128, out);
  CHECK(out == std::vector<unsigned>{32});
  // 32 lanes on 32 words of one line: 4 sectors of 8 distinct words, 1 each.
  for (unsigned l = 0; l < 32; ++l) a[l] = base + 4 * l;
  serial_lanes_per_line(a, 0xffffffffu, 32, 128, out);
  CHECK(out == std::vector<unsigned>{4});
  // 8 words of one sector, 4 lanes each (atom-lanes-u32-m4): 4.
  for (unsigned l = 0; l < 32; ++l) a[l] = base + 4 * (l % 8);
  serial_lanes_per_line(a, 0xffffffffu, 32, 128, out);
  CHECK(out == std::vector<unsigned>{4});
  // Only the executing lanes count: lanes 0 and 8 on word 0, lane 1 alone in another line.
  for (unsigned l = 0; l < 32; ++l) a[l] = base + 4 * (l % 8);
  a[1] = base + 4096;
  serial_lanes_per_line(a, (1u << 0) | (1u << 8) | (1u << 1), 32, 128, out);
  CHECK(out == std::vector<unsigned>{2, 1});  // ascending lines, as coalesce orders them
  // Two sectors of one line: 3 lanes on a word of the first, 2 on a word of the second: 5.
  a[0] = a[1] = a[2] = base;
  a[3] = a[4] = base + 32;
  a[5] = base + 36;
  serial_lanes_per_line(a, 0x3f, 32, 128, out);
  CHECK(out == std::vector<unsigned>{5});
  serial_lanes_per_line(a, 0, 32, 128, out);
  CHECK(out.empty());
}
