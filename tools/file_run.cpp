#include "tools/file_run.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "isa/source_file.hpp"

namespace warpsim::cli {

namespace {

// A buffer file that cannot be used: invalid input.
[[noreturn]] void bad(const std::string& message) { throw Error(message, ExitCode::InvalidInput); }
// A mistake on the command line (an option's value, a parameter named wrongly, given twice or not
// at all): a usage error.
[[noreturn]] void usage(const std::string& message) { throw Error(message, ExitCode::Usage); }

// Parses one value of `type` from text, exactly as the user wrote it; out of range is an error.
std::uint64_t parse_value(std::string_view text, isa::Type type, const std::string& what) {
  if (type == isa::Type::F32) {
    const std::string s(text);
    char* end = nullptr;
    errno = 0;
    const float f = std::strtof(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size())
      usage(fmt::format("{}: '{}' is not an f32 number", what, text));
    if (errno == ERANGE && std::isinf(f)) usage(fmt::format("{}: '{}' is out of the f32 range", what, text));
    return std::bit_cast<std::uint32_t>(f);
  }
  if (type == isa::Type::F64) {
    const std::string s(text);
    char* end = nullptr;
    errno = 0;
    const double f = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) usage(fmt::format("{}: '{}' is not an f64 number", what, text));
    if (errno == ERANGE && std::isinf(f)) usage(fmt::format("{}: '{}' is out of the f64 range", what, text));
    return std::bit_cast<std::uint64_t>(f);
  }
  const bool negative = !text.empty() && text[0] == '-';
  std::string_view digits = negative ? text.substr(1) : text;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t magnitude = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    usage(fmt::format("{}: '{}' is not a{} {} integer", what, text, type == isa::Type::U64 ? "" : "n",
                    isa::type_name(type)));
  switch (type) {
    case isa::Type::U32:
      if (negative || magnitude > 0xffffffffull) usage(fmt::format("{}: {} is out of the u32 range", what, text));
      return magnitude;
    case isa::Type::S32: {
      const std::uint64_t limit = negative ? 0x80000000ull : 0x7fffffffull;
      if (magnitude > limit) usage(fmt::format("{}: {} is out of the s32 range", what, text));
      return static_cast<std::uint32_t>(negative ? 0u - static_cast<std::uint32_t>(magnitude) : static_cast<std::uint32_t>(magnitude));
    }
    case isa::Type::U64:
      if (negative) usage(fmt::format("{}: {} is out of the u64 range", what, text));
      return magnitude;
    case isa::Type::S64:
      if (magnitude > (negative ? 0x8000000000000000ull : 0x7fffffffffffffffull))
        usage(fmt::format("{}: {} is out of the s64 range", what, text));
      return negative ? 0 - magnitude : magnitude;
    case isa::Type::U8:
    case isa::Type::U16: {
      const std::uint64_t limit = type == isa::Type::U8 ? 0xff : 0xffff;
      if (negative || magnitude > limit) usage(fmt::format("{}: {} is out of the {} range", what, text, isa::type_name(type)));
      return magnitude;
    }
    case isa::Type::S8:
    case isa::Type::S16: {
      const std::uint64_t half = type == isa::Type::S8 ? 0x80 : 0x8000;
      if (magnitude > (negative ? half : half - 1)) usage(fmt::format("{}: {} is out of the {} range", what, text, isa::type_name(type)));
      return (negative ? 0 - magnitude : magnitude) & (2 * half - 1);
    }
    default: usage(fmt::format("{}: values of type {} cannot be given", what, isa::type_name(type)));
  }
}

// Why `path` cannot be written, without creating or truncating it: nullopt when it can.
std::optional<std::string> unwritable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) return "it is a directory";
    if (::access(path.c_str(), W_OK) != 0) return "permission denied";
    return std::nullopt;
  }
  const auto parent = fs::path(path).parent_path();
  const std::string folder = parent.empty() ? "." : parent.string();
  if (!fs::is_directory(folder, ec)) return fmt::format("there is no folder '{}'", folder);
  if (::access(folder.c_str(), W_OK) != 0) return fmt::format("folder '{}' is not writable", folder);
  return std::nullopt;
}

void put(std::vector<std::byte>& bytes, std::size_t index, std::uint64_t bits, unsigned size) {
  std::memcpy(bytes.data() + index * size, &bits, size);  // little-endian like the devices
}

