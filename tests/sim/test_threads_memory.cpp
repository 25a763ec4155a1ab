// Blocks on several host threads share global memory: reading what another block writes, while it
// writes it, is the simulated kernel's race, never one in the simulator. Built with
// -DWARPSIM_TSAN=ON, ThreadSanitizer checks the second claim (it reported the plain copies of the
// whole-warp load and store paths before they became relaxed atomic accesses).
#include <tuple>

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

namespace {

// Each block's threads write every other word of one line all blocks share (partly written
// sectors: merge reads; several SMs' fetches of one line: refunds), then chase 16 dependent loads
// from DRAM, so most epochs no SM can issue while refunds and merge reads are pending.
const char* kWaits = R"(kernel waits(ptr.u32 shared_line, ptr.u32 big) {
    reg u32 lane, v, k, i
    reg u64 off, p
    reg pred again
    and.b32 lane, %tid.x, 15
    mul.wide.u32 off, lane, 8
    add.u64 p, shared_line, off
    st.global.u32 [p], %ctaid.x
    mul.u32 i, %ctaid.x, 4096
    mov.u32 k, 0
chase:
    mul.wide.u32 off, i, 4
    add.u64 p, big, off
    ld.global.u32 v, [p]
    add.u32 i, i, v
    add.u32 i, i, 262144
    and.b32 i, i, 16777215
    add.u32 k, k, 1
    setp.lt.u32 again, k, 16
    @again bra chase
    exit
}
)";

}  // namespace

TEST_CASE("idle epochs stepped as one on two host threads give every figure of each epoch stepped") {
  const auto c = compile(kWaits);
  LaunchResult results[2];
  for (std::uint32_t skip : {0u, 1u}) {
    sim::Config config;
    config.mode = sim::Mode::Timing;
    config.threads = 2;
    config.gpu.skip_idle_epochs = skip;
    sim::Gpu gpu(config);
    const auto line = upload(gpu, std::vector<std::uint32_t>(32, 0), "line");
    const auto big = upload(gpu, std::vector<std::uint32_t>(std::size_t{1} << 24, 0), "big");
    results[skip] = gpu.launch(spec(*c, {264, 1, 1}, {32, 1, 1}, {line, big}));
  }
  const auto& every = results[0].stats;
  const auto& skipped = results[1].stats;
  CHECK(skipped.timing.epochs * 2 < every.timing.epochs);  // the skip happened
  CHECK(skipped.timing.cycles == every.timing.cycles);
  const auto& a = skipped.timing.stalls;
  const auto& b = every.timing.stalls;
  CHECK(std::tie(a.issued, a.dependency, a.memory, a.barrier, a.not_selected, a.unit_busy, a.no_instruction) ==
        std::tie(b.issued, b.dependency, b.memory, b.barrier, b.not_selected, b.unit_busy, b.no_instruction));
  CHECK(skipped.timing.resident_warp_cycles == every.timing.resident_warp_cycles);
  CHECK(skipped.timing.active_sm_cycles == every.timing.active_sm_cycles);
  CHECK(skipped.timing.memory.dram_bytes == every.timing.memory.dram_bytes);
  CHECK(skipped.timing.memory.l2_sector_hits == every.timing.memory.l2_sector_hits);
  CHECK(every.timing.memory.dram_bytes > 0);
}
