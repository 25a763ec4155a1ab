#include "sim/timing/coalescer.hpp"

#include <algorithm>
#include <bit>

namespace warpsim::sim {

void coalesce(const std::uint64_t* addresses, std::uint64_t exec, unsigned bytes, unsigned sector_bytes,
              unsigned line_bytes, std::vector<LineAccess>& out, ByteRange* dense) {
  out.clear();
  if (dense != nullptr) *dense = {};
  const unsigned sector_shift = static_cast<unsigned>(std::countr_zero(sector_bytes));
  const unsigned per_line = static_cast<unsigned>(std::countr_zero(line_bytes)) - sector_shift;
  const std::uint64_t in_line = (std::uint64_t{1} << per_line) - 1;
  // Appends the sectors lo..hi (rising past everything appended so far), grouped by line.
  auto append = [&](std::uint64_t lo, std::uint64_t hi) {
    for (std::uint64_t line = lo >> per_line; line <= hi >> per_line; ++line) {
      const std::uint64_t from = std::max(lo, line << per_line), to = std::min(hi, (line << per_line) | in_line);
      const auto bits = static_cast<std::uint32_t>(((std::uint64_t{2} << (to - from)) - 1) << (from & in_line));
      if (!out.empty() && out.back().line == line)
        out.back().sectors |= bits;
      else
        out.push_back({line, bits});
    }
  };
  // The common case first: lanes 0..n-1 all execute and their addresses rise by a constant stride
  // that leaves gaps narrower than a sector (consecutive elements, or fields of consecutive
  // structures), so the sectors are one contiguous range.
  if (exec != 0 && (exec & (exec + 1)) == 0) {
    const auto n = count_lanes(exec);
    const std::uint64_t stride = n > 1 ? addresses[1] - addresses[0] : bytes;
    // also rejects falling addresses; the last lane rejects most other patterns at once
    bool affine = stride < std::uint64_t{bytes} + sector_bytes &&
                  addresses[n - 1] == addresses[0] + std::uint64_t{n - 1} * stride;
    if (affine) {  // the rest, in one loop without an early exit, which the compiler vectorises
      std::uint64_t off = 0;
      std::uint64_t expected = addresses[0] + 2 * stride;
      for (unsigned l = 2; l + 1 < n; ++l, expected += stride) off |= addresses[l] ^ expected;
      affine = off == 0;
    }
    if (affine) {
      append(addresses[0] >> sector_shift, (addresses[0] + std::uint64_t{n - 1} * stride + bytes - 1) >> sector_shift);
      if (dense != nullptr && (stride == bytes || n == 1)) *dense = {addresses[0], addresses[0] + std::uint64_t{n} * bytes};
      return;
    }
  }
  // Next most common: executing lanes whose addresses never fall (rows of a 2D block, a gather by
  // rising indices). Their sectors merge into rising ranges as they come, without sorting.
  {
    std::uint64_t lo = 0, hi = 0;
    bool open = false, rising = true;
    // Adds the sectors first..last of one lane, or of a run of lanes whose sectors are contiguous.
    auto add = [&](std::uint64_t first, std::uint64_t last) {
      if (open && first >= lo && first <= hi + 1) {
        hi = std::max(hi, last);
      } else if (!open || first > hi + 1) {
        if (open) append(lo, hi);
        lo = first;
        hi = last;
        open = true;
      } else {
        rising = false;
      }
    };
    if (exec != 0 && (exec & (exec + 1)) == 0) {
      // Lanes 0..n-1: runs of a constant rising stride that leaves gaps narrower than a sector (the
      // rows of a 2D block) each cover one contiguous range, as the lanes one by one would.
      const auto n = count_lanes(exec);
      for (unsigned i = 0; i < n && rising;) {
        unsigned j = i;
        if (i + 1 < n) {
          const std::uint64_t stride = addresses[i + 1] - addresses[i];
          if (stride < std::uint64_t{bytes} + sector_bytes)
            for (j = i + 1; j + 1 < n && addresses[j + 1] - addresses[j] == stride;) ++j;
        }
        add(addresses[i] >> sector_shift, (addresses[j] + bytes - 1) >> sector_shift);
        i = j + 1;
      }
    } else {
      for (std::uint64_t m = exec; m != 0 && rising; m &= m - 1) {
        const std::uint64_t a = addresses[std::countr_zero(m)];
        add(a >> sector_shift, (a + bytes - 1) >> sector_shift);
      }
    }
    if (rising) {
      if (open) append(lo, hi);
      return;
    }
    out.clear();
  }
  // Otherwise the sectors every executing lane touches, sorted (lanes mostly ascend: insertion
  // sort is linear then), then grouped by line.
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
  // The common case: every lane reads one word and no two lanes read different words of one bank
  // (consecutive words, or a broadcast): one pass, found without sorting.
  if (std::has_single_bit(banks) && std::has_single_bit(bank_bytes) && exec != 0) {
    // Lanes 0..n-1 (n <= banks) at consecutive words: one loop the compiler vectorises.
    if ((exec & (exec + 1)) == 0 && count_lanes(exec) <= banks && addresses[0] % bank_bytes + bytes <= bank_bytes) {
      const unsigned n = count_lanes(exec);
      std::uint64_t off = 0;
      for (unsigned l = 0; l < n; ++l) off |= addresses[l] - (addresses[0] + std::uint64_t{l} * bank_bytes);
      if (off == 0) return 1;
    }
    const auto word_shift = static_cast<unsigned>(std::countr_zero(bank_bytes));
    std::uint64_t word_of_bank[64];
    std::uint64_t used = 0;
    bool one_pass = true;
    for (std::uint64_t m = exec; m != 0 && one_pass; m &= m - 1) {
      const std::uint64_t a = addresses[std::countr_zero(m)];
      const std::uint64_t word = a >> word_shift;
      const auto bank = static_cast<unsigned>(word & (banks - 1));
      const std::uint64_t bit = std::uint64_t{1} << bank;
      if (((a + bytes - 1) >> word_shift) != word) {
        one_pass = false;
      } else if ((used & bit) == 0) {
        word_of_bank[bank] = word;
        used |= bit;
      } else {
        one_pass = word_of_bank[bank] == word;
      }
    }
    if (one_pass) return 1;
  }
  // Distinct words per bank; at most 64 lanes x 4 words (a 16-byte access, sm.vector_shared_loads).
  std::uint64_t words[256];
  unsigned n = 0;
  for (std::uint64_t m = exec; m != 0; m &= m - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t first = addresses[lane] / bank_bytes;
    const std::uint64_t last = (addresses[lane] + bytes - 1) / bank_bytes;
    for (std::uint64_t w = first; w <= last && n < 256; ++w) words[n++] = w;
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

void serial_lanes_per_line(const std::uint64_t* addresses, std::uint64_t exec, unsigned sector_bytes,
                           unsigned line_bytes, std::vector<unsigned>& out) {
  out.clear();
  std::uint64_t a[64];
  unsigned n = 0;
  for (std::uint64_t m = exec; m != 0; m &= m - 1) a[n++] = addresses[std::countr_zero(m)];
  std::sort(a, a + n);
  std::uint64_t line = ~std::uint64_t{0}, sector = ~std::uint64_t{0};
  unsigned most = 0;  // the most lanes on one word of the current sector
  for (unsigned i = 0; i < n;) {
    unsigned j = i;
    while (j < n && a[j] == a[i]) ++j;
    const std::uint64_t l = a[i] / line_bytes, s = a[i] / sector_bytes;
    if (l != line) {
      if (line != ~std::uint64_t{0}) out.back() += most;
      out.push_back(0);
      line = l;
      sector = s;
      most = 0;
    } else if (s != sector) {
      out.back() += most;
      sector = s;
      most = 0;
    }
    most = std::max(most, j - i);
    i = j;
  }
  if (!out.empty()) out.back() += most;
}

}  // namespace warpsim::sim
