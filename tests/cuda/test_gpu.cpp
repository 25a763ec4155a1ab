#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuda/gpu.hpp"
#include "device/errors.hpp"
#include "kir.hpp"

using namespace warpsim;

TEST_CASE("cuda::Gpu says in one line why it is unavailable, or runs a divergent loop", "[cuda][gpu]") {
  if (auto reason = cuda::Gpu::unavailable_reason()) {
    CHECK(reason->find('\n') == std::string::npos);
    WARN("GPU tests skipped: " << *reason);
    CHECK_THROWS_AS(cuda::Gpu(cuda::GpuOptions{}), warpsim::Error);
    return;
  }
  std::ifstream in(std::filesystem::path(WARPSIM_KERNELS_DIR) / "divergent_loop.kir");
  std::stringstream text;
  text << in.rdbuf();
  auto m = test::parse_kir(text.str());
  cuda::GpuOptions options;
  options.repeats = 3;
  cuda::Gpu gpu(options);
  const std::uint32_t threads = 64;
  const auto out = gpu.allocate(threads * 4, "out");
  LaunchSpec spec;
  spec.kernel = &m.module.kernels[0];
  spec.analysis = &m.analyses[0];
  spec.grid = Dim3{1, 1, 1};
  spec.block = Dim3{threads, 1, 1};
  spec.args = {out};
  spec.record_trace = true;
  const LaunchResult r = gpu.launch(spec);

  std::vector<std::uint32_t> host(threads);
  gpu.read(out, std::as_writable_bytes(std::span(host)));
  for (std::uint32_t t = 0; t < threads; ++t) {
    const std::uint32_t trips = 6 + t % 3;
    CHECK(host[t] == trips * (trips - 1) / 2);
  }
  CHECK(r.stats.warps_launched == 2);
  CHECK(r.stats.kernel_ms > 0.0);
  REQUIRE(r.trace.has_value());
  REQUIRE(r.trace->warps.size() == 2);
  // The IR's loop runs 8 rounds; the last two only for some lanes: the branch splits twice per warp.
  REQUIRE(r.stats.branches.size() == 1);
  CHECK(r.stats.branches[0].executions == 16);
  CHECK(r.stats.branches[0].divergent_executions == 4);
  CHECK(r.trace->warps[0].events.front().basic_block == 0);
  CHECK(r.trace->warps[0].events.back().basic_block == kTraceExit);
}
