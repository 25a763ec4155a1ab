// The simulator's trace records what the GPU's instrumented build records: a block entry with the
// mask it ran with, and one exit record per exit executed, with the lanes that left.
#include "tests/sim/sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim::test;

namespace {
// Lanes 0-3 leave early through their own exit; the others exit at the end.
const char* kEarlyExit = R"(
kernel early(ptr.u32 out) {
    reg u32 t
    reg u64 off, p
    reg pred low
    mov.u32 t, %laneid
    setp.lt.u32 low, t, 4
    @!low bra rest
    exit
rest:
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], t
    exit
}
)";
}  // namespace

TEST_CASE("each exit executed leaves one trace record with the lanes that left", "[sim][trace]") {
  auto k = compile(kEarlyExit);
  sim::Gpu gpu;
  const auto out = gpu.allocate(32 * 4, "out");
  auto s = spec(*k, {1, 1, 1}, {32, 1, 1}, {out});
  s.record_trace = true;
  const auto r = gpu.launch(s);
  REQUIRE(r.trace);
  REQUIRE(r.trace->warps.size() == 1);
  std::vector<std::uint64_t> exits;
  for (const auto& e : r.trace->warps[0].events)
    if (e.basic_block == kTraceExit) exits.push_back(e.active_mask);
  // The taken path (lanes 4-31 to `rest`) runs first, then lanes 0-3 exit on the fall-through.
  REQUIRE(exits.size() == 2);
  CHECK((exits[0] | exits[1]) == 0xffffffffu);
  CHECK((exits[0] & exits[1]) == 0u);
  CHECK((exits[0] == 0xfu || exits[1] == 0xfu));
  CHECK(r.stats.idle_lane_slots.exited > 0);
}
