// The volta model's rules beyond structured code: node splitting of irreducible cycles and guarded
// exits that split a path, deferred groups that merge, spin loops (docs/design.md "How the H100 reconverges").
#include <algorithm>

#include "sim/spin_loops.hpp"
#include "sim/split_cfg.hpp"
#include "tests/sim/sim_test_util.hpp"

using namespace warpsim;
using namespace warpsim::sim::test;

namespace {

// Odd lanes jump into the middle of the loop; even lanes enter at its top.
const char* kGotoIntoLoop = R"(kernel into(ptr.u32 out) {
    reg u32 t, i, n, b, acc
    reg u64 off, p
    reg pred a, more
    mov.u32 t, %laneid
    add.u32 n, t, 2
    mov.u32 i, 0
    mov.u32 acc, 0
    and.u32 b, t, 1
    setp.ne.u32 a, b, 0
    @a bra inside
head:
    add.u32 acc, acc, 3
inside:
    add.u32 acc, acc, i
    add.u32 i, i, 1
    setp.lt.u32 more, i, n
    @more bra head
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], acc
    exit
}
)";

// Lanes below `keep` stay, the others leave at the guarded exit.
std::string guarded_exit(unsigned keep) {
  return fmt::format(R"(kernel leave(ptr.u32 out) {{
    reg u32 t
    reg u64 off, p
    reg pred gone
    mov.u32 t, %laneid
    setp.ge.u32 gone, t, {}
    @gone exit
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], t
    exit
}}
)",
                     keep);
}

WarpTrace volta_trace(const Compiled& k, std::uint32_t threads) {
  sim::Config config;
  config.reconvergence = sim::ReconvergenceModel::Volta;
  sim::Gpu gpu(config);
  auto s = spec(k, {1, 1, 1}, {threads, 1, 1}, {gpu.allocate(4 * threads, "out")});
  s.record_trace = true;
  const auto r = gpu.launch(s);
  REQUIRE(r.trace);
  REQUIRE(r.trace->warps.size() == 1);
  return r.trace->warps[0];
}

std::vector<std::uint64_t> exit_masks(const WarpTrace& w) {
  std::vector<std::uint64_t> exits;
  for (const auto& e : w.events)
    if (e.basic_block == kTraceExit) exits.push_back(e.active_mask);
  return exits;
}

}  // namespace

TEST_CASE("node splitting gives each extra entry of an irreducible cycle its own copy of it", "[sim][volta]") {
  const auto k = compile(kGotoIntoLoop);
  const auto split = sim::split_irreducible(k->analysis.cfg, k->analysis.loops);
  REQUIRE(split);
  // Blocks: entry, head, inside, after. One copy of {head, inside} for the second entry.
  CHECK(split->copies == 1);
  CHECK(split->cfg.blocks.size() == k->analysis.cfg.blocks.size() + 2);
  // After splitting every cycle is a natural loop: one per copy.
  const auto loops = isa::find_loops(split->cfg, isa::compute_dominators(split->cfg));
  CHECK(loops.size() == 2);
  std::uint32_t split_again = 0;
  if (sim::split_irreducible(split->cfg, loops)) ++split_again;
  CHECK(split_again == 0);
}

TEST_CASE("node splitting leaves reducible control flow alone", "[sim][volta]") {
  const auto k = compile(guarded_exit(8));
  CHECK_FALSE(sim::split_irreducible(k->analysis.cfg, k->analysis.loops));
}

TEST_CASE("under volta lanes that enter a loop at different blocks never run a block of it together", "[sim][volta]") {
  const auto k = compile(kGotoIntoLoop);
  const auto w = volta_trace(*k, 32);
  const std::uint64_t odd = 0xaaaaaaaau, even = 0x55555555u;
  const std::uint32_t head = k->analysis.cfg.block_of[7], inside = k->analysis.cfg.block_of[8];
  REQUIRE(head != inside);  // pc 7 starts `head`, pc 8 `inside`
  std::uint32_t loop_entries = 0;
  for (const auto& e : w.events) {
    if (e.basic_block != head && e.basic_block != inside) continue;
    ++loop_entries;
    INFO("block " << e.basic_block << " mask " << e.active_mask);
    CHECK(((e.active_mask & odd) == 0 || (e.active_mask & even) == 0));
  }
  CHECK(loop_entries > 0);
  // They meet again after the loop: its last block runs once, with every lane.
  REQUIRE(exit_masks(w).size() == 1);
  CHECK(exit_masks(w)[0] == 0xffffffffu);
}

