#include "sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim;
using namespace warpsim::sim::test;

namespace {

const char* kIfElse = R"(kernel ifelse(ptr.u32 out) {
    reg u32 t, v
    reg u64 off, p
    reg pred small
    mov.u32 t, %tid.x
    setp.lt.u32 small, t, 8
    @!small bra other
    mov.u32 v, 1
    bra join
other:
    mov.u32 v, 2
join:
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], v
    exit
}
)";

const char* kNested = R"(kernel nested(ptr.u32 out) {
    reg u32 t, v
    reg u64 off, p
    reg pred a, b
    mov.u32 t, %tid.x
    setp.lt.u32 a, t, 16
    @!a bra outer_else
    setp.lt.u32 b, t, 8
    @!b bra inner_else
    mov.u32 v, 1
    bra inner_join
inner_else:
    mov.u32 v, 2
inner_join:
    add.u32 v, v, 10
    bra outer_join
outer_else:
    mov.u32 v, 3
outer_join:
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], v
    exit
}
)";

const char* kLoop = R"(kernel divergent_loop(ptr.u32 out) {
    reg u32 t, trips, i, acc
    reg u64 off, p
    reg pred again
    mad.u32 t, %ctaid.x, %ntid.x, %tid.x
    rem.u32 trips, t, 3
    add.u32 trips, trips, 6
    mov.u32 i, 0
    mov.u32 acc, 0
loop:
    add.u32 acc, acc, i
    add.u32 i, i, 1
    setp.lt.u32 again, i, trips
    @again bra loop
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], acc
    exit
}
)";

}  // namespace

TEST_CASE("a divergent if/else costs two passes and reconverges at its immediate post-dominator", "[sim][divergence]") {
  auto k = compile(kIfElse);
  Config textbook;  // the IPDOM stack's passes and depth
  textbook.reconvergence = ReconvergenceModel::Ipdom;
  Gpu gpu(textbook);
  const auto out = gpu.allocate(32 * 4, "out");
  auto s = spec(*k, {1}, {32}, {out});
  s.record_trace = true;
  auto r = gpu.launch(s);
  const auto v = download<std::uint32_t>(gpu, out, 32);
  for (unsigned t = 0; t < 32; ++t) CHECK(v[t] == (t < 8 ? 1u : 2u));

  const auto& st = r.stats;
  REQUIRE(st.branches.size() == 2);
  const auto& b = st.branches[0];
  CHECK(b.pc == 2);
  CHECK(b.executions == 1);
  CHECK(b.divergent_executions == 1);
  CHECK(b.passes == 2);
  CHECK(b.taken_lanes == 24);
  CHECK(b.not_taken_lanes == 8);
  CHECK(b.reconvergence_pc == 6);
  CHECK(b.target == "other");
  CHECK(b.label == "B0");  // unlabelled: named as warpsim cfg numbers blocks
  REQUIRE(b.occurrences.size() == 1);
  CHECK(b.occurrences[0].executions == 1);
  CHECK(b.occurrences[0].divergent == 1);
  // The unconditional bra: counted, never divergent.
  CHECK(st.branches[1].executions == 1);
  CHECK(st.branches[1].divergent_executions == 0);
  CHECK(st.branches[1].passes == 1);
  CHECK(st.branches[1].taken_lanes == 8);

  REQUIRE(st.warps.size() == 1);
  const auto& w = st.warps[0];
  CHECK(w.warp_instructions == 10);
  CHECK(w.thread_instructions == 96 + 24 + 16 + 128);
  CHECK(w.idle.divergence == 8 + 24 + 24);
  CHECK(w.passes == 2);
  CHECK(w.divergent_branches == 1);
  CHECK(w.max_stack_depth == 3);
  CHECK(st.divergent_warps == 1);
  CHECK(st.active_lanes_histogram[32] == 7);
  CHECK(st.active_lanes_histogram[24] == 1);
  CHECK(st.active_lanes_histogram[8] == 2);
  check_invariant(st);

  // Trace: entry block, the taken path (else), the not-taken path (then), the join, the exit.
  REQUIRE(r.trace);
  REQUIRE(r.trace->warps.size() == 1);
  const auto& cfg = k->analysis.cfg;
  const std::vector<TraceEvent> expected = {
      {cfg.block_of[0], 0xffffffffu, 0, 0}, {cfg.block_of[5], 0xffffff00u, 3, 0}, {cfg.block_of[3], 0xffu, 4, 0},
      {cfg.block_of[6], 0xffffffffu, 6, 0}, {kTraceExit, 0xffffffffu, 10, 0}};
  // Blocks and masks are the same in both modes; the clock is the SM's cycle in timing mode (the
  // default), never decreasing (a block that starts with a mov of an immediate is entered in the
  // cycle of the instruction before it: sm.fold_immediates), and the issue count in functional mode.
  const auto& events = r.trace->warps[0].events;
  REQUIRE(events.size() == expected.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    CHECK(events[i].basic_block == expected[i].basic_block);
    CHECK(events[i].active_mask == expected[i].active_mask);
    if (i > 0) CHECK(events[i].cycle >= events[i - 1].cycle);
  }
  CHECK(events.back().cycle > events.front().cycle);
  Config functional = textbook;
  functional.mode = Mode::Functional;
  Gpu fgpu(functional);
  auto fs = spec(*k, {1}, {32}, {fgpu.allocate(128, "out")});
  fs.record_trace = true;
  auto fr = fgpu.launch(fs);
  REQUIRE(fr.trace);
  CHECK(fr.trace->warps[0].events == expected);
  CHECK(r.trace->warps[0].lanes_mask == 0xffffffffu);
}

