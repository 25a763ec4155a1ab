#include "sim/timing/coalescer.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::sim {

void coalesce(const std::uint64_t* addresses, std::uint64_t exec, unsigned bytes, unsigned sector_bytes,
              unsigned line_bytes, std::vector<LineAccess>& out) {
  out.clear();
  const unsigned sector_shift = static_cast<unsigned>(std::countr_zero(sector_bytes));
  const unsigned per_line = static_cast<unsigned>(std::countr_zero(line_bytes)) - sector_shift;
  // The common case first: lanes 0..n-1 all execute and read consecutive elements, so the sectors
  // are one contiguous range.
  if (exec != 0 && (exec & (exec + 1)) == 0) {
    const auto n = count_lanes(exec);
    bool unit_stride = true;
    for (unsigned l = 1; l < n; ++l) unit_stride &= addresses[l] == addresses[0] + std::uint64_t{l} * bytes;
    if (unit_stride) {
      const std::uint64_t first = addresses[0] >> sector_shift;
      const std::uint64_t last = (addresses[0] + std::uint64_t{n} * bytes - 1) >> sector_shift;
      const std::uint64_t in_line = (std::uint64_t{1} << per_line) - 1;
      for (std::uint64_t s = first; s <= last; ++s) {
        const std::uint64_t line = s >> per_line;
        const auto bit = std::uint32_t{1} << (s & in_line);
        if (!out.empty() && out.back().line == line)
          out.back().sectors |= bit;
        else
          out.push_back({line, bit});
      }
      return;
    }
  }
  // The sectors every executing lane touches, sorted (lanes mostly ascend: insertion sort is linear
  // then), then grouped by line.
  std::uint64_t sectors[128];
  unsigned n = 0;
  for (std::uint64_t m = exec; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t first = addresses[lane] >> sector_shift;
    const std::uint64_t last = (addresses[lane] + bytes - 1) >> sector_shift;
    for (std::uint64_t s = first; s <= last && n < 128; ++s) {
      if (n > 0 && sectors[n - 1] == s) continue;
      unsigned i = n++;
      while (i > 0 && sectors[i - 1] > s) {
        sectors[i] = sectors[i - 1];
        --i;
      }
      sectors[i] = s;
    }
  }
  const std::uint64_t in_line = (std::uint64_t{1} << per_line) - 1;
  for (unsigned i = 0; i < n; ++i) {
    const std::uint64_t line = sectors[i] >> per_line;
    const auto bit = std::uint32_t{1} << (sectors[i] & in_line);
    if (!out.empty() && out.back().line == line)
      out.back().sectors |= bit;
    else
      out.push_back({line, bit});
  }
}

unsigned shared_passes(const std::uint64_t* addresses, std::uint64_t exec, unsigned bytes, unsigned banks,
                       unsigned bank_bytes) {
  // Distinct words per bank; at most 64 lanes x 2 words.
  std::uint64_t words[128];
  unsigned n = 0;
  for (std::uint64_t m = exec; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t first = addresses[lane] / bank_bytes;
    const std::uint64_t last = (addresses[lane] + bytes - 1) / bank_bytes;
    for (std::uint64_t w = first; w <= last && n < 128; ++w) words[n++] = w;
  }
  std::sort(words, words + n);
  n = static_cast<unsigned>(std::unique(words, words + n) - words);
  unsigned per_bank[64] = {};
  unsigned passes = n > 0 ? 1 : 0;
  for (unsigned i = 0; i < n; ++i) passes = std::max(passes, ++per_bank[words[i] % banks]);
  return passes;
}

unsigned most_common_address(const std::uint64_t* addresses, std::uint64_t exec) {
  std::uint64_t a[64];
  unsigned n = 0;
  for (std::uint64_t m = exec; m != 0; m &= m - 1) a[n++] = addresses[std::countr_zero(m)];
  std::sort(a, a + n);
  unsigned best = 0;
  for (unsigned i = 0; i < n;) {
    unsigned j = i;
    while (j < n && a[j] == a[i]) ++j;
    best = std::max(best, j - i);
    i = j;
  }
  return best;
}

}  // namespace warpsim::sim
