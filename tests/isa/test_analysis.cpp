// Rules for the CFG, (post-)dominators, reconvergence points, loops and register counts.
// Instruction indices (pcs) are written in a comment on each line of the kernels below.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "tests/isa/isa_helpers.hpp"

using namespace warpsim::isa;
using Blocks = std::vector<std::uint32_t>;

namespace {

using warpsim::isa::test::kernel_of;

// Every block as [begin, end) pairs, to compare with one line.
std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges(const Cfg& cfg) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const BasicBlock& b : cfg.blocks) out.emplace_back(b.begin, b.end);
  return out;
}

using Ranges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

constexpr const char* kIfElse = R"(
kernel if_else(u32 n) {
    reg u32 t
    reg pred p
    setp.lt.u32 p, %tid.x, n    // 0  B0
    @p bra then                 // 1
    mov.u32 t, 1                // 2  B1 else
    bra join                    // 3
then:
    mov.u32 t, 2                // 4  B2 then
join:
    exit                        // 5  B3
}
)";

}  // namespace

TEST_CASE("blocks begin at the entry, at labels and after terminators", "[analysis][cfg]") {
  const Kernel k = kernel_of(kIfElse);
  const Cfg cfg = build_cfg(k);
  CHECK(ranges(cfg) == Ranges{{0, 2}, {2, 4}, {4, 5}, {5, 6}});
  CHECK(cfg.block_of == Blocks{0, 0, 1, 1, 2, 3});
  CHECK(cfg.blocks[0].label == -1);
  CHECK(cfg.blocks[2].label == k.find_label("then"));
  CHECK(cfg.blocks[3].label == k.find_label("join"));
}

TEST_CASE("a guarded bra has the taken target first, then the fall-through", "[analysis][cfg]") {
  const Cfg cfg = build_cfg(kernel_of(kIfElse));
  CHECK(cfg.blocks[0].successors == Blocks{2, 1});
  CHECK(cfg.blocks[1].successors == Blocks{3});
  CHECK(cfg.blocks[2].successors == Blocks{3});
  CHECK(cfg.blocks[3].successors.empty());
  CHECK(cfg.blocks[3].exits);
  CHECK_FALSE(cfg.blocks[0].exits);
  CHECK(cfg.blocks[3].predecessors == Blocks{1, 2});
}

TEST_CASE("a divergent if/else reconverges at its immediate post-dominator", "[analysis][reconvergence]") {
  const Kernel k = kernel_of(kIfElse);
  const KernelAnalysis a = analyze(k);
  CHECK(a.postdominators.idom == Blocks{3, 3, 3, kVirtualExit});
  CHECK(a.dominators.idom == Blocks{kNoBlock, 0, 0, 0});
  CHECK(a.reconvergence_pc == Blocks{kNoBlock, 5, kNoBlock, kNoBlock, kNoBlock, kNoBlock});
  CHECK(a.loops.empty());
}

