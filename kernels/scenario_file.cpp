#include "kernels/scenario_file.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "device/errors.hpp"
#include "isa/literal.hpp"
#include "isa/source_file.hpp"
#include "kernels/buffer_init.hpp"
#include "kernels/expectation.hpp"
#include "kernels/size_expr.hpp"

namespace warpsim::kernels {

namespace {

using Json = nlohmann::ordered_json;

// The file as read: sizes and arguments stay text until the parameters are known.
struct FileBuffer {
  BufferSpec spec;        // count left 0; `count` below gives it
  std::string count;      // an expression; "" for a file buffer that takes the whole file
  bool on_device = true;  // false: a host-only reference, never allocated (an expected result)
};

struct FileLaunch {
  std::string file, kernel;  // kernel "" when the file holds one
  std::array<std::string, 3> grid{"1", "1", "1"}, block{"1", "1", "1"};
  std::vector<std::pair<std::string, std::string>> args;  // kernel parameter -> buffer name, expression or literal
};

struct Definition {
  std::string source;  // the file as named in messages
  std::string name, description, folder;  // folder: where relative paths start; "" for embedded files
  bool embedded = false;
  std::vector<ParamSpec> params;
  std::vector<FileBuffer> buffers;
  std::vector<FileLaunch> launches;
  std::vector<Expectation> expectations;
};

// Reading the JSON: every mistake names the file and the place in it.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& why) const {
    throw Error(fmt::format("{}: {}: {}", file_, where, why));
  }
  void keys(const Json& j, const std::string& where, std::initializer_list<std::string_view> allowed) const {
    if (!j.is_object()) fail(where, "expected an object { ... }");
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      std::string names;
      for (auto a : allowed) {
        known = known || a == key;
        names += (names.empty() ? "" : ", ") + std::string(a);
      }
      if (!known) fail(where, fmt::format("unknown key '{}' (known: {})", key, names));
    }
  }
  std::string text(const Json& j, const std::string& where) const {
    if (j.is_string()) return j.get<std::string>();
    if (j.is_number_integer() || j.is_number_unsigned() || j.is_number_float()) return j.dump();
    fail(where, "expected a number or a string");
  }
  std::string string(const Json& j, const std::string& where) const {
    if (!j.is_string()) fail(where, "expected a string");
    return j.get<std::string>();
  }
  double number(const Json& j, const std::string& where) const {
    if (!j.is_number() || j.get<double>() < 0) fail(where, "expected a number of at least 0");
    return j.get<double>();
  }
  std::uint64_t integer(const Json& j, const std::string& where) const {
    if (!j.is_number_unsigned()) fail(where, "expected an integer of at least 0");
    return j.get<std::uint64_t>();
  }
  std::array<std::string, 3> dim3(const Json& j, const std::string& where) const {
    std::array<std::string, 3> out{"1", "1", "1"};
    if (!j.is_array()) {
      out[0] = text(j, where);
      return out;
    }
    if (j.empty() || j.size() > 3) fail(where, "expected 1 to 3 sizes [x, y, z]");
    for (std::size_t i = 0; i < j.size(); ++i) out[i] = text(j[i], fmt::format("{}[{}]", where, i));
    return out;
  }

  Definition read(const Json& root) const {
    Definition d;
    keys(root, "the file", {"name", "description", "params", "buffers", "launches", "expect"});
    if (root.contains("name")) d.name = string(root["name"], "name");
    if (root.contains("description")) d.description = string(root["description"], "description");
    if (root.contains("params")) {
      if (!root["params"].is_object()) fail("params", "expected an object {\"NAME\": {\"default\": ...}}");
      for (const auto& [name, p] : root["params"].items()) {
        const auto where = "params." + name;
        keys(p, where, {"default", "min", "max", "help"});
        ParamSpec spec{name, 0, "", 0, 0xffffffffu};
        if (!p.contains("default")) fail(where, "a parameter needs a default");
        spec.default_value = integer(p["default"], where + ".default");
        if (p.contains("min")) spec.min = integer(p["min"], where + ".min");
        if (p.contains("max")) spec.max = integer(p["max"], where + ".max");
        if (p.contains("help")) spec.help = string(p["help"], where + ".help");
        if (spec.default_value < spec.min || spec.default_value > spec.max)
          fail(where, fmt::format("default {} is outside {}..{}", spec.default_value, spec.min, spec.max));
        d.params.push_back(std::move(spec));
      }
    }
    if (!root.contains("buffers") || !root["buffers"].is_object()) fail("buffers", "expected an object of buffers");
    for (const auto& [name, b] : root["buffers"].items()) d.buffers.push_back(buffer(name, b));
    if (!root.contains("launches") || !root["launches"].is_array() || root["launches"].empty())
      fail("launches", "expected a list of at least one launch");
    for (std::size_t i = 0; i < root["launches"].size(); ++i)
      d.launches.push_back(launch(root["launches"][i], fmt::format("launches[{}]", i)));
    if (root.contains("expect")) {
      if (!root["expect"].is_array()) fail("expect", "expected a list of expectations");
      for (std::size_t i = 0; i < root["expect"].size(); ++i)
        d.expectations.push_back(expectation(root["expect"][i], fmt::format("expect[{}]", i), d));
    }
    return d;
  }

 private:
  FileBuffer buffer(const std::string& name, const Json& b) const {
    const auto where = "buffers." + name;
    keys(b, where, {"type", "count", "init", "value", "start", "step", "bound", "file", "device"});
    FileBuffer out;
    out.spec.name = name;
    out.spec.origin = fmt::format("{}: buffer", file_);
    const auto type_name = b.contains("type") ? string(b["type"], where + ".type") : std::string();
    const auto type = isa::type_from_name(type_name);
    if (!type || *type == isa::Type::Pred) fail(where + ".type", "expected u32, s32, u64 or f32");
    out.spec.type = *type;
    const auto init = b.contains("init") ? string(b["init"], where + ".init") : std::string("zeros");
    auto allow = [&](std::initializer_list<std::string_view> extra) {
      for (const auto& [key, value] : b.items()) {
        if (key == "type" || key == "count" || key == "init" || key == "device") continue;
        bool ok = false;
        for (auto e : extra) ok = ok || e == key;
        if (!ok) fail(where, fmt::format("'{}' does not apply to init '{}'", key, init));
      }
    };
    using Init = BufferSpec::Init;
    if (init == "zeros") {
      allow({});
    } else if (init == "const") {
      allow({"value"});
      out.spec.init = Init::Constant;
      if (!b.contains("value")) fail(where, "const needs a value");
      out.spec.value = text(b["value"], where + ".value");
    } else if (init == "iota") {
      allow({"start", "step"});
      out.spec.init = Init::Iota;
      if (b.contains("start")) out.spec.value = text(b["start"], where + ".start");
      if (b.contains("step")) out.spec.step = text(b["step"], where + ".step");
    } else if (init == "random") {
      allow({"bound"});
      out.spec.init = Init::Random;
      if (b.contains("bound")) out.spec.value = text(b["bound"], where + ".bound");
    } else if (init == "file") {
      allow({"file"});
      out.spec.init = Init::File;
      if (!b.contains("file")) fail(where, "init 'file' needs \"file\": PATH");
      out.spec.path = string(b["file"], where + ".file");
    } else {
      fail(where + ".init", fmt::format("unknown initialiser '{}' (zeros, const, iota, random, file)", init));
    }
    if (b.contains("count")) out.count = text(b["count"], where + ".count");
    else if (out.spec.init != Init::File) fail(where, "a buffer needs a count");
    if (b.contains("device")) {
      if (!b["device"].is_boolean()) fail(where + ".device", "expected true or false");
      out.on_device = b["device"].get<bool>();
    }
    return out;
  }

  FileLaunch launch(const Json& l, const std::string& where) const {
    keys(l, where, {"kernel", "grid", "block", "args"});
    FileLaunch out;
    if (!l.contains("kernel")) fail(where, "a launch needs a kernel (\"FILE.kir\" or {\"file\": ..., \"name\": ...})");
    if (l["kernel"].is_object()) {
      keys(l["kernel"], where + ".kernel", {"file", "name"});
      out.file = string(l["kernel"].value("file", Json()), where + ".kernel.file");
      if (l["kernel"].contains("name")) out.kernel = string(l["kernel"]["name"], where + ".kernel.name");
    } else {
      out.file = string(l["kernel"], where + ".kernel");
    }
    if (!l.contains("grid") || !l.contains("block")) fail(where, "a launch needs a grid and a block");
    out.grid = dim3(l["grid"], where + ".grid");
    out.block = dim3(l["block"], where + ".block");
    if (l.contains("args")) {
      if (!l["args"].is_object()) fail(where + ".args", "expected an object {\"PARAMETER\": VALUE}");
      for (const auto& [name, value] : l["args"].items()) out.args.emplace_back(name, text(value, where + ".args." + name));
    }
    return out;
  }

  Expectation expectation(const Json& e, const std::string& where, const Definition& d) const {
    keys(e, where, {"buffer", "equals", "index", "count", "tolerance", "relative"});
    Expectation out;
    out.buffer = string(e.value("buffer", Json()), where + ".buffer");
    auto known = [&](const std::string& name, const std::string& at) {
      for (const auto& b : d.buffers)
        if (b.spec.name == name) return &b;
      fail(at, fmt::format("no buffer named '{}'", name));
    };
    if (!known(out.buffer, where + ".buffer")->on_device) fail(where + ".buffer", "a host-only buffer has no result to check");
    if (!e.contains("equals")) fail(where, "an expectation needs \"equals\"");
    const auto& eq = e["equals"];
    keys(eq, where + ".equals", {"file", "buffer", "initial", "value", "sum_of", "stride", "offset"});
    int kinds = 0;
    using A = Expectation::Against;
    for (const auto& [key, kind] : {std::pair{"file", A::File}, std::pair{"buffer", A::Buffer}, std::pair{"initial", A::Initial},
                                    std::pair{"value", A::Value}, std::pair{"sum_of", A::SumOf}})
      if (eq.contains(key)) {
        ++kinds;
        out.against = kind;
        out.reference = key == std::string_view("value") ? text(eq[key], where + ".equals.value")
                                                         : string(eq[key], where + ".equals." + key);
      }
    if (kinds != 1) fail(where + ".equals", "give exactly one of file, buffer, initial, value, sum_of");
    if (out.against == A::Buffer || out.against == A::Initial || out.against == A::SumOf) {
      const auto* ref = known(out.reference, where + ".equals");
      if (out.against == A::Buffer && !ref->on_device) fail(where + ".equals", "a host-only buffer is compared with \"initial\"");
    }
    if (eq.contains("stride") || eq.contains("offset")) {
      if (out.against != A::Buffer && out.against != A::Initial) fail(where + ".equals", "stride and offset apply to buffer and initial");
      if (eq.contains("stride")) out.stride = text(eq["stride"], where + ".equals.stride");
      if (eq.contains("offset")) out.offset = text(eq["offset"], where + ".equals.offset");
    }
    if (e.contains("index")) out.index = text(e["index"], where + ".index");
    if (e.contains("count")) out.count = text(e["count"], where + ".count");
    if (!out.index.empty() && !out.count.empty()) fail(where, "give index (one element) or count, not both");
    if (e.contains("tolerance")) out.tolerance = number(e["tolerance"], where + ".tolerance");
    if (e.contains("relative")) out.relative = number(e["relative"], where + ".relative");
    return out;
  }

  std::string file_;
};

