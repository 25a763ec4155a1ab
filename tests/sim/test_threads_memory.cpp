// Blocks on several host threads share global memory: reading what another block writes, while it
// writes it, is the simulated kernel's race, never one in the simulator. Built with
// -DWARPSIM_TSAN=ON, ThreadSanitizer checks the second claim (it reported the plain copies of the
// whole-warp load and store paths before they became relaxed atomic accesses).
#include "tests/sim/sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim::test;

namespace {

// Every thread of every block loads a counter, adds one and stores it back: a lost-update race in
// the kernel, on purpose, through the whole-warp paths (all 32 lanes, one address).
const char* kRacy = R"(kernel racy(ptr.u32 counter, ptr.u32 seen) {
    reg u32 v
    reg u64 off, ps
    ld.global.u32 v, [counter]
    add.u32 v, v, 1
    st.global.u32 [counter], v
    mul.wide.u32 off, %ctaid.x, 4
    add.u64 ps, seen, off
    st.global.u32 [ps], v
    exit
}
)";

}  // namespace

TEST_CASE("blocks on two host threads race on one global word without a race in the simulator") {
  const auto c = compile(kRacy);
  sim::Config config;
  config.threads = 2;
  sim::Gpu gpu(config);
  constexpr std::uint32_t kBlocks = 512;
  const auto counter = upload(gpu, std::vector<std::uint32_t>{0}, "counter");
  const auto seen = upload(gpu, std::vector<std::uint32_t>(kBlocks, 0), "seen");
  gpu.launch(spec(*c, {kBlocks, 1, 1}, {32, 1, 1}, {counter, seen}));
  // Updates may be lost between blocks, never invented: every value lies in 1..blocks.
  const auto final_value = download<std::uint32_t>(gpu, counter, 1)[0];
  CHECK(final_value >= 1);
  CHECK(final_value <= kBlocks);
  for (auto v : download<std::uint32_t>(gpu, seen, kBlocks)) {
    CHECK(v >= 1);
    CHECK(v <= kBlocks);
  }
}

TEST_CASE("the timing model steps SMs on two host threads without a race in the simulator") {
  const auto c = compile(kRacy);
  sim::Config config;
  config.mode = sim::Mode::Timing;
  config.threads = 2;
  sim::Gpu gpu(config);
  constexpr std::uint32_t kBlocks = 512;
  const auto counter = upload(gpu, std::vector<std::uint32_t>{0}, "counter");
  const auto seen = upload(gpu, std::vector<std::uint32_t>(kBlocks, 0), "seen");
  const auto result = gpu.launch(spec(*c, {kBlocks, 1, 1}, {64, 1, 1}, {counter, seen}));
  CHECK(result.stats.timed);
  CHECK(result.stats.timing.cycles > 0);
  const auto final_value = download<std::uint32_t>(gpu, counter, 1)[0];
  CHECK(final_value >= 1);
  CHECK(final_value <= kBlocks * 64);
}