TEST_CASE("an if without else reconverges at the skipped-to label", "[analysis][reconvergence]") {
  const Kernel k = kernel_of(R"(
kernel if_only(ptr.u32 out) {
    reg u32 t
    reg pred p
    setp.eq.u32 p, %laneid, 0   // 0  B0
    @!p bra skip                // 1
    mov.u32 t, 1                // 2  B1
    st.global.u32 [out], t      // 3
skip:
    exit                        // 4  B2
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(ranges(a.cfg) == Ranges{{0, 2}, {2, 4}, {4, 5}});
  CHECK(a.cfg.blocks[0].successors == Blocks{2, 1});
  CHECK(a.postdominators.idom == Blocks{2, 2, kVirtualExit});
  CHECK(a.reconvergence_pc[1] == 4);
}

TEST_CASE("nested divergence reconverges inner branch before outer", "[analysis][reconvergence]") {
  const Kernel k = kernel_of(R"(
kernel nested() {
    reg u32 t
    reg pred p, q
    setp.lt.u32 p, %tid.x, 16   // 0  B0
    setp.lt.u32 q, %tid.x, 8    // 1
    @!p bra outer_else          // 2
    @!q bra inner_else          // 3  B1
    mov.u32 t, 1                // 4  B2
    bra inner_join              // 5
inner_else:
    mov.u32 t, 2                // 6  B3
inner_join:
    bra outer_join              // 7  B4
outer_else:
    mov.u32 t, 3                // 8  B5
outer_join:
    exit                        // 9  B6
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(ranges(a.cfg) == Ranges{{0, 3}, {3, 4}, {4, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 10}});
  CHECK(a.postdominators.idom == Blocks{6, 4, 4, 4, 6, 6, kVirtualExit});
  CHECK(a.dominators.idom == Blocks{kNoBlock, 0, 1, 1, 1, 0, 0});
  CHECK(a.reconvergence_pc[2] == 9);
  CHECK(a.reconvergence_pc[3] == 7);
}

TEST_CASE("a bottom-tested loop with a divergent trip count reconverges after the loop", "[analysis][loops]") {
  const Kernel k = kernel_of(R"(
kernel do_while() {
    reg u32 i
    reg pred more
    mov.u32 i, 0                      // 0  B0
loop:
    add.u32 i, i, 1                   // 1  B1
    setp.lt.u32 more, i, %tid.x       // 2
    @more bra loop                    // 3
    exit                              // 4  B2
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(ranges(a.cfg) == Ranges{{0, 1}, {1, 4}, {4, 5}});
  CHECK(a.cfg.blocks[1].successors == Blocks{1, 2});
  CHECK(a.cfg.blocks[1].predecessors == Blocks{0, 1});
  CHECK(a.reconvergence_pc[3] == 4);
  REQUIRE(a.loops.size() == 1);
  CHECK(a.loops[0].header == 1);
  CHECK(a.loops[0].blocks == Blocks{1});
  CHECK(a.loops[0].latches == Blocks{1});
}

TEST_CASE("a top-tested loop's exit branch reconverges at the loop's exit", "[analysis][loops]") {
  const Kernel k = kernel_of(R"(
kernel while_loop() {
    reg u32 i
    reg pred done
    mov.u32 i, 0                      // 0  B0
head:
    setp.ge.u32 done, i, %tid.x       // 1  B1
    @done bra out                     // 2
    add.u32 i, i, 1                   // 3  B2
    bra head                          // 4
out:
    exit                              // 5  B3
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(ranges(a.cfg) == Ranges{{0, 1}, {1, 3}, {3, 5}, {5, 6}});
  CHECK(a.cfg.blocks[1].successors == Blocks{3, 2});
  CHECK(a.dominators.idom == Blocks{kNoBlock, 0, 1, 1});
  CHECK(a.postdominators.idom == Blocks{1, 3, 1, kVirtualExit});
  CHECK(a.reconvergence_pc[2] == 5);
  REQUIRE(a.loops.size() == 1);
  CHECK(a.loops[0].header == 1);
  CHECK(a.loops[0].blocks == Blocks{1, 2});
  CHECK(a.loops[0].latches == Blocks{2});
}

TEST_CASE("break leaves to the loop exit and continue reconverges at the loop header", "[analysis][loops]") {
  const Kernel k = kernel_of(R"(
kernel break_continue(u32 n) {
    reg u32 i, s
    reg pred done, brk, skip
    mov.u32 i, 0                      // 0  B0
    mov.u32 s, 0                      // 1
head:
    setp.ge.u32 done, i, n            // 2  B1
    @done bra out                     // 3
    add.u32 i, i, 1                   // 4  B2
    setp.eq.u32 brk, i, %tid.x        // 5
    @brk bra out                      // 6  break
    setp.lt.u32 skip, i, 4            // 7  B3
    @skip bra head                    // 8  continue
    add.u32 s, s, i                   // 9  B4
    bra head                          // 10
out:
    exit                              // 11 B5
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(ranges(a.cfg) == Ranges{{0, 2}, {2, 4}, {4, 7}, {7, 9}, {9, 11}, {11, 12}});
  CHECK(a.cfg.blocks[2].successors == Blocks{5, 3});
  CHECK(a.cfg.blocks[3].successors == Blocks{1, 4});
  CHECK(a.postdominators.idom == Blocks{1, 5, 5, 1, 1, kVirtualExit});
  CHECK(a.reconvergence_pc[3] == 11);
  CHECK(a.reconvergence_pc[6] == 11);
  CHECK(a.reconvergence_pc[8] == 2);  // the continue: both paths meet at the header
  REQUIRE(a.loops.size() == 1);
  CHECK(a.loops[0].header == 1);
  CHECK(a.loops[0].blocks == Blocks{1, 2, 3, 4});
  CHECK(a.loops[0].latches == Blocks{3, 4});
}

TEST_CASE("nested loops are found separately, each with its own header", "[analysis][loops]") {
  const Kernel k = kernel_of(R"(
kernel nested_loops() {
    reg u32 i, j
    reg pred more_i, more_j
    mov.u32 i, 0                      // 0  B0
outer:
    mov.u32 j, 0                      // 1  B1
inner:
    add.u32 j, j, 1                   // 2  B2
    setp.lt.u32 more_j, j, %tid.x     // 3
    @more_j bra inner                 // 4
    add.u32 i, i, 1                   // 5  B3
    setp.lt.u32 more_i, i, 4          // 6
    @more_i bra outer                 // 7
    exit                              // 8  B4
}
)");
  const KernelAnalysis a = analyze(k);
  REQUIRE(a.loops.size() == 2);
  CHECK(a.loops[0].header == 1);
  CHECK(a.loops[0].blocks == Blocks{1, 2, 3});
  CHECK(a.loops[0].latches == Blocks{3});
  CHECK(a.loops[1].header == 2);
  CHECK(a.loops[1].blocks == Blocks{2});
  CHECK(a.reconvergence_pc[4] == 5);
  CHECK(a.reconvergence_pc[7] == 8);
}

TEST_CASE("an early return in an if reconverges only at the virtual exit", "[analysis][exits]") {
  const Kernel k = kernel_of(R"(
kernel early_return() {
    reg u32 t
    reg pred p
    setp.eq.u32 p, %tid.x, 0          // 0  B0
    @!p bra rest                      // 1
    ret                               // 2  B1
rest:
    mov.u32 t, 1                      // 3  B2
    exit                              // 4
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(ranges(a.cfg) == Ranges{{0, 2}, {2, 3}, {3, 5}});
  CHECK(a.cfg.blocks[1].exits);
  CHECK(a.cfg.blocks[2].exits);
  CHECK(a.postdominators.idom == Blocks{kVirtualExit, kVirtualExit, kVirtualExit});
  CHECK(a.reconvergence_pc[1] == kExitPc);
}

TEST_CASE("a guarded exit ends its block with an exit edge and a fall-through", "[analysis][exits]") {
  const Kernel k = kernel_of(R"(
kernel guarded_exit(u32 n) {
    reg u32 t
    reg pred p
    setp.ge.u32 p, %tid.x, n          // 0  B0
    @p exit                           // 1
    mov.u32 t, 1                      // 2  B1
    exit                              // 3
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(ranges(a.cfg) == Ranges{{0, 2}, {2, 4}});
  CHECK(a.cfg.blocks[0].exits);
  CHECK(a.cfg.blocks[0].successors == Blocks{1});
  CHECK(a.postdominators.idom == Blocks{kVirtualExit, kVirtualExit});
  CHECK(a.reconvergence_pc[1] == kNoBlock);  // only bra gets a reconvergence point
}

TEST_CASE("a loop with no path to exit gets no post-dominator and does not crash", "[analysis][exits]") {
  const Kernel k = kernel_of(R"(
kernel spin() {
    reg pred p
    setp.lt.u32 p, %tid.x, 4          // 0  B0
    @p bra forever                    // 1
    exit                              // 2  B1
forever:
    bra forever                       // 3  B2
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(a.cfg.blocks[2].successors == Blocks{2});
  // Every path from B0 that reaches an exit passes B1; B2 never reaches one.
  CHECK(a.postdominators.idom == Blocks{1, kVirtualExit, kNoBlock});
  CHECK(a.reconvergence_pc[1] == 2);
  REQUIRE(a.loops.size() == 1);
  CHECK(a.loops[0].header == 2);
}

TEST_CASE("a kernel with no exit at all reconverges its branches at kExitPc", "[analysis][exits]") {
  const Kernel k = kernel_of(R"(
kernel never_ends() {
    reg pred p
    setp.lt.u32 p, %tid.x, 4          // 0  B0
    @p bra a                          // 1
b:
    bra b                             // 2  B1
a:
    bra a                             // 3  B2
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(a.postdominators.idom == Blocks{kNoBlock, kNoBlock, kNoBlock});
  CHECK(a.dominators.idom == Blocks{kNoBlock, 0, 0});
  CHECK(a.reconvergence_pc[1] == kExitPc);
  CHECK(a.loops.size() == 2);
}

TEST_CASE("unreachable blocks have no dominator", "[analysis][dominators]") {
  const Kernel k = kernel_of(R"(
kernel dead() {
    reg u32 t
    exit                              // 0  B0
    mov.u32 t, 1                      // 1  B1 unreachable
    exit                              // 2
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(a.dominators.idom == Blocks{kNoBlock, kNoBlock});
  CHECK(a.postdominators.idom == Blocks{kVirtualExit, kVirtualExit});
  CHECK(dominates(a.dominators, 0, 0));
  CHECK_FALSE(dominates(a.dominators, 0, 1));
}

TEST_CASE("register count: the peak of live 32-bit registers, u64 counts two", "[analysis][registers]") {
  const Kernel k = kernel_of(R"(
kernel wide(ptr.u32 out) {
    reg u32 x
    reg u64 off, addr
    mov.u32 x, 7                      // 0  live after: x
    mul.wide.u32 off, %tid.x, 4       // 1  live after: x off      = 3
    add.u64 addr, out, off            // 2  live after: x addr     = 3
    st.global.u32 [addr], x           // 3
    exit                              // 4
}
)");
  CHECK(count_registers(k, build_cfg(k)) == 3);
}

TEST_CASE("register count: predicates and parameters cost no general register", "[analysis][registers]") {
  const Kernel k = kernel_of(R"(
kernel preds(u32 n, ptr.u32 out) {
    reg u32 a, b
    reg pred p, q
    setp.lt.u32 p, %tid.x, n          // 0
    setp.lt.u32 q, %tid.x, 5          // 1
    mov.u32 a, 1                      // 2
    mov.u32 b, 2                      // 3  live after: a b (p q free)
    @p add.u32 a, a, b                // 4
    @q st.global.u32 [out], a         // 5
    exit                              // 6
}
)");
  CHECK(count_registers(k, build_cfg(k)) == 2);
}

TEST_CASE("register count: a value live around a loop counts inside the loop", "[analysis][registers]") {
  const Kernel k = kernel_of(R"(
kernel loop_live(ptr.u32 out) {
    reg u32 i, sum, keep, t
    reg pred more
    mov.u32 keep, 3                   // 0
    mov.u32 i, 0                      // 1
    mov.u32 sum, 0                    // 2
loop:
    add.u32 sum, sum, keep            // 3
    mul.u32 t, i, i                   // 4  live after: keep i sum t = 4 (keep only via the back edge)
    add.u32 sum, sum, t               // 5
    add.u32 i, i, 1                   // 6
    setp.lt.u32 more, i, %tid.x       // 7
    @more bra loop                    // 8
    st.global.u32 [out], sum          // 9
    exit                              // 10
}
)");
  CHECK(count_registers(k, build_cfg(k)) == 4);
  CHECK(analyze(k).registers_per_thread == 4);
}

TEST_CASE("analysis is deterministic", "[analysis]") {
  const Kernel k = kernel_of(kIfElse);
  const KernelAnalysis a = analyze(k), b = analyze(k);
  CHECK(a.reconvergence_pc == b.reconvergence_pc);
  CHECK(a.postdominators.idom == b.postdominators.idom);
  CHECK(a.dominators.idom == b.dominators.idom);
}

TEST_CASE("a conditional branch to its own fall-through has one successor and reconverges there", "[analysis][cfg]") {
  const Kernel k = kernel_of(R"(
kernel same_target() {
    reg pred p
    setp.lt.u32 p, %tid.x, 4          // 0  B0
    @p bra next                       // 1
next:
    exit                              // 2  B1
}
)");
  const KernelAnalysis a = analyze(k);
  CHECK(a.cfg.blocks[0].successors == Blocks{1});
  CHECK(a.cfg.blocks[1].predecessors == Blocks{0});
  CHECK(a.reconvergence_pc[1] == 2);
}