class FileScenario final : public Scenario {
 public:
  explicit FileScenario(Definition d) : d_(std::move(d)) {}
  std::string_view name() const override { return d_.name; }
  std::string_view description() const override { return d_.description; }
  std::string_view kernel_file() const override { return d_.launches.front().file; }
  std::vector<ParamSpec> params() const override { return d_.params; }
  Outcome run(Device& device, const Params& params, const RunOptions& options) const override;

 private:
  std::string path_of(const std::string& file) const {
    return d_.folder.empty() ? file : (std::filesystem::path(d_.folder) / file).string();
  }
  Definition d_;
};

struct LiveBuffer {
  const FileBuffer* declared = nullptr;
  std::uint64_t count = 0;
  std::uint64_t address = 0;          // on the device
  std::vector<std::byte> initial;     // kept when an expectation refers to it
  std::optional<std::size_t> output;  // index into Outcome::outputs once read back
};

Outcome FileScenario::run(Device& device, const Params& params, const RunOptions& options) const {
  Outcome out;
  Session s(device, options, out);
  std::map<std::string, LiveBuffer> live;
  SizeNames names{[&](std::string_view n) -> std::optional<std::uint64_t> {
                    const auto it = params.find(std::string(n));
                    if (it == params.end()) return std::nullopt;
                    return it->second;
                  },
                  [&](std::string_view n) -> std::optional<std::uint64_t> {
                    const auto it = live.find(std::string(n));
                    if (it == live.end()) return std::nullopt;
                    return it->second.count;
                  }};
  const std::string& file = d_.source;
  auto size = [&](const std::string& text, const std::string& what) { return evaluate_size(text, names, file + ": " + what); };
  auto referenced_initial = [&](const std::string& name) {
    for (const auto& e : d_.expectations)
      if ((e.against == Expectation::Against::Initial || e.against == Expectation::Against::SumOf) && e.reference == name)
        return true;
    return false;
  };

  // Buffers in the order written; the k-th takes seed + k for `random`.
  std::uint64_t seed = options.seed;
  for (const auto& b : d_.buffers) {
    LiveBuffer l;
    l.declared = &b;
    BufferSpec spec = b.spec;
    if (spec.init == BufferSpec::Init::File) spec.path = path_of(spec.path);
    if (!b.count.empty()) {
      spec.count = size(b.count, "buffers." + spec.name + ".count");
      if (spec.count == 0) throw Error(fmt::format("{}: buffer {} has 0 elements", file, spec.name));
    }
    // Integer values may be written in terms of the parameters ("stride * 4").
    auto resolve = [&](std::string& value, const char* key) {
      std::string why;
      if (value.empty() || spec.type == isa::Type::F32 || isa::parse_literal(value, spec.type, why)) return;
      value = std::to_string(size(value, fmt::format("buffers.{}.{}", spec.name, key)));
    };
    resolve(spec.value, spec.init == BufferSpec::Init::Iota ? "start" : spec.init == BufferSpec::Init::Random ? "bound" : "value");
    resolve(spec.step, "step");
    check_buffer_spec(spec);
    l.count = spec.init == BufferSpec::Init::File ? file_elements(spec) : spec.count;
    const std::uint64_t bytes = l.count * isa::type_bytes(spec.type);
    if (b.on_device && spec.init == BufferSpec::Init::Zeros && !referenced_initial(spec.name)) {
      l.address = s.zeros(spec.name, bytes);  // device memory comes zeroed: no host copy
    } else {
      auto contents = make_contents(spec, l.count, seed);
      if (b.on_device) l.address = s.upload(spec.name, contents);
      if (referenced_initial(spec.name) || !b.on_device) l.initial = std::move(contents);
    }
    ++seed;
    live.emplace(spec.name, std::move(l));
  }

  for (std::size_t i = 0; i < d_.launches.size(); ++i) {
    const auto& launch = d_.launches[i];
    const auto where = fmt::format("launches[{}]", i);
    const auto& kernel = d_.embedded ? s.kernel(launch.file, launch.kernel) : s.kernel_at(path_of(launch.file), launch.kernel);
    auto dim = [&](const std::array<std::string, 3>& d, const std::string& what) {
      std::array<std::uint32_t, 3> v{};
      for (std::size_t k = 0; k < 3; ++k) {
        const auto x = size(d[k], where + "." + what);
        if (x == 0 || x > 0xffffffffull)
          throw Error(fmt::format("{}: {}.{}: {} = {} is not a size from 1 to 2^32-1", file, where, what, d[k], x));
        v[k] = static_cast<std::uint32_t>(x);
      }
      return Dim3{v[0], v[1], v[2]};
    };
    const Dim3 grid = dim(launch.grid, "grid"), block = dim(launch.block, "block");
    const auto& k = *kernel.kernel;
    for (const auto& [name, value] : launch.args)
      if (std::none_of(k.params.begin(), k.params.end(), [&](std::uint32_t r) { return k.registers[r].name == name; }))
        throw Error(fmt::format("{}: {}.args: kernel '{}' has no parameter '{}'", file, where, k.name, name));
    std::vector<std::uint64_t> args;
    for (auto reg : k.params) {
      const auto& p = k.registers[reg];
      // An argument not given takes the buffer or the parameter of the same name.
      auto given = std::find_if(launch.args.begin(), launch.args.end(), [&](const auto& a) { return a.first == p.name; });
      const std::string value = given != launch.args.end() ? given->second : p.name;
      const auto what = fmt::format("{}: {}: parameter '{}' of '{}'", file, where, p.name, k.name);
      if (p.pointee != isa::Type::None) {
        const auto it = live.find(value);
        if (it == live.end() || !it->second.declared->on_device)
          throw Error(fmt::format("{} (ptr.{}) needs a buffer; there is none named '{}'", what, isa::type_name(p.pointee), value));
        if (it->second.declared->spec.type != p.pointee)
          throw Error(fmt::format("{} is ptr.{}, but buffer '{}' holds {}", what, isa::type_name(p.pointee), value,
                                  isa::type_name(it->second.declared->spec.type)));
        args.push_back(it->second.address);
        continue;
      }
      if (given == launch.args.end() && !params.count(p.name))
        throw Error(fmt::format("{} ({}) has no value: add it to \"args\"", what, isa::type_name(p.type)));
      // A literal of the parameter's type as the IR writes it, else a size expression.
      std::string why;
      if (const auto bits = isa::parse_literal(value, p.type, why)) {
        args.push_back(p.type == isa::Type::S32 ? (*bits & 0xffffffffull) : *bits);
        continue;
      }
      if (p.type == isa::Type::F32) throw Error(fmt::format("{}: {}", what, why));
      const auto v = size(value, where + ".args." + p.name);
      if (p.type != isa::Type::U64 && v > (p.type == isa::Type::S32 ? 0x7fffffffull : 0xffffffffull))
        throw Error(fmt::format("{}: {} = {} is out of range for {}", what, value, v, isa::type_name(p.type)));
      args.push_back(v);
    }
    s.launch(kernel, grid, block, std::move(args));
  }

  // Read back what the expectations look at (every device buffer for validate), in order.
  auto read_back = [&](const std::string& name) {
    auto& l = live.at(name);
    if (l.output) return;
    const auto& spec = l.declared->spec;
    s.download_bytes(l.address, l.count * isa::type_bytes(spec.type), spec.type == isa::Type::F32);
    l.output = out.outputs.size() - 1;
  };
  for (const auto& e : d_.expectations) {
    read_back(e.buffer);
    if (e.against == Expectation::Against::Buffer) read_back(e.reference);
  }
  if (options.read_all_buffers)
    for (const auto& b : d_.buffers)
      if (b.on_device) read_back(b.spec.name);

  if (d_.expectations.empty()) return out;
  out.checked = true;
  std::vector<std::string> passed;
  for (std::size_t i = 0; i < d_.expectations.size(); ++i) {
    const auto& e = d_.expectations[i];
    const auto where = fmt::format("expect[{}]", i);
    const auto& checked = live.at(e.buffer);
    Comparison c;
    c.type = c.want_type = checked.declared->spec.type;
    c.got = out.outputs[*checked.output].bytes;
    if (!e.index.empty()) {
      c.first = size(e.index, where + ".index");
      c.count = 1;
    } else {
      c.count = e.count.empty() ? checked.count : size(e.count, where + ".count");
    }
    if (c.first + c.count > checked.count || c.count == 0)
      throw Error(fmt::format("{}: {}: elements {}..{} of '{}', which holds {}", file, where, c.first,
                              c.first + c.count - 1, e.buffer, checked.count));
    std::string what;
    std::vector<std::byte> storage;
    using A = Expectation::Against;
    switch (e.against) {
      case A::Value: {
        const auto bits = parse_value(e.reference, c.type, file + ": " + where + ".equals.value");
        storage.resize(isa::type_bytes(c.type));
        std::memcpy(storage.data(), &bits, storage.size());
        c.want = storage;
        what = e.reference;
        break;
      }
      case A::File: {
        std::string why;
        const auto path = path_of(e.reference);
        const std::uint64_t bytes = c.count * isa::type_bytes(c.type);
        std::uint64_t file_bytes = 0;
        const auto contents = isa::read_regular_file(path, bytes, why, &file_bytes);
        if (!contents && file_bytes > bytes)
          throw Error(fmt::format("{}: {}: '{}' holds {} bytes, more than the {} {} elements compared ({} bytes)", file,
                                  where, e.reference, file_bytes, c.count, isa::type_name(c.type), bytes));
        if (!contents) throw Error(fmt::format("{}: {}: '{}' {}", file, where, e.reference, why));
        if (contents->size() != bytes)
          throw Error(fmt::format("{}: {}: '{}' holds {} bytes, fewer than the {} {} elements compared ({} bytes)", file,
                                  where, e.reference, contents->size(), c.count, isa::type_name(c.type), bytes));
        storage.resize(bytes);
        std::memcpy(storage.data(), contents->data(), bytes);
        c.want = storage;
        c.offset = 0;
        what = fmt::format("file {}", e.reference);
        break;
      }
      case A::Buffer:
      case A::Initial: {
        const auto& ref = live.at(e.reference);
        c.want_type = ref.declared->spec.type;
        c.want = e.against == A::Buffer ? std::span<const std::byte>(out.outputs[*ref.output].bytes)
                                        : std::span<const std::byte>(ref.initial);
        c.stride = size(e.stride, where + ".equals.stride");
        c.offset = size(e.offset, where + ".equals.offset");
        const std::uint64_t base = c.offset;
        // One element of each: the chosen element is compared with the reference's element of the same index.
        if (c.count == 1) c.offset += c.first * c.stride;
        if (c.offset + (c.count - 1) * c.stride >= ref.count)
          throw Error(fmt::format("{}: {}: '{}' holds {} elements, fewer than offset + (count-1) * stride = {} + 1", file,
                                  where, e.reference, ref.count, c.offset + (c.count - 1) * c.stride));
        const std::string index = c.stride == 1 && base == 0 ? ""
                                  : base == 0                        ? fmt::format("[{}*i]", c.stride)
                                                                     : fmt::format("[{}+{}*i]", base, c.stride);
        what = fmt::format("{}{}{}", e.against == A::Initial ? "initial " : "", e.reference, index);
        break;
      }
      case A::SumOf: {
        const auto& ref = live.at(e.reference);
        double sum = 0;
        const unsigned bytes = isa::type_bytes(ref.declared->spec.type);
        for (std::uint64_t j = 0; j < ref.count; ++j) {
          std::uint64_t bits = 0;
          std::memcpy(&bits, ref.initial.data() + j * bytes, bytes);
          sum += ref.declared->spec.type == isa::Type::F32 ? double(std::bit_cast<float>(static_cast<std::uint32_t>(bits)))
                 : ref.declared->spec.type == isa::Type::S32 ? double(static_cast<std::int32_t>(bits))
                                                             : double(bits);
        }
        storage.resize(sizeof sum);
        std::memcpy(storage.data(), &sum, sizeof sum);
        c.want = storage;
        c.want_is_sum = true;
        what = fmt::format("the double-precision sum of initial {}, {:.9g}", e.reference, sum);
        break;
      }
    }
    auto verdict = compare(e, c, what);
    if (!verdict.passed) {
      out.passed = false;
      out.check = std::move(verdict.text);
      return out;
    }
    passed.push_back(std::move(verdict.text));
  }
  out.passed = true;
  out.check = fmt::format("{}", fmt::join(passed, "; "));
  return out;
}

