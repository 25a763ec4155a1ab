#include "kernels/buffer_init.hpp"

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "isa/literal.hpp"
#include "isa/source_file.hpp"
#include "kernels/scenario.hpp"

namespace warpsim::kernels {

namespace {

// A buffer file that cannot be used: invalid input.
[[noreturn]] void bad(const std::string& message) { throw Error(message, ExitCode::InvalidInput); }
// A mistake in the specification itself: a usage error.
[[noreturn]] void usage(const std::string& message) { throw Error(message, ExitCode::Usage); }

std::string who(const BufferSpec& b) { return fmt::format("{} {}", b.origin, b.name); }

void put(std::span<std::byte> bytes, std::size_t index, std::uint64_t bits, unsigned size) {
  std::memcpy(bytes.data() + index * size, &bits, size);  // little-endian like the devices
}

std::string_view init_name(BufferSpec::Init init) {
  switch (init) {
    case BufferSpec::Init::Zeros: return "zeros";
    case BufferSpec::Init::Constant: return "const";
    case BufferSpec::Init::Iota: return "iota";
    case BufferSpec::Init::Random: return "random";
    case BufferSpec::Init::File: return "file";
  }
  return "zeros";
}

}  // namespace

std::string BufferSpec::text() const {
  std::string out = fmt::format("{}={}", name, isa::type_name(type));
  if (count != 0) out += fmt::format("[{}]", count);
  out += fmt::format(":{}", init_name(init));
  if (init == Init::File) return out + ":" + path;
  if (!value.empty()) out += ":" + value;
  if (!step.empty()) out += ":" + step;
  return out;
}

std::uint64_t parse_value(std::string_view text, isa::Type type, const std::string& what) {
  std::string why;
  const auto bits = isa::parse_literal(text, type, why);
  if (!bits) usage(fmt::format("{}: {}", what, why));
  return type == isa::Type::S32 ? (*bits & 0xffffffffull) : *bits;
}

void check_buffer_spec(const BufferSpec& b) {
  if (b.type == isa::Type::None || b.type == isa::Type::Pred)
    usage(fmt::format("{}: unknown element type (u8, s8, u16, s16, u32, s32, u64, s64, f32, f64 or a bit type)", who(b)));
  if (b.count == 0 && b.init != BufferSpec::Init::File)
    usage(fmt::format("{}: a buffer needs at least one element", who(b)));
  if (b.count > (1ull << 34)) usage(fmt::format("{}: {} elements is more than this tool allocates", who(b), b.count));
  if (b.init == BufferSpec::Init::Constant) parse_value(b.value, b.type, who(b));
  if (b.init == BufferSpec::Init::Iota) {
    if (!b.value.empty()) parse_value(b.value, b.type, who(b));
    if (!b.step.empty()) parse_value(b.step, b.type, who(b));
  }
  if (b.init == BufferSpec::Init::Random && !b.value.empty()) {
    if (b.type == isa::Type::F32) {
      const float bound = std::bit_cast<float>(static_cast<std::uint32_t>(parse_value(b.value, b.type, who(b))));
      if (!(bound > 0) || !std::isfinite(bound))
        usage(fmt::format("{}: random bound {} must be a positive finite f32", who(b), b.value));
    } else if (b.type == isa::Type::F64) {
      const double bound = std::bit_cast<double>(parse_value(b.value, b.type, who(b)));
      if (!(bound > 0) || !std::isfinite(bound))
        usage(fmt::format("{}: random bound {} must be a positive finite f64", who(b), b.value));
    } else {
      const auto bound = parse_value(b.value, isa::Type::U64, who(b));
      // Unbounded is written `random`: a bound of 0 would be an empty range, not "no bound".
      if (bound == 0) usage(fmt::format("{}: random bound 0 leaves no value to draw; write `random` for the full range", who(b)));
      if (bound > 0xffffffffull) usage(fmt::format("{}: random bound {} is larger than 2^32-1", who(b), bound));
    }
  }
  if (b.init == BufferSpec::Init::File && b.path.empty()) usage(fmt::format("{}: file needs a path (file:PATH)", who(b)));
}

BufferSpec parse_buffer_spec(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(fmt::format("--buffer: expected NAME=TYPE[COUNT]:INIT, found '{}'", text), ExitCode::Usage);
  BufferSpec b;
  b.name = text.substr(0, eq);
  std::string rest = text.substr(eq + 1);
  const auto colon = rest.find(':');
  const std::string shape = rest.substr(0, colon);
  const std::string init = colon == std::string::npos ? "zeros" : rest.substr(colon + 1);
  const auto bracket = shape.find('[');
  const std::string type_name = shape.substr(0, bracket);
  const auto type = isa::type_from_name(type_name);
  if (!type || *type == isa::Type::Pred)
    usage(fmt::format("--buffer {}: unknown element type '{}' (u32, s32, u64 or f32)", b.name, type_name));
  b.type = *type;
  if (bracket != std::string::npos) {
    if (shape.back() != ']') usage(fmt::format("--buffer {}: '{}' lacks its closing ']'", b.name, shape));
    const auto count = shape.substr(bracket + 1, shape.size() - bracket - 2);
    if (!count.empty() && count[0] == '-') usage(fmt::format("--buffer {}: negative element count {}", b.name, count));
    b.count = parse_value(count, isa::Type::U64, "--buffer " + b.name);
    if (b.count == 0) usage(fmt::format("--buffer {}: a buffer needs at least one element", b.name));
  }
  const auto init_colon = init.find(':');
  const std::string kind = init.substr(0, init_colon);
  std::string arg = init_colon == std::string::npos ? "" : init.substr(init_colon + 1);
  if (kind == "zeros") b.init = BufferSpec::Init::Zeros;
  else if (kind == "const" || kind == "constant") b.init = BufferSpec::Init::Constant;
  else if (kind == "iota") b.init = BufferSpec::Init::Iota;
  else if (kind == "random") b.init = BufferSpec::Init::Random;
  else if (kind == "file") b.init = BufferSpec::Init::File;
  else usage(fmt::format("--buffer {}: unknown initialiser '{}' (zeros, const:V, iota[:START[:STEP]], random[:BOUND], file:PATH)", b.name, kind));
  if (b.init == BufferSpec::Init::Constant && arg.empty()) usage(fmt::format("--buffer {}: const needs a value (const:V)", b.name));
  if (b.init == BufferSpec::Init::File) {
    if (arg.empty()) usage(fmt::format("--buffer {}: file needs a path (file:PATH)", b.name));
    b.path = arg;
  } else {
    if (b.init == BufferSpec::Init::Iota && arg.find(':') != std::string::npos) {
      b.step = arg.substr(arg.find(':') + 1);
      arg = arg.substr(0, arg.find(':'));
    }
    b.value = arg;
  }
  if (b.count == 0 && b.init != BufferSpec::Init::File)
    usage(fmt::format("--buffer {}: give the element count, as in {}={}[1024]:{}", b.name, b.name, type_name, init));
  check_buffer_spec(b);
  return b;
}

std::uint64_t file_elements(const BufferSpec& b) {
  const unsigned size = isa::type_bytes(b.type);
  std::string why;
  const auto bytes = isa::regular_file_size(b.path, why);
  if (!bytes) bad(fmt::format("{}: '{}' {}", who(b), b.path, why));
  if (*bytes == 0) bad(fmt::format("{}: '{}' is empty; a buffer needs at least one element", who(b), b.path));
  if (*bytes % size != 0)
    bad(fmt::format("{}: '{}' holds {} bytes, not a whole number of {} elements", who(b), b.path, *bytes,
                    isa::type_name(b.type)));
  if (b.count != 0 && b.count * size != *bytes)
    bad(fmt::format("{}: '{}' holds {} {} elements, {} than the {} declared{}", who(b), b.path, *bytes / size,
                    isa::type_name(b.type), *bytes / size < b.count ? "fewer" : "more", b.count,
                    *bytes / size < b.count ? "" : " (leave out the count to take the whole file)"));
  return *bytes / size;
}

std::vector<std::byte> make_contents(const BufferSpec& b, std::uint64_t count, std::uint64_t seed) {
  std::vector<std::byte> bytes(count * isa::type_bytes(b.type));
  fill_contents(b, count, seed, bytes);
  return bytes;
}

void fill_contents(const BufferSpec& b, std::uint64_t count, std::uint64_t seed, std::span<std::byte> bytes) {
  const unsigned size = isa::type_bytes(b.type);
  if (bytes.size() != count * size)
    throw Error(fmt::format("{}: {} bytes of storage for {} elements of {} bytes", who(b), bytes.size(), count, size),
                ExitCode::Internal);
  if (b.init == BufferSpec::Init::File) {
    // Exactly count elements: a file that changed since it was measured is refused, never read on.
    std::string why;
    std::uint64_t file_bytes = 0;
    const auto contents = isa::read_regular_file(b.path, count * size, why, &file_bytes);
    if (!contents && file_bytes > count * size)
      bad(fmt::format("{}: '{}' holds more than the {} elements declared", who(b), b.path, count));
    if (!contents) bad(fmt::format("{}: '{}' {}", who(b), b.path, why));
    if (contents->size() != count * size)
      bad(fmt::format("{}: '{}' holds {} bytes, fewer than the {} elements declared", who(b), b.path, contents->size(),
                      count));
    std::memcpy(bytes.data(), contents->data(), contents->size());
    return;
  }
  const std::string what = who(b);
  switch (b.init) {
    case BufferSpec::Init::Zeros: std::fill(bytes.begin(), bytes.end(), std::byte{0}); break;
    case BufferSpec::Init::Constant: {
      const auto bits = parse_value(b.value, b.type, what);
      for (std::uint64_t i = 0; i < count; ++i) put(bytes, i, bits, size);
      break;
    }
    case BufferSpec::Init::Iota: {
      const auto start = b.value.empty() ? 0 : parse_value(b.value, b.type, what);
      if (b.type == isa::Type::F32) {
        const float first = std::bit_cast<float>(static_cast<std::uint32_t>(start));
        const float step = b.step.empty() ? 1.0f : std::bit_cast<float>(static_cast<std::uint32_t>(parse_value(b.step, b.type, what)));
        for (std::uint64_t i = 0; i < count; ++i) put(bytes, i, std::bit_cast<std::uint32_t>(first + float(i) * step), size);
      } else if (b.type == isa::Type::F64) {
        const double first = std::bit_cast<double>(start);
        const double step = b.step.empty() ? 1.0 : std::bit_cast<double>(parse_value(b.step, b.type, what));
        for (std::uint64_t i = 0; i < count; ++i) put(bytes, i, std::bit_cast<std::uint64_t>(first + double(i) * step), size);
      } else {
        const std::uint64_t step = b.step.empty() ? 1 : parse_value(b.step, b.type, what);
        for (std::uint64_t i = 0; i < count; ++i) put(bytes, i, start + i * step, size);  // wraps like the type
      }
      break;
    }
    case BufferSpec::Init::Random: {
      // Drawn one value at a time, the sequences of random_floats and random_u32 (no vector of them).
      RandomStream r{seed};
      if (b.type == isa::Type::F32) {
        const float bound = b.value.empty() ? 1.0f : std::bit_cast<float>(static_cast<std::uint32_t>(parse_value(b.value, b.type, what)));
        for (std::uint64_t i = 0; i < count; ++i) {
          const float v = r.next_float();
          put(bytes, i, std::bit_cast<std::uint32_t>(b.value.empty() ? v : v * bound), size);
        }
      } else if (b.type == isa::Type::F64) {
        const double bound = b.value.empty() ? 1.0 : std::bit_cast<double>(parse_value(b.value, b.type, what));
        for (std::uint64_t i = 0; i < count; ++i) put(bytes, i, std::bit_cast<std::uint64_t>(double(r.next_float()) * bound), size);
      } else {
        // Integers: uniform below the bound, or over the whole type (the low bytes of a 32- or 64-bit
        // draw; a 64-bit one's high half from a second stream).
        const std::uint64_t bound = b.value.empty() ? 0 : parse_value(b.value, isa::Type::U64, what);
        const auto bound32 = static_cast<std::uint32_t>(bound);
        if (size == 8 && bound == 0) {
          RandomStream high{seed ^ 0x5bd1e995u};
          for (std::uint64_t i = 0; i < count; ++i) {
            const std::uint64_t lo = r.next_u32(0);
            put(bytes, i, std::uint64_t{high.next_u32(0)} << 32 | lo, size);
          }
        } else {
          for (std::uint64_t i = 0; i < count; ++i) put(bytes, i, r.next_u32(bound32), size);
        }
      }
      break;
    }
    case BufferSpec::Init::File: break;
  }
}

}  // namespace warpsim::kernels