TEST_CASE("nested divergence runs three passes and stacks one entry per level", "[sim][divergence]") {
  auto k = compile(kNested);
  Config textbook;  // the IPDOM stack's passes and depth
  textbook.reconvergence = ReconvergenceModel::Ipdom;
  Gpu gpu(textbook);
  const auto out = gpu.allocate(32 * 4, "out");
  auto r = gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32);
  for (unsigned t = 0; t < 32; ++t) CHECK(v[t] == (t < 8 ? 11u : t < 16 ? 12u : 3u));
  const auto& w = r.stats.warps.at(0);
  CHECK(w.divergent_branches == 2);
  CHECK(w.passes == 3);
  CHECK(w.max_stack_depth == 4);
  check_invariant(r.stats);
}

TEST_CASE("a loop with 6, 7 or 8 trips per lane: rounds 7 and 8 take two passes each", "[sim][divergence]") {
  auto k = compile(kLoop);
  Gpu gpu;
  const auto out = gpu.allocate(32 * 4, "out");
  auto r = gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32);
  for (unsigned t = 0; t < 32; ++t) {
    const unsigned trips = 6 + t % 3;
    CHECK(v[t] == trips * (trips - 1) / 2);
  }
  const auto& st = r.stats;
  REQUIRE(st.branches.size() == 1);
  const auto& b = st.branches[0];
  CHECK(b.label == "loop");
  CHECK(b.executions == 8);
  CHECK(b.divergent_executions == 2);
  CHECK(b.passes == 10);
  REQUIRE(b.occurrences.size() == 8);
  for (unsigned k2 = 0; k2 < 8; ++k2) {
    CHECK(b.occurrences[k2].executions == 1);
    CHECK(b.occurrences[k2].divergent == (k2 == 5 || k2 == 6 ? 1u : 0u));
  }
  const auto& w = st.warps.at(0);
  CHECK(w.passes == 3);
  CHECK(w.max_stack_depth == 2);
  // Round 7 runs 4 loop instructions on the 21 lanes with 7 or 8 trips, round 8 on the 10 with 8.
  CHECK(w.idle.divergence == 4 * 11 + 4 * 22);
  check_invariant(st);
}