// The elements a file:PATH buffer holds, from the file's size: the declared count when given (the
// file must hold exactly that many), else as many as the file holds.
std::uint64_t file_elements(const BufferSpec& b) {
  const unsigned size = isa::type_bytes(b.type);
  std::string why;
  const auto bytes = isa::regular_file_size(b.path, why);
  if (!bytes) bad(fmt::format("--buffer {}: '{}' {}", b.name, b.path, why));
  if (*bytes == 0) bad(fmt::format("--buffer {}: '{}' is empty; a buffer needs at least one element", b.name, b.path));
  if (*bytes % size != 0)
    bad(fmt::format("--buffer {}: '{}' holds {} bytes, not a whole number of {} elements", b.name, b.path, *bytes,
                    isa::type_name(b.type)));
  if (b.count != 0 && b.count * size != *bytes)
    bad(fmt::format("--buffer {}: '{}' holds {} {} elements, {} than the {} declared{}", b.name, b.path, *bytes / size,
                    isa::type_name(b.type), *bytes / size < b.count ? "fewer" : "more", b.count,
                    *bytes / size < b.count ? "" : " (leave out the count to take the whole file)"));
  return *bytes / size;
}

std::vector<std::byte> make_contents(const BufferSpec& b, std::uint64_t count, std::uint64_t seed) {
  const unsigned size = isa::type_bytes(b.type);
  std::vector<std::byte> bytes;
  if (b.init == BufferSpec::Init::File) {
    // Exactly count elements: a file that changed since it was measured is refused, never read on.
    std::string why;
    std::uint64_t file_bytes = 0;
    const auto contents = isa::read_regular_file(b.path, count * size, why, &file_bytes);
    if (!contents && file_bytes > count * size)
      bad(fmt::format("--buffer {}: '{}' holds more than the {} elements declared", b.name, b.path, count));
    if (!contents) bad(fmt::format("--buffer {}: '{}' {}", b.name, b.path, why));
    if (contents->size() != count * size)
      bad(fmt::format("--buffer {}: '{}' holds {} bytes, fewer than the {} elements declared", b.name, b.path,
                      contents->size(), count));
    bytes.resize(contents->size());
    std::memcpy(bytes.data(), contents->data(), contents->size());
    return bytes;
  }
  bytes.resize(count * size);
  const std::string what = fmt::format("--buffer {}", b.name);
  switch (b.init) {
    case BufferSpec::Init::Zeros: break;
    case BufferSpec::Init::Constant: {
      const auto bits = parse_value(b.value, b.type, what);
      for (std::uint64_t i = 0; i < count; ++i) put(bytes, i, bits, size);
      break;
    }
    case BufferSpec::Init::Iota: {
      const auto start = b.value.empty() ? 0 : parse_value(b.value, b.type, what);
      for (std::uint64_t i = 0; i < count; ++i) {
        if (b.type == isa::Type::F32)
          put(bytes, i, std::bit_cast<std::uint32_t>(std::bit_cast<float>(static_cast<std::uint32_t>(start)) + float(i)), size);
        else if (b.type == isa::Type::F64)
          put(bytes, i, std::bit_cast<std::uint64_t>(std::bit_cast<double>(start) + double(i)), size);
        else
          put(bytes, i, start + i, size);
      }
      break;
    }
    case BufferSpec::Init::Random: {
      if (b.type == isa::Type::F32 || b.type == isa::Type::F64) {
        const auto values = kernels::random_floats(count, seed);
        for (std::uint64_t i = 0; i < count; ++i)
          put(bytes, i, b.type == isa::Type::F32 ? std::uint64_t{std::bit_cast<std::uint32_t>(values[i])}
                                                 : std::bit_cast<std::uint64_t>(double(values[i])), size);
      } else {
        const std::uint64_t bound = b.value.empty() ? 0 : parse_value(b.value, isa::Type::U64, what);
        if (bound > 0xffffffffull) usage(fmt::format("{}: random bound {} is larger than 2^32-1", what, bound));
        const auto lo = kernels::random_u32(count, seed, static_cast<std::uint32_t>(bound));
        const auto hi = kernels::random_u32(count, seed ^ 0x5bd1e995u, static_cast<std::uint32_t>(bound));
        for (std::uint64_t i = 0; i < count; ++i)
          put(bytes, i, b.type == isa::Type::U64 && bound == 0 ? (std::uint64_t{hi[i]} << 32 | lo[i]) : lo[i], size);
      }
      break;
    }
    case BufferSpec::Init::File: break;
  }
  return bytes;
}

}  // namespace

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
    usage(fmt::format("--buffer {}: unknown element type '{}' (u8, s8, u16, s16, u32, s32, u64, s64, f32 or f64)", b.name, type_name));
  b.type = *type;
  if (bracket != std::string::npos) {
    if (shape.back() != ']') usage(fmt::format("--buffer {}: '{}' lacks its closing ']'", b.name, shape));
    const auto count = shape.substr(bracket + 1, shape.size() - bracket - 2);
    if (!count.empty() && count[0] == '-') usage(fmt::format("--buffer {}: negative element count {}", b.name, count));
    b.count = parse_value(count, isa::Type::U64, "--buffer " + b.name);
    if (b.count == 0) usage(fmt::format("--buffer {}: a buffer needs at least one element", b.name));
    if (b.count > (1ull << 34)) usage(fmt::format("--buffer {}: {} elements is more than this tool allocates", b.name, b.count));
  }
  const auto init_colon = init.find(':');
  const std::string kind = init.substr(0, init_colon);
  const std::string arg = init_colon == std::string::npos ? "" : init.substr(init_colon + 1);
  if (kind == "zeros") b.init = BufferSpec::Init::Zeros;
  else if (kind == "const" || kind == "constant") b.init = BufferSpec::Init::Constant;
  else if (kind == "iota") b.init = BufferSpec::Init::Iota;
  else if (kind == "random") b.init = BufferSpec::Init::Random;
  else if (kind == "file") b.init = BufferSpec::Init::File;
  else usage(fmt::format("--buffer {}: unknown initialiser '{}' (zeros, const:V, iota[:START], random[:BOUND], file:PATH)", b.name, kind));
  if (b.init == BufferSpec::Init::Random && isa::is_float(b.type) && !arg.empty())
    usage(fmt::format("--buffer {}: random {} values lie in [0, 1); a bound applies to integer buffers only", b.name,
                      isa::type_name(b.type)));
  if (b.init == BufferSpec::Init::Constant && arg.empty()) usage(fmt::format("--buffer {}: const needs a value (const:V)", b.name));
  if (b.init == BufferSpec::Init::File) {
    if (arg.empty()) usage(fmt::format("--buffer {}: file needs a path (file:PATH)", b.name));
    b.path = arg;
  } else {
    b.value = arg;
  }
  if (b.count == 0 && b.init != BufferSpec::Init::File)
    usage(fmt::format("--buffer {}: give the element count, as in {}={}[1024]:{}", b.name, b.name, type_name, init));
  return b;
}

