#include <catch2/catch.hpp>

#include <cstring>

#include "cuda/trace_buffer.hpp"
#include "cuda/trace_stats.hpp"
#include "kir.hpp"

using namespace warpsim;

namespace {

// Blocks: 0 = entry (5 instructions), 1 = loop (4), 2 = store and exit (4).
constexpr const char* kLoop = R"(
kernel loop(ptr.u32 out) {
    reg u32 t, trips, i, acc
    reg u64 p
    reg pred again
    mov.u32 t, %tid.x
    rem.u32 trips, t, 2
    add.u32 trips, trips, 1
    mov.u32 i, 0
    mov.u32 acc, 0
top:
    add.u32 acc, acc, i
    add.u32 i, i, 1
    setp.lt.u32 again, i, trips
    @again bra top
    mul.wide.u32 p, t, 4
    add.u64 p, out, p
    st.global.u32 [p], acc
    exit
}
)";

TraceEvent event(std::uint32_t block, std::uint64_t mask, std::uint64_t cycle) { return TraceEvent{block, mask, cycle, 3}; }

}  // namespace

TEST_CASE("stats from a hand-made trace: a loop where odd lanes run one more round", "[cuda][trace]") {
  auto m = test::parse_kir(kLoop);
  const auto& k = m.module.kernels[0];
  const auto& a = m.analyses[0];
  REQUIRE(a.cfg.blocks.size() == 3);

  // One block of 48 threads: warp 0 full, warp 1 has 16 lanes. Even lanes 1 trip, odd lanes 2.
  Trace trace;
  trace.kernel = "loop";
  trace.grid = Dim3{1, 1, 1};
  trace.block = Dim3{48, 1, 1};
  const std::uint64_t full = 0xffffffff, odd = 0xaaaaaaaa, even = 0x55555555;
  WarpTrace w0{0, 0, full, {event(0, full, 10), event(1, full, 20), event(2, even, 30), event(1, odd, 40),
                            event(2, odd, 50), event(kTraceExit, even, 60), event(kTraceExit, odd, 70)}};
  const std::uint64_t half = 0xffff;
  WarpTrace w1{0, 1, half, {event(0, half, 11), event(1, half, 21), event(1, half & odd, 31), event(2, half, 41),
                            event(kTraceExit, half, 51)}};
  trace.warps = {w0, w1};

  const LaunchStats s = cuda::stats_from_trace(trace, k, a, WarpSelection{WarpSelection::Mode::All});
  CHECK(s.backend == "cuda");
  CHECK(s.warps_launched == 2);
  CHECK(s.partial_warps == 1);
  CHECK(s.padding_lanes == 16);
  // Warp 0: 5 + 4 + 4 + 4 + 4 = 21 warp instructions; threads 5*32 + 4*32 + 4*16 + 4*16 + 4*16.
  REQUIRE(s.warps.size() == 2);
  CHECK(s.warps[0].warp_instructions == 21);
  CHECK(s.warps[0].thread_instructions == 5 * 32 + 4 * 32 + 4 * 16 * 3);
  CHECK(s.warps[0].divergent_branches == 1);
  CHECK(s.warps[0].passes == 2);
  CHECK(s.warps[0].idle.divergence == 4 * 16 * 3);
  CHECK(s.warps[0].first_cycle == 10);
  CHECK(s.warps[0].last_cycle == 70);
  // Warp 1: 5 + 4 + 4 + 4 = 17; padding 16 lanes on each.
  CHECK(s.warps[1].warp_instructions == 17);
  CHECK(s.warps[1].idle.padding == 17 * 16);
  CHECK(s.warps[1].lanes == 16);
  CHECK(s.warp_instructions == 38);
  CHECK(s.divergent_warps == 2);
  CHECK(s.thread_instructions + s.idle_lane_slots.total() == s.lane_slots());

  REQUIRE(s.branches.size() == 1);
  const BranchStats& b = s.branches[0];
  CHECK(b.pc == 8);
  CHECK(b.label == "top");
  CHECK(b.target == "top");
  // Warp 0: round 1 splits (odd taken, even not), round 2 all not taken. Warp 1 the same.
  CHECK(b.executions == 4);
  CHECK(b.divergent_executions == 2);
  CHECK(b.passes == 6);
  CHECK(b.taken_lanes == 16 + 8);
  CHECK(b.not_taken_lanes == 16 + 16 + 8 + 8);
  REQUIRE(b.occurrences.size() == 2);
  CHECK(b.occurrences[0].executions == 2);
  CHECK(b.occurrences[0].divergent == 2);
  CHECK(b.occurrences[1].divergent == 0);
}

TEST_CASE("a trace buffer decodes into per-warp events in append order", "[cuda][trace]") {
  const Dim3 grid{2, 1, 1}, block{40, 1, 1};  // 2 warps per block, 4 warps
  const std::uint32_t capacity = 3;
  std::vector<std::byte> buffer(4 * cuda::trace_warp_stride(capacity));
  auto put32 = [&](std::uint64_t at, std::uint32_t v) { std::memcpy(buffer.data() + at, &v, 4); };
  auto put64 = [&](std::uint64_t at, std::uint64_t v) { std::memcpy(buffer.data() + at, &v, 8); };
  const std::uint64_t warp3 = 3 * cuda::trace_warp_stride(capacity);
  put32(warp3, 2);
  put64(warp3 + cuda::kTraceHeaderBytes, 1234);
  put32(warp3 + cuda::kTraceHeaderBytes + 8, 0);
  put32(warp3 + cuda::kTraceHeaderBytes + 12, 0xff);
  put32(warp3 + cuda::kTraceHeaderBytes + 16, 7);
  put32(warp3 + cuda::kTraceHeaderBytes + cuda::kTraceRecordBytes + 8, kTraceExit);
  put32(warp3 + cuda::kTraceHeaderBytes + cuda::kTraceRecordBytes + 12, 0xff);

  const Trace t = cuda::decode_trace(buffer, "k", grid, block, capacity);
  REQUIRE(t.warps.size() == 4);
  CHECK(t.warps[3].block_linear == 1);
  CHECK(t.warps[3].warp_in_block == 1);
  CHECK(t.warps[3].lanes_mask == 0xff);
  CHECK(t.warps[0].lanes_mask == 0xffffffff);
  REQUIRE(t.warps[3].events.size() == 2);
  CHECK(t.warps[3].events[0] == TraceEvent{0, 0xff, 1234, 7});
  CHECK(t.warps[3].events[1].basic_block == kTraceExit);
  CHECK(cuda::trace_appended(buffer, 4, capacity) == std::vector<std::uint32_t>{0, 0, 0, 2});
}