TEST_CASE("lanes that exit early count as exited, not divergent, for the rest of the warp's run", "[sim][divergence]") {
  auto k = compile(R"(kernel early(ptr.u32 out) {
    reg u32 t
    reg u64 off, p
    reg pred leave
    mov.u32 t, %tid.x
    setp.ge.u32 leave, t, 20
    @leave exit
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], t
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(32 * 4, "out");
  auto r = gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32);
  for (unsigned t = 0; t < 32; ++t) CHECK(v[t] == (t < 20 ? t : 0u));
  const auto& w = r.stats.warps.at(0);
  CHECK(w.warp_instructions == 7);
  CHECK(w.idle.exited == 4 * 12);
  CHECK(w.idle.predicated == 20);  // the guarded exit: 20 lanes whose guard is false
  CHECK(w.idle.divergence == 0);
  CHECK(w.divergent_branches == 0);
  check_invariant(r.stats);
}

TEST_CASE("a guarded instruction leaves lanes whose guard is false untouched and idle as predicated",
          "[sim][divergence]") {
  auto k = compile(R"(kernel guarded(ptr.u32 out) {
    reg u32 t, v
    reg u64 off, p
    reg pred low
    mov.u32 t, %tid.x
    mov.u32 v, 5
    setp.lt.u32 low, t, 10
    @low add.u32 v, v, t
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], v
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(32 * 4, "out");
  auto r = gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32);
  for (unsigned t = 0; t < 32; ++t) CHECK(v[t] == (t < 10 ? 5 + t : 5u));
  CHECK(r.stats.idle_lane_slots.predicated == 22);
  CHECK(r.stats.idle_lane_slots.divergence == 0);
  CHECK(r.stats.active_lanes_histogram[10] == 1);
  check_invariant(r.stats);
}

TEST_CASE("a split branch to its own fall-through reconverges at once and still counts as divergent",
          "[sim][divergence]") {
  auto k = compile(R"(kernel self(ptr.u32 out) {
    reg pred low
    setp.lt.u32 low, %tid.x, 4
    @low bra next
next:
    st.global.u32 [out], 1
    exit
}
)");
  Gpu gpu;
  const auto out = gpu.allocate(4, "out");
  auto r = gpu.launch(spec(*k, {1}, {32}, {out}));
  CHECK(download<std::uint32_t>(gpu, out, 1)[0] == 1);
  CHECK(r.stats.branches.at(0).divergent_executions == 1);
  CHECK(r.stats.warps.at(0).warp_instructions == 4);
  CHECK(r.stats.warps.at(0).idle.divergence == 0);
  check_invariant(r.stats);
}

TEST_CASE("under ipdom the lanes that survive an exit inside an if meet again after it", "[sim][ipdom]") {
  // if (lane < 8) { if (lane < 4) exit; v += 100; }  out[lane] = shfl.idx(v, 20)
  auto k = compile(R"(kernel survive(ptr.u32 out) {
    reg u32 t, v, s
    reg u64 off, p
    reg pred low, lower
    mov.u32 t, %laneid
    mov.u32 v, t
    setp.lt.u32 low, t, 8
    @!low bra after
    setp.lt.u32 lower, t, 4
    @lower bra leave
    add.u32 v, v, 100
    bra after
leave:
    exit
after:
    shfl.idx.u32 s, v, 20
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], s
    exit
}
)");
  Config config;
  config.reconvergence = ReconvergenceModel::Ipdom;
  Gpu gpu(config);
  const auto out = gpu.allocate(32 * 4, "out");
  gpu.launch(spec(*k, {1}, {32}, {out}));
  const auto v = download<std::uint32_t>(gpu, out, 32);
  // Lanes 4-7 shuffle together with lanes 8-31, so they read lane 20's value, not their own.
  for (unsigned t = 4; t < 32; ++t) CHECK(v[t] == 20u);
}
