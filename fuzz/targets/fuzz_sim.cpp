// libFuzzer target: kernels that parse and verify run on the simulator, small launches with an
// instruction limit. The first bytes pick the launch (block size, blocks, warp size, mode,
// reconvergence model); the rest is kernel text. Errors the simulator reports (warpsim::Error and
// its KernelFault) are expected answers; a crash, a hang or a sanitizer report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "device/errors.hpp"
#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "isa/verifier.hpp"
#include "sim/gpu.hpp"
#include "sim/reconvergence.hpp"

using namespace warpsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const std::uint8_t block = data[0], shape = data[1], scalar = data[2], flags = data[3];
  const std::string_view text(reinterpret_cast<const char*>(data + 4), size - 4);
  auto parsed = isa::parse(text, "fuzz.kir");
  if (!parsed.ok() || parsed.module.kernels.empty()) return 0;
  if (isa::has_errors(isa::verify(parsed.module, text))) return 0;
  const isa::Kernel& kernel = parsed.module.kernels.front();
  const isa::KernelAnalysis analysis = isa::analyze(kernel);

  sim::Config config;
  config.mode = flags & 1 ? sim::Mode::Timing : sim::Mode::Functional;
  const auto models = sim::reconvergence_models();
  config.reconvergence = models[(flags >> 1) % models.size()];
  config.threads = 1 + ((flags >> 3) & 1);
  const std::uint32_t warp_sizes[] = {32, 32, 8, 1, 5, 64, 16, 31};
  config.warp_size = warp_sizes[(flags >> 4) & 7];
  config.max_instructions = 20000;
  config.spin_limit = 2000;
  config.gpu.watchdog_cycles = 20000;
  try {
    sim::Gpu gpu(config);
    LaunchSpec spec;
    spec.kernel = &kernel;
    spec.analysis = &analysis;
    spec.file = "fuzz.kir";
    spec.source_text = std::string(text);
    spec.block = {1u + block % 96, 1u + (shape >> 6), 1};
    spec.grid = {1u + (shape & 3), 1u + ((shape >> 2) & 1), 1};
    spec.record_trace = shape & 0x10;
    for (std::uint32_t p : kernel.params) {
      const isa::Register& r = kernel.registers[p];
      if (r.pointee != isa::Type::None) {
        const std::uint64_t a = gpu.allocate(1024, r.name);
        std::vector<std::byte> bytes(1024);
        for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::byte(i * 7 + scalar);
        gpu.write(a, bytes);
        spec.args.push_back(a);
      } else {
        spec.args.push_back(scalar);
      }
    }
    (void)gpu.launch(spec);
  } catch (const Error&) {
  }
  return 0;
}
