#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {

const char* kReduce = R"(kernel reduce(ptr.f32 input, ptr.f32 out, u32 n) {
    shared f32 partialSum[256]
    reg u32 t, i, stride, twice, r, mine, other
    reg u64 off, p
    reg f32 x, y
    reg pred inb, more, adds, first
    mov.u32 t, %tid.x
    mad.u32 i, %ctaid.x, %ntid.x, t
    mov.f32 x, 0.0
    setp.lt.u32 inb, i, n
    mul.wide.u32 off, i, 4
    add.u64 p, input, off
    @inb ld.global.f32 x, [p]
    mad.u32 mine, t, 4, partialSum
    st.shared.f32 [mine], x
    mov.u32 stride, 1
round:
    setp.lt.u32 more, stride, %ntid.x
    @!more bra finish
    bar.sync
    shl.u32 twice, stride, 1
    rem.u32 r, t, twice
    setp.eq.u32 adds, r, 0
    @!adds bra next
    mad.u32 other, stride, 4, mine
    ld.shared.f32 x, [mine]
    ld.shared.f32 y, [other]
    add.f32 x, x, y
    st.shared.f32 [mine], x
next:
    shl.u32 stride, stride, 1
    bra round
finish:
    setp.eq.u32 first, t, 0
    @!first bra done
    ld.shared.f32 x, [partialSum]
    mul.wide.u32 off, %ctaid.x, 4
    add.u64 p, out, off
    st.global.f32 [p], x
done:
    exit
}
)";

struct Outcome {
  LaunchResult result;
  std::vector<float> sums;
};

Outcome reduce(std::uint32_t threads, WarpSelection selection = {WarpSelection::Mode::All}, bool trace = true) {
  auto k = compile(kReduce);
  Config config;
  config.threads = threads;
  Gpu gpu(config);
  const std::uint32_t blocks = 13, n = blocks * 256 - 100;
  std::vector<float> in(n);
  for (std::uint32_t i = 0; i < n; ++i) in[i] = float(i % 17);
  const auto din = upload(gpu, in, "in");
  const auto dout = gpu.allocate(blocks * 4, "out");
  auto s = spec(*k, {blocks}, {256}, {din, dout, n});
  s.warps = selection;
  s.record_trace = trace;
  auto r = gpu.launch(s);
  return {std::move(r), download<float>(gpu, dout, blocks)};
}

void check_same(const LaunchStats& a, const LaunchStats& b) {
  CHECK(a.warp_instructions == b.warp_instructions);
  CHECK(a.thread_instructions == b.thread_instructions);
  CHECK(a.idle_lane_slots.total() == b.idle_lane_slots.total());
  CHECK(a.idle_lane_slots.divergence == b.idle_lane_slots.divergence);
  CHECK(a.divergent_warps == b.divergent_warps);
  CHECK(a.active_lanes_histogram == b.active_lanes_histogram);
  REQUIRE(a.branches.size() == b.branches.size());
  for (std::size_t i = 0; i < a.branches.size(); ++i) {
    CHECK(a.branches[i].executions == b.branches[i].executions);
    CHECK(a.branches[i].divergent_executions == b.branches[i].divergent_executions);
    CHECK(a.branches[i].taken_lanes == b.branches[i].taken_lanes);
    REQUIRE(a.branches[i].occurrences.size() == b.branches[i].occurrences.size());
    for (std::size_t k = 0; k < a.branches[i].occurrences.size(); ++k) {
      CHECK(a.branches[i].occurrences[k].executions == b.branches[i].occurrences[k].executions);
      CHECK(a.branches[i].occurrences[k].divergent == b.branches[i].occurrences[k].divergent);
    }
  }
  REQUIRE(a.warps.size() == b.warps.size());
  for (std::size_t i = 0; i < a.warps.size(); ++i) {
    CHECK(a.warps[i].block_linear == b.warps[i].block_linear);
    CHECK(a.warps[i].warp_in_block == b.warps[i].warp_in_block);
    CHECK(a.warps[i].thread_instructions == b.warps[i].thread_instructions);
    CHECK(a.warps[i].first_cycle == b.warps[i].first_cycle);
    CHECK(a.warps[i].last_cycle == b.warps[i].last_cycle);
    CHECK(a.warps[i].max_stack_depth == b.warps[i].max_stack_depth);
  }
}

}  // namespace

