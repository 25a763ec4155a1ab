#include "kernels/expectation.hpp"

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace warpsim::kernels {

namespace {

std::uint64_t bits_at(std::span<const std::byte> bytes, isa::Type type, std::uint64_t i) {
  const unsigned size = isa::type_bytes(type);
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes.data() + i * size, size);
  return bits;
}

double as_double(std::uint64_t bits, isa::Type type) {
  switch (type) {
    case isa::Type::F32: return std::bit_cast<float>(static_cast<std::uint32_t>(bits));
    case isa::Type::S32: return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits));
    default: return static_cast<double>(bits);
  }
}

std::string show(std::uint64_t bits, isa::Type type) {
  switch (type) {
    case isa::Type::F32: return fmt::format("{:.9g}", std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    case isa::Type::S32: return fmt::format("{}", static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)));
    default: return fmt::format("{}", bits);
  }
}

std::string within(const Expectation& e) {
  if (e.tolerance == 0 && e.relative == 0) return "";
  if (e.relative == 0) return fmt::format(" within {:g}", e.tolerance);
  if (e.tolerance == 0) return fmt::format(" within {:g} relative", e.relative);
  return fmt::format(" within {:g} + {:g} relative", e.tolerance, e.relative);
}

}  // namespace

Verdict compare(const Expectation& e, const Comparison& c, const std::string& what) {
  const bool exact = e.tolerance == 0 && e.relative == 0;
  const bool single_want = c.want.size() == (c.want_is_sum ? sizeof(double) : isa::type_bytes(c.want_type));
  for (std::uint64_t i = c.first; i < c.first + c.count; ++i) {
    const std::uint64_t got_bits = bits_at(c.got, c.type, i);
    const double got = as_double(got_bits, c.type);
    double want = 0;
    std::uint64_t want_bits = 0;
    if (c.want_is_sum) {
      std::memcpy(&want, c.want.data(), sizeof want);
    } else {
      want_bits = bits_at(c.want, c.want_type, single_want ? 0 : c.offset + (i - c.first) * c.stride);
      want = as_double(want_bits, c.want_type);
    }
    bool ok;
    if (!c.want_is_sum && exact && c.type != isa::Type::F32 && c.want_type == c.type)
      ok = got_bits == want_bits;  // integers: exactly, even above 2^53
    else
      ok = got == want || (std::isnan(got) && std::isnan(want)) ||
           std::fabs(got - want) <= e.tolerance + e.relative * std::fabs(want);
    if (!ok) {
      const std::string want_text = c.want_is_sum ? fmt::format("{:.9g}", want) : show(want_bits, c.want_type);
      return {false, fmt::format("{}[{}] = {}, expected {} ({}){}", e.buffer, i, show(got_bits, c.type), want_text, what,
                                 within(e))};
    }
  }
  if (c.count == 1) {
    const std::uint64_t got_bits = bits_at(c.got, c.type, c.first);
    return {true, fmt::format("{}[{}] = {} equals {}{}", e.buffer, c.first, show(got_bits, c.type), what, within(e))};
  }
  return {true, fmt::format("{} elements of {} equal {}{}", c.count, e.buffer, what, within(e))};
}

}  // namespace warpsim::kernels