Definition parse_definition(std::string_view text, const std::string& file) {
  Json root;
  try {
    root = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // nlohmann's message carries the byte offset; keep the part after "parse error".
    throw Error(fmt::format("{}: not valid JSON: {}", file, e.what()));
  }
  return Reader(file).read(root);
}

}  // namespace

std::unique_ptr<Scenario> load_scenario_file(const std::string& path) {
  std::string why;
  const auto text = isa::read_source_file(path, why);
  if (!text) throw Error(fmt::format("{}: {}", path, why));
  auto d = parse_definition(*text, path);
  d.source = path;
  if (d.name.empty()) d.name = path;
  d.folder = std::filesystem::path(path).parent_path().string();
  if (d.folder.empty()) d.folder = ".";
  return std::make_unique<FileScenario>(std::move(d));
}

std::unique_ptr<Scenario> load_embedded_scenario(std::string_view name) {
  for (const auto& f : embedded_files())
    if (f.name == name) {
      auto d = parse_definition(f.text, "kernels/" + std::string(name));
      d.source = "kernels/" + std::string(name);
      if (d.name.empty()) throw Error(fmt::format("kernels/{}: a built-in scenario needs a name", name), ExitCode::Internal);
      d.embedded = true;
      return std::make_unique<FileScenario>(std::move(d));
    }
  throw Error(fmt::format("no built-in scenario file '{}'", name), ExitCode::Internal);
}

}  // namespace warpsim::kernels