TEST_CASE("under volta a guarded exit lets the fewer lanes go first, ties to the lanes that stay", "[sim][volta]") {
  SECTION("fewer leave: they exit at once") {
    const auto w = volta_trace(*compile(guarded_exit(20)), 32);
    CHECK(exit_masks(w) == std::vector<std::uint64_t>{0xfff00000u, 0x000fffffu});
  }
  SECTION("fewer stay: they run to their exit first") {
    const auto w = volta_trace(*compile(guarded_exit(12)), 32);
    CHECK(exit_masks(w) == std::vector<std::uint64_t>{0x00000fffu, 0xfffff000u});
  }
  SECTION("a tie: the lanes that stay first") {
    const auto w = volta_trace(*compile(guarded_exit(2)), 4);
    CHECK(exit_masks(w) == std::vector<std::uint64_t>{0x3u, 0xcu});
  }
}

namespace {

// Lanes below `first` leave the loop for `found` in iteration 0, lanes from `first` to below
// `second` in iteration 1, the others never; both times the hit lanes are the more, so they are
// deferred at `found` (no join) and the lanes that stay run first.
std::string two_deferred(unsigned first, unsigned second) {
  return fmt::format(R"(kernel twice(ptr.u32 out) {{
    reg u32 t, i, h, acc
    reg u64 off, p
    reg pred done, hit, low, mid
    mov.u32 t, %laneid
    mov.u32 h, 99
    setp.lt.u32 mid, t, {}
    @mid mov.u32 h, 1
    setp.lt.u32 low, t, {}
    @low mov.u32 h, 0
    mov.u32 i, 0
    mov.u32 acc, 0
head:
    setp.ge.u32 done, i, 10
    @done bra notfound
    setp.eq.u32 hit, i, h
    @hit bra found
    add.u32 i, i, 1
    bra head
notfound:
    add.u32 acc, acc, 500
    bra end
found:
    add.u32 acc, acc, 1000
end:
    mul.wide.u32 off, t, 4
    add.u64 p, out, off
    st.global.u32 [p], acc
    exit
}}
)",
                     second, first);
}

std::vector<std::uint64_t> found_runs(const Compiled& k, const WarpTrace& w) {
  const std::uint32_t found = k.analysis.cfg.block_of[16];  // pc 16 starts `found`
  std::vector<std::uint64_t> runs;
  for (const auto& e : w.events)
    if (e.basic_block == found) runs.push_back(e.active_mask);
  return runs;
}


std::vector<bool> spin_heads(const char* text) {
  const auto k = compile(text);
  return sim::find_spin_loop_heads(k->kernel(), k->analysis);
}

}  // namespace

TEST_CASE("under volta lanes that run into a pc where others were deferred pass them by, deferred lanes merge",
          "[sim][volta]") {
  // Lanes 0-19 leave the loop for `found` in iteration 0 (the more: deferred), lanes 20-22 in
  // iteration 1 (the fewer: they run `found` at once), lanes 23-31 never. `found` is no join.
  const auto k = compile(two_deferred(20, 23));
  CHECK(found_runs(*k, volta_trace(*k, 32)) == std::vector<std::uint64_t>{0x00700000u, 0x000fffffu});
}

TEST_CASE("under volta groups deferred at one pc merge once two lanes or more run, else the newer runs first",
          "[sim][volta]") {
  SECTION("two lanes stay in the loop: the deferred groups run `found` together") {
    const auto k = compile(two_deferred(20, 30));
    CHECK(found_runs(*k, volta_trace(*k, 32)) == std::vector<std::uint64_t>{0x3fffffffu});
  }
  SECTION("one lane stays: they run apart, the newer first") {
    const auto k = compile(two_deferred(20, 31));
    CHECK(found_runs(*k, volta_trace(*k, 32)) == std::vector<std::uint64_t>{0x7ff00000u, 0x000fffffu});
  }
}

TEST_CASE("a spin loop is a loop whose exit depends on what an atomic in it returned", "[sim][volta]") {
  SECTION("a lock taken with atom.cas") {
    CHECK(spin_heads(kSpinLock)[0]);
  }
  SECTION("a flag polled with a plain load is not") {
    const auto heads = spin_heads(R"(kernel poll(ptr.u32 flag) {
    reg u32 f
    reg pred zero
spin:
    ld.global.u32 f, [flag]
    setp.eq.u32 zero, f, 0
    @zero bra spin
    exit
}
)");
    CHECK(std::find(heads.begin(), heads.end(), true) == heads.end());
  }
  SECTION("an atomic whose result the exit does not read is not, even through a reused predicate") {
    const auto heads = spin_heads(R"(kernel counted(ptr.u32 c) {
    reg u32 i, v
    reg pred p
    mov.u32 i, 0
top:
    atom.add.global.u32 v, [c], 1
    setp.eq.u32 p, v, 7
    @p add.u32 v, v, 1
    add.u32 i, i, 1
    setp.lt.u32 p, i, 10
    @p bra top
    exit
}
)");
    CHECK(std::find(heads.begin(), heads.end(), true) == heads.end());
  }
}
