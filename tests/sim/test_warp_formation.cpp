#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {

// Each thread writes (warpid << 16 | laneid) and its tid.x/y/z at its linear index.
const char* kWhoAmI = R"(kernel whoami(ptr.u32 ids, ptr.u32 tids) {
    reg u32 linear, plane, v, t3
    reg u64 off, p
    mad.u32 linear, %tid.y, %ntid.x, %tid.x
    mul.u32 plane, %ntid.x, %ntid.y
    mad.u32 linear, %tid.z, plane, linear
    shl.u32 v, %warpid, 16
    or.u32 v, v, %laneid
    mul.wide.u32 off, linear, 4
    add.u64 p, ids, off
    st.global.u32 [p], v
    shl.u32 t3, %tid.z, 16
    shl.u32 v, %tid.y, 8
    or.u32 v, v, t3
    or.u32 v, v, %tid.x
    add.u64 p, tids, off
    st.global.u32 [p], v
    exit
}
)";

struct Formation {
  LaunchStats stats;
  std::vector<std::uint32_t> ids, tids;
};

Formation form(Dim3 block, std::uint32_t warp_size) {
  auto k = compile(kWhoAmI);
  Config config;
  config.warp_size = warp_size;
  Gpu gpu(config);
  const auto n = block.count();
  const auto ids = gpu.allocate(n * 4, "ids"), tids = gpu.allocate(n * 4, "tids");
  auto r = gpu.launch(spec(*k, {1}, block, {ids, tids}));
  check_invariant(r.stats);
  return {r.stats, download<std::uint32_t>(gpu, ids, n), download<std::uint32_t>(gpu, tids, n)};
}

}  // namespace

TEST_CASE("threads are linearised x fastest, warp w holds linear threads w*32 to w*32+31", "[sim][formation]") {
  SECTION("a 48-thread block: 2 warps, the second with 16 padding lanes") {
    auto f = form({48}, 32);
    CHECK(f.stats.warps_per_block == 2);
    CHECK(f.stats.warps_launched == 2);
    CHECK(f.stats.partial_warps == 1);
    CHECK(f.stats.padding_lanes == 16);
    REQUIRE(f.stats.warps.size() == 2);
    CHECK(f.stats.warps[1].lanes == 16);
    CHECK(f.stats.warps[1].first_thread == 32);
    CHECK(f.stats.warps[1].idle.padding == 16 * f.stats.warps[1].warp_instructions);
    for (unsigned t = 0; t < 48; ++t) CHECK(f.ids[t] == ((t / 32) << 16 | t % 32));
  }
  SECTION("an 8x8 block: warp 0 holds rows 0-3, warp 1 rows 4-7") {
    auto f = form({8, 8}, 32);
    CHECK(f.stats.warps_per_block == 2);
    CHECK(f.stats.padding_lanes == 0);
    for (unsigned y = 0; y < 8; ++y)
      for (unsigned x = 0; x < 8; ++x) {
        const unsigned linear = x + y * 8;
        CHECK(f.ids[linear] >> 16 == (y < 4 ? 0u : 1u));
        CHECK(f.tids[linear] == (y << 8 | x));
      }
  }
  SECTION("a 4x8x2 block: warp 0 holds every thread with z = 0, warp 1 every thread with z = 1") {
    auto f = form({4, 8, 2}, 32);
    CHECK(f.stats.warps_per_block == 2);
    for (unsigned z = 0; z < 2; ++z)
      for (unsigned y = 0; y < 8; ++y)
        for (unsigned x = 0; x < 4; ++x) {
          const unsigned linear = x + y * 4 + z * 32;
          CHECK(f.ids[linear] >> 16 == z);
          CHECK(f.tids[linear] == (z << 16 | y << 8 | x));
        }
  }
  SECTION("a 14x8 block wastes 12.5% of its lane slots to padding") {
    auto f = form({14, 8}, 32);
    CHECK(f.stats.warps_per_block == 4);
    CHECK(f.stats.padding_lanes == 16);
    CHECK(f.stats.idle_lane_slots.padding * 8 == f.stats.warp_instructions * 32);
  }
}

TEST_CASE("the warp size is a setting: 16 and 64 lanes", "[sim][formation]") {
  SECTION("16 lanes") {
    auto f = form({48}, 16);
    CHECK(f.stats.warp_size == 16);
    CHECK(f.stats.warps_per_block == 3);
    CHECK(f.stats.partial_warps == 0);
    CHECK(f.stats.active_lanes_histogram.size() == 17);
    for (unsigned t = 0; t < 48; ++t) CHECK(f.ids[t] == ((t / 16) << 16 | t % 16));
  }
  SECTION("64 lanes") {
    auto f = form({100}, 64);
    CHECK(f.stats.warp_size == 64);
    CHECK(f.stats.warps_per_block == 2);
    CHECK(f.stats.padding_lanes == 28);
    CHECK(f.stats.active_lanes_histogram.size() == 65);
    CHECK(f.stats.active_lanes_histogram[64] > 0);
    for (unsigned t = 0; t < 100; ++t) CHECK(f.ids[t] == ((t / 64) << 16 | t % 64));
  }
}

TEST_CASE("%clock in functional mode counts the block's issued warp instructions", "[sim][formation]") {
  auto k = compile(R"(kernel clocks(ptr.u32 out) {
    reg u32 linear, slot, now
    reg u64 off, p
    mad.u32 linear, %tid.y, %ntid.x, %tid.x
    mad.u32 slot, %ctaid.x, 56, linear
    mov.u32 now, %clock
    mul.wide.u32 off, slot, 4
    add.u64 p, out, off
    st.global.u32 [p], now
    exit
}
)");
  Config functional;
  functional.mode = Mode::Functional;  // the default is the timing mode, where %clock is the SM's cycle
  Gpu gpu(functional);
  const auto out = gpu.allocate(2 * 56 * 4, "out");
  auto r = gpu.launch(spec(*k, {2}, {14, 4}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 2 * 56);
  // Warp 0 (32 threads) reads 2; warp 1 (24 threads) runs after warp 0's 7 instructions: 7 + 2.
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned t = 0; t < 56; ++t) CHECK(v[b * 56 + t] == (t < 32 ? 2u : 9u));
  CHECK(r.stats.warps.at(1).first_issue == 7);
  CHECK(r.stats.warps.at(1).last_issue == 13);
  CHECK(r.stats.warps.at(1).first_cycle == 0);  // cycles exist in the timing mode only
}