TEST_CASE("two host threads give the same results, stats and trace as one", "[sim][launch]") {
  auto one = reduce(1);
  auto two = reduce(2);
  CHECK(one.sums == two.sums);
  check_same(one.result.stats, two.result.stats);
  REQUIRE(one.result.trace);
  REQUIRE(two.result.trace);
  REQUIRE(one.result.trace->warps.size() == two.result.trace->warps.size());
  for (std::size_t i = 0; i < one.result.trace->warps.size(); ++i)
    CHECK(one.result.trace->warps[i].events == two.result.trace->warps[i].events);
  check_invariant(one.result.stats);
}

TEST_CASE("the naive reduction sums each block and diverges in every warp", "[sim][launch]") {
  auto o = reduce(1);
  for (std::uint32_t b = 0; b < 13; ++b) {
    float expect = 0;
    for (std::uint32_t i = b * 256; i < std::min<std::uint32_t>(b * 256 + 256, 13 * 256 - 100); ++i) expect += float(i % 17);
    CHECK(o.sums[b] == expect);
  }
  CHECK(o.result.stats.divergent_warps == 13 * 8);
  CHECK(o.result.trace->warps.size() == 13 * 8);
}

TEST_CASE("warp selection: default keeps the first and the least efficient warps, in launch order", "[sim][launch]") {
  WarpSelection sel;
  sel.mode = WarpSelection::Mode::Default;
  sel.keep = 3;
  auto one = reduce(1, sel, false);
  auto two = reduce(2, sel, false);
  check_same(one.result.stats, two.result.stats);
  const auto& warps = one.result.stats.warps;
  REQUIRE(warps.size() >= 3);
  CHECK(warps.size() <= 6);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(warps[i].block_linear == 0);
    CHECK(warps[i].warp_in_block == i);
  }
  for (std::size_t i = 1; i < warps.size(); ++i)
    CHECK(warps[i - 1].block_linear * 8 + warps[i - 1].warp_in_block < warps[i].block_linear * 8 + warps[i].warp_in_block);
  CHECK_FALSE(one.result.trace.has_value());
}

TEST_CASE("warp selection: block range and divergent", "[sim][launch]") {
  WarpSelection range;
  range.mode = WarpSelection::Mode::BlockRange;
  range.first_block = 2;
  range.last_block = 3;
  auto r = reduce(1, range, false);
  REQUIRE(r.result.stats.warps.size() == 16);
  CHECK(r.result.stats.warps.front().block_linear == 2);
  CHECK(r.result.stats.warps.back().block_linear == 3);
  CHECK(r.result.stats.warps.back().block_index.x == 3);
  WarpSelection divergent;
  divergent.mode = WarpSelection::Mode::Divergent;
  CHECK(reduce(1, divergent, false).result.stats.warps.size() == 13 * 8);
}

TEST_CASE("a million-block grid runs in memory bounded by the resident block and the selection", "[sim][launch]") {
  auto k = compile(R"(kernel nothing(ptr.u32 a) {
    exit
}
)");
  Gpu gpu;
  auto s = spec(*k, {1u << 20}, {48}, {gpu.allocate(4, "a")});
  s.warps = WarpSelection{};
  auto r = gpu.launch(s);
  CHECK(r.stats.warps_launched == 2u << 20);
  CHECK(r.stats.partial_warps == 1u << 20);
  CHECK(r.stats.padding_lanes == 16u << 20);
  CHECK(r.stats.warp_instructions == 2u << 20);
  CHECK(r.stats.warps.size() <= 16);
  check_invariant(r.stats);
}