std::unique_ptr<kernels::LoadedKernel> load_kernel_file(const std::string& path, const std::string& kernel,
                                                        const std::vector<std::string>& nvcc_options) {
  if (!frontend::is_imported_file(path)) {
    if (!nvcc_options.empty()) usage("--nvcc-opt applies to .cu files");
    return kernels::load_kernel_file(path, kernel);
  }
  if (!nvcc_options.empty() && path.size() > 4 && path.compare(path.size() - 4, 4, ".ptx") == 0)
    usage("--nvcc-opt applies to .cu files; a .ptx file is already compiled");
  auto imported = frontend::import_file(path, {kernel, nvcc_options});
  return kernels::load_kernel(std::move(imported.kir), path, imported.kernel);
}

std::string kernel_file_text(const std::string& path, const std::vector<std::string>& nvcc_options) {
  if (frontend::is_imported_file(path)) return frontend::import_file(path, {"", nvcc_options}).kir;
  std::string why;
  auto text = isa::read_source_file(path, why);
  if (!text) throw Error(fmt::format("{}: {}", path, why));
  return std::move(*text);
}

kernels::Outcome run_file(Device& device, const FileRun& run, const kernels::RunOptions& options) {
  kernels::Outcome out;
  out.kernels.push_back(load_kernel_file(run.path, run.kernel, run.nvcc_options));
  const auto& loaded = *out.kernels.back();
  const auto& k = *loaded.kernel;

  std::map<std::string, std::string> args;
  for (const auto& [name, value] : run.args) {
    if (!args.emplace(name, value).second) usage(fmt::format("--arg {}: given twice", name));
  }
  std::map<std::string, const BufferSpec*> buffers;
  for (const auto& b : run.buffers)
    if (!buffers.emplace(b.name, &b).second) usage(fmt::format("--buffer {}: given twice", b.name));
  // Names first, so that a mistake costs nothing; dump paths before the run, so that its report is
  // not lost to a path that cannot be written.
  auto is_param = [&](const std::string& name) {
    const auto& params = k.params;
    return std::any_of(params.begin(), params.end(), [&](std::uint32_t r) { return k.registers[r].name == name; });
  };
  for (const auto& [name, value] : args)
    if (!is_param(name)) usage(fmt::format("--arg {}: kernel '{}' has no parameter '{}'", name, k.name, name));
  for (const auto& [name, spec] : buffers)
    if (!is_param(name)) usage(fmt::format("--buffer {}: kernel '{}' has no parameter '{}'", name, k.name, name));
  for (const auto& [name, path] : run.dumps) {
    if (!buffers.count(name)) usage(fmt::format("--dump {}: no buffer of that name", name));
    if (const auto why = unwritable(path)) bad(fmt::format("--dump {}: cannot write '{}': {}", name, path, *why));
  }

  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> allocated;  // name -> address, bytes
  std::vector<std::uint64_t> values;
  std::uint64_t seed = options.seed;
  for (auto reg : k.params) {
    const auto& p = k.registers[reg];
    const auto arg = args.find(p.name);
    const auto buf = buffers.find(p.name);
    if (p.pointee != isa::Type::None) {
      if (arg != args.end())
        usage(fmt::format("parameter '{}' of '{}' is a pointer (ptr.{}): give it with --buffer {}=...", p.name, k.name,
                        isa::type_name(p.pointee), p.name));
      if (buf == buffers.end())
        usage(fmt::format("parameter '{}' of '{}' (ptr.{}) has no buffer: add --buffer {}={}[COUNT]:zeros", p.name,
                        k.name, isa::type_name(p.pointee), p.name, isa::type_name(p.pointee)));
      if (buf->second->type != p.pointee)
        usage(fmt::format("--buffer {}: elements are {}, but parameter '{}' of '{}' is ptr.{}", p.name,
                        isa::type_name(buf->second->type), p.name, k.name, isa::type_name(p.pointee)));
      // The device refuses sizes it cannot hold before the host builds the contents.
      const auto& spec = *buf->second;
      const std::uint64_t count = spec.init == BufferSpec::Init::File ? file_elements(spec) : spec.count;
      const auto address = device.allocate(count * isa::type_bytes(spec.type), p.name);
      // Device memory comes zeroed: a zeros buffer needs no host copy (400 MB of it cost seconds).
      if (spec.init != BufferSpec::Init::Zeros) device.write(address, make_contents(spec, count, seed));
      ++seed;
      allocated[p.name] = {address, count * isa::type_bytes(spec.type)};
      values.push_back(address);
    } else {
      if (buf != buffers.end())
        usage(fmt::format("--buffer {}: parameter '{}' of '{}' is a {} scalar; give it with --arg {}=VALUE", p.name,
                        p.name, k.name, isa::type_name(p.type), p.name));
      if (arg == args.end())
        usage(fmt::format("parameter '{}' of '{}' ({}) has no value: add --arg {}=VALUE", p.name, k.name,
                        isa::type_name(p.type), p.name));
      values.push_back(parse_value(arg->second, p.type, "--arg " + p.name));
    }
  }
  kernels::Session session(device, options, out);
  session.launch(loaded, run.grid, run.block, std::move(values));

  // Only the buffers something looks at are read back: every one for validate (it compares them
  // between devices), else those dumped, each once.
  for (auto reg : k.params) {
    const auto& p = k.registers[reg];
    if (p.pointee == isa::Type::None) continue;
    const bool dumped = std::any_of(run.dumps.begin(), run.dumps.end(), [&](const auto& d) { return d.first == p.name; });
    if (!options.read_all_buffers && !dumped) continue;
    const auto [address, size] = allocated.at(p.name);
    kernels::OutputBuffer output{p.name, std::vector<std::byte>(size), p.pointee == isa::Type::F32};
    device.read(address, output.bytes);
    out.outputs.push_back(std::move(output));
  }
  for (const auto& [name, path] : run.dumps) {
    const auto& bytes =
        std::find_if(out.outputs.begin(), out.outputs.end(), [&](const auto& o) { return o.label == name; })->bytes;
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!file) bad(fmt::format("--dump {}: cannot write '{}'", name, path));
  }
  return out;
}

}  // namespace warpsim::cli
