// The timing model's compiler rules (what ptxas does to the IR's order and instructions, stops 25-27),
// asserted from the JSON report: each rule's effect on cycles, and that it never changes what a
// kernel computes or how many instructions it runs.
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;
using warpsim::cli::Io;
using warpsim::cli::run_cli;

TEST_CASE("hoist_shared_loads: shared loads issue ahead of the arithmetic before them, results and counts unchanged",
          "[timing]") {
  // Eight ld.shared, each beside the fmaf that reads it, one warp per sub-partition: in the IR's
  // order every load's latency is exposed; hoisted, the eight are in flight together. Without
  // sm.vector_shared_loads, which would make the eight two LDS.128 (stop 28).
  auto dot = [](const std::string& kernel, const std::string& set) {
    return stop25_run(kernel, {"--gpu-set", set, "--gpu-set", "vector_shared_loads=0"});
  };
  const auto in_order = dot("shared_dot", "hoist_shared_loads=0"), hoisted = dot("shared_dot", "hoist_shared_loads=10"),
             two = dot("shared_dot", "hoist_shared_loads=2");
  CHECK(cycles(hoisted) * 2 < cycles(in_order));
  CHECK(cycles(two) < cycles(in_order));
  CHECK(cycles(hoisted) < cycles(two));  // a window of 2 keeps fewer loads in flight
  // The warp executes the same instructions, and the registers and memory cannot tell the orders
  // apart: the same bytes out, in timing mode with either order and in functional mode.
  REQUIRE(in_order["outputs"].size() == 2);
  CHECK(hoisted["outputs"] == in_order["outputs"]);
  CHECK(two["outputs"] == in_order["outputs"]);
  CHECK(stop25_run("shared_dot", {"--mode", "functional"})["outputs"] == in_order["outputs"]);
  CHECK(hoisted["launches"][0]["warp_instructions"] == in_order["launches"][0]["warp_instructions"]);
  CHECK(cycles(stop25_run("shared_dot", {"--gpu-set", "vector_shared_loads=0"})) == cycles(hoisted));  // h100: 10
  // A shared store between each load and the one before it: no load may pass it, whatever the window.
  const auto stored = dot("shared_dot_stored", "hoist_shared_loads=10"),
             stored0 = dot("shared_dot_stored", "hoist_shared_loads=0");
  CHECK(cycles(stored) == cycles(stored0));
  CHECK(stored["outputs"] == stored0["outputs"]);
  check_refused({{"hoist_shared_loads=65", "'sm.hoist_shared_loads': '65' must be 0..64"}});
}

TEST_CASE("fold_truncations: a cvt of a 64-bit integer to 32 bits takes no issue slot, results and counts unchanged",
          "[timing]") {
  const auto folded = stop25_run("truncate_sum", {"--gpu-set", "fold_truncations=1"}),
             issued = stop25_run("truncate_sum", {"--gpu-set", "fold_truncations=0"});
  REQUIRE(folded["outputs"].size() == 1);
  CHECK(folded["outputs"] == issued["outputs"]);
  CHECK(stop25_run("truncate_sum", {"--mode", "functional"})["outputs"] == issued["outputs"]);
  CHECK(folded["launches"][0]["warp_instructions"] == issued["launches"][0]["warp_instructions"]);
  // Two of the loop's eight instructions a trip take no slot: fewer issue slots, fewer cycles.
  auto slots = [](const nlohmann::json& r) { return r["launches"][0]["timing"]["stalls"]["issued"].get<std::uint64_t>(); };
  CHECK(slots(folded) < slots(issued));
  CHECK(cycles(folded) < cycles(issued));
  check_refused({{"fold_truncations=2", "'sm.fold_truncations': '2' must be 0 or 1"}});
}

TEST_CASE("schedule_arithmetic: independent chains issue interleaved, results and counts unchanged", "[timing]") {
  // NVVM's order pairs each chain's two dependent FMAs: every second one waits the FMA latency.
  // Issued by the operands' latencies the four chains interleave and the pipe never waits.
  const auto paired = stop25_run("paired_chains", {"--gpu-set", "schedule_arithmetic=0"}),
             scheduled = stop25_run("paired_chains", {"--gpu-set", "schedule_arithmetic=8"}),
             near = stop25_run("paired_chains", {"--gpu-set", "schedule_arithmetic=1"});
  CHECK(cycles(scheduled) * 5 < cycles(paired) * 4);
  CHECK(cycles(near) < cycles(paired));      // one ahead: the next chain's step fills the wait
  CHECK(cycles(scheduled) <= cycles(near));
  REQUIRE(paired["outputs"].size() == 2);
  CHECK(near["outputs"] == paired["outputs"]);
  CHECK(scheduled["outputs"] == paired["outputs"]);
  CHECK(stop25_run("paired_chains", {"--mode", "functional"})["outputs"] == paired["outputs"]);
  CHECK(scheduled["launches"][0]["warp_instructions"] == paired["launches"][0]["warp_instructions"]);
  CHECK(cycles(stop25_run("paired_chains", {})) == cycles(scheduled));  // h100: 8
  check_refused({{"schedule_arithmetic=65", "'sm.schedule_arithmetic': '65' must be 0..64"}});
}

TEST_CASE("64-bit products and bit counts have timing classes of their own (imul64, bits)", "[timing]") {
  const auto mix = stop25_run("bits_mix", {});
  const auto& classes = mix["launches"][0]["instruction_mix"];
  // 132 blocks x 4 warps x 64 trips: one mul.u64, one mul.wide.u32 (a single IMAD.WIDE: imul) and
  // popc, clz, brev each trip.
  const std::uint64_t trips = 132 * 4 * 64;
  CHECK(classes["imul64"]["warp_instructions"].get<std::uint64_t>() == trips);
  CHECK(classes["bits"]["warp_instructions"].get<std::uint64_t>() == 3 * trips);
  CHECK(classes["imul"]["warp_instructions"].get<std::uint64_t>() >= trips);
  // Each class is timed by its own parameters: slower bit counts or 64-bit products, a slower kernel.
  const auto base = cycles(mix);
  CHECK(cycles(stop25_run("bits_mix", {"--gpu-set", "bits_interval=32"})) > base);
  CHECK(cycles(stop25_run("bits_mix", {"--gpu-set", "imul64_latency=200"})) > base);
  CHECK(stop25_run("bits_mix", {"--gpu-set", "bits_interval=32"})["outputs"] == mix["outputs"]);
}

TEST_CASE("SMs that fetch one line from DRAM within one epoch move it once (sim.merge_epoch_misses)", "[timing]") {
  // 264 blocks on 132 SMs all read the same 2 KiB in their first epochs and write 1 KiB each.
  auto run = [](int merge, int threads) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop26.kir", "--kernel", "shared_input", "--grid",
                     "264", "--block", "256",
                     "--buffer", "in=u32[512]:random", "--buffer", "out=u32[67584]:zeros", "--gpu-set",
                     fmt::format("sim.merge_epoch_misses={}", merge), "--threads", std::to_string(threads),
                     "--gpu-set", "memory.write_back_at_eviction=0"});  // the writes charged as they are made
  };
  const std::uint64_t written = 264 * 256 * 4, footprint = 512 * 4;
  const auto once = run(1, 1), each = run(0, 1);
  const auto once_bytes = memory_of(once, 0)["dram_bytes"].get<std::uint64_t>();
  const auto each_bytes = memory_of(each, 0)["dram_bytes"].get<std::uint64_t>();
  CHECK(once_bytes == written + footprint);      // the input crosses DRAM once
  CHECK(each_bytes > written + 8 * footprint);    // every SM that missed it fetched it
  CHECK(once["outputs"] == each["outputs"]);       // timing only: the same results
  CHECK(!once["outputs"].empty());
  // The merge runs per L2 partition on the host threads: the same report for any number of them.
  const auto two = run(1, 2);
  CHECK(two["launches"] == once["launches"]);
  // The refunded fetches leave DRAM's channel too: never slower than paying for each.
  CHECK(cycles(once) <= cycles(each));
  // A stream of distinct lines (vecadd) has nothing fetched twice: merging changes nothing.
  const auto plain = run_json({"vecadd", "--set", "n=1000000", "--gpu-set", "sim.merge_epoch_misses=1"});
  const auto unmerged = run_json({"vecadd", "--set", "n=1000000", "--gpu-set", "sim.merge_epoch_misses=0"});
  CHECK(plain["launches"] == unmerged["launches"]);
}

TEST_CASE("integer logic, shifts, compares and selects have timing classes of their own (logic, logic64)", "[timing]") {
  auto run = [](std::vector<std::string> extra) {
    std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop26.kir", "--kernel", "logic_mix",
                                  "--grid", "132", "--block", "128", "--arg", "rounds=64", "--buffer",
                                  "out=u32[16896]:zeros"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_json(args);
  };
  const auto mix = run({});
  const auto& classes = mix["launches"][0]["instruction_mix"];
  // 132 blocks x 4 warps x 64 trips: xor.b32, shl.b32 and two setp.u32 (logic), shr.u64 (logic64),
  // xor.b64 (int64: ptxas leaves out a half it knows), and.pred and add.u32 (int) each trip.
  const std::uint64_t trips = 132 * 4 * 64;
  CHECK(classes["logic"]["warp_instructions"].get<std::uint64_t>() >= 4 * trips);
  CHECK(classes["logic"]["warp_instructions"].get<std::uint64_t>() < 5 * trips);
  CHECK(classes["logic64"]["warp_instructions"].get<std::uint64_t>() == trips);
  CHECK(classes["int64"]["warp_instructions"].get<std::uint64_t>() >= trips);
  CHECK(classes["int"]["warp_instructions"].get<std::uint64_t>() >= 2 * trips);
  // Each class is timed by its own parameters; the INT pipe they share takes each for its interval.
  const auto base = cycles(mix);
  CHECK(cycles(run({"--gpu-set", "logic_interval=8"})) > base);
  CHECK(cycles(run({"--gpu-set", "logic64_interval=16"})) > base);
  CHECK(cycles(run({"--gpu-set", "logic_interval=1", "--gpu-set", "logic64_interval=1"})) < base);
  CHECK(run({"--gpu-set", "logic_interval=8"})["outputs"] == mix["outputs"]);
  CHECK(run({"--mode", "functional"})["outputs"] == mix["outputs"]);
  check_refused({{"logic_interval=0", "'pipeline.logic_interval': '0' must be at least 1"}});
}

TEST_CASE("a scattered request's misses leave one after another (memory.scatter_line_cycles)", "[timing]") {
  // 4 warps gather 32 random words each (a scattered request: lines in more than 8 pages), and
  // stream 32 consecutive words (one line); only the gather is staggered.
  auto run = [](const std::string& idx, const std::string& stagger) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop26.kir", "--kernel", "gather_once", "--grid",
                     "1", "--block", "128", "--buffer", "in=f32[4194304]:random", "--buffer", "idx=" + idx,
                     "--buffer", "out=f32[128]:zeros", "--gpu-set", "memory.scatter_line_cycles=" + stagger});
  };
  const auto off = run("u32[128]:random:4194304", "0"), on = run("u32[128]:random:4194304", "12.8"),
             slow = run("u32[128]:random:4194304", "40");
  CHECK(cycles(on) > cycles(off) + 31 * 12);  // the last of 32 lines leaves 31 x 12.8 later
  CHECK(cycles(slow) > cycles(on));
  CHECK(on["outputs"] == off["outputs"]);
  CHECK(!on["outputs"].empty());
  const auto stream_off = run("u32[128]:iota", "0"), stream_on = run("u32[128]:iota", "40");
  CHECK(cycles(stream_on) == cycles(stream_off));
  check_refused({{"scatter_line_cycles=-1", "'memory.scatter_line_cycles': '-1' must be 0..1000"}});
}

TEST_CASE("each data-bank pass of an L1 load after its first adds to its latency (memory.l1_pass_cycles)", "[timing]") {
  // One warp, a dependent chain of 64 loads: lanes 2 KiB apart (32 lines in one bank: 32 passes a
  // load), or 4 bytes apart (one line, one pass). Only the first is slower, by about 31 x 2.31 a load.
  auto run = [](const std::string& stride, const std::string& pass) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop31.kir", "--kernel", "lane_rows", "--grid", "1",
                     "--block", "32", "--arg", "stride=" + stride, "--arg", "trips=64", "--buffer",
                     "in=u32[32768]:zeros", "--buffer", "out=u32[32]:zeros", "--gpu-set", "memory.l1_pass_cycles=" + pass});
  };
  const auto off = run("512", "0"), on = run("512", "2.31");
  CHECK(cycles(on) >= cycles(off) + 60 * 31 * 2);
  CHECK(cycles(on) <= cycles(off) + 64 * 31 * 3);
  CHECK(on["outputs"] == off["outputs"]);
  CHECK(cycles(run("1", "2.31")) == cycles(run("1", "0")));
  check_refused({{"l1_pass_cycles=101", "'memory.l1_pass_cycles': '101' must be 0..100"}});
}

TEST_CASE("a global store holds the LSU for its passes, and its warp waits (memory.store_line_cycles)", "[timing]") {
  // One warp, 64 stores back to back: lanes 256 bytes apart (32 lines in one bank: 32 passes), or
  // 4 bytes apart (one pass). Only the first is slower: each store holds the warp about 32 x 1.99
  // cycles, longer than a trip of the loop takes without the rule.
  auto run = [](const std::string& stride, const std::string& pass) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop31.kir", "--kernel", "lane_stores", "--grid",
                     "1", "--block", "32", "--arg", "stride=" + stride, "--arg", "trips=64", "--buffer",
                     "out=f32[2112]:zeros", "--gpu-set", "memory.store_line_cycles=" + pass});
  };
  const auto off = run("64", "0"), on = run("64", "1.99");
  CHECK(cycles(off) < 64 * 40);
  CHECK(cycles(on) >= 64 * 62);
  CHECK(cycles(on) <= cycles(off) + 64 * 64);
  CHECK(on["outputs"] == off["outputs"]);
  CHECK(!on["outputs"].empty());
  CHECK(cycles(run("1", "1.99")) <= cycles(run("1", "0")) + 64);
  check_refused({{"store_line_cycles=-1", "'memory.store_line_cycles': '-1' must be 0..100"}});
}

TEST_CASE("a load over many lines gets its L1 misses back one after another (memory.dram_line_cycles)", "[timing]") {
  // lane_rows with lanes 256 bytes apart: 32 lines in 8 KiB (a few DRAM pages, not scattered). The
  // L1 fetches sectors, so every 8th step misses it (a new sector a lane): 8 requests, two of them
  // cold from DRAM (a new line a lane every 32 steps), the rest from L2. Each one's last line comes
  // 31 x 7.5 cycles after its first; a one-line request (lanes 4 bytes apart) is not held.
  auto run = [](const std::string& stride, const std::string& dram) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop31.kir", "--kernel", "lane_rows", "--grid", "1",
                     "--block", "32", "--arg", "stride=" + stride, "--arg", "trips=64", "--buffer",
                     "in=u32[32768]:zeros", "--buffer", "out=u32[32]:zeros", "--gpu-set", "memory.dram_line_cycles=" + dram,
                     "--gpu-set", "memory.l2_line_cycles=" + dram});
  };
  const auto off = run("64", "0"), on = run("64", "7.5");
  CHECK(cycles(on) >= cycles(off) + 4 * 31 * 7);
  CHECK(cycles(on) <= cycles(off) + 8 * 32 * 8);
  CHECK(on["outputs"] == off["outputs"]);
  CHECK(cycles(run("1", "7.5")) == cycles(run("1", "0")));
  check_refused({{"dram_line_cycles=101", "'memory.dram_line_cycles': '101' must be 0..100"},
                 {"l2_line_cycles=-1", "'memory.l2_line_cycles': '-1' must be 0..100"}});
}

TEST_CASE("fuse_logic: an and read only by the next xor, and a rotate's two shifts, take no issue slot", "[timing]") {
  auto run = [](std::vector<std::string> extra) {
    std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop26.kir", "--kernel", "lop_fuse",
                                  "--grid", "132", "--block", "128", "--arg", "rounds=64", "--buffer",
                                  "out=u32[16896]:zeros"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_json(args);
  };
  const auto fused = run({"--gpu-set", "fuse_logic=1"}), apart = run({"--gpu-set", "fuse_logic=0"});
  auto slots = [](const nlohmann::json& r) { return r["launches"][0]["timing"]["stalls"]["issued"].get<std::uint64_t>(); };
  // Per trip and chain: and, xor, shl, shr, or; the and and both shifts fold: 3 of 5. The fourth
  // chain's temporaries (m, a, b) are not written again before the loop's end, where the check falls
  // back to the kernel-wide reader count (NVVM's registers are written once; these four times), so
  // its three stay: 9 a trip.
  const std::uint64_t trips = 132 * 4 * 64;
  CHECK(slots(apart) - slots(fused) >= 9 * trips);
  CHECK(slots(apart) - slots(fused) < 9 * trips + 132 * 4 * 8);
  CHECK(cycles(fused) < cycles(apart));
  CHECK(fused["launches"][0]["warp_instructions"] == apart["launches"][0]["warp_instructions"]);
  REQUIRE(fused["outputs"].size() == 1);
  CHECK(fused["outputs"] == apart["outputs"]);
  CHECK(run({"--mode", "functional"})["outputs"] == fused["outputs"]);
  check_refused({{"fuse_logic=2", "'sm.fuse_logic': '2' must be 0 or 1"}});
  // A rotate read only by a xor: its two shifts fold, its or stays (SHF.L.W, then LOP3), and the
  // s32 rotate (an arithmetic shr) folds nothing: 2 a trip, not 3.
  auto rotate = [](const std::string& set) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop26.kir", "--kernel", "rotate_xor", "--grid",
                     "132", "--block", "128", "--arg", "rounds=64", "--buffer", "out=u32[16896]:zeros", "--gpu-set",
                     set});
  };
  const auto rot = rotate("fuse_logic=1"), rot0 = rotate("fuse_logic=0");
  CHECK(slots(rot0) - slots(rot) == 2 * trips);
  CHECK(rot["outputs"] == rot0["outputs"]);
}

TEST_CASE("int_either_pipe: adds issue on the fma pipe while logic holds the int pipe", "[timing]") {
  auto run = [](const std::string& set) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop26.kir", "--kernel", "logic_mix", "--grid",
                     "132", "--block", "1024", "--arg", "rounds=64", "--buffer", "out=u32[135168]:zeros", "--gpu-set",
                     set});
  };
  const auto either = run("int_either_pipe=1"), int_only = run("int_either_pipe=0");
  CHECK(cycles(either) < cycles(int_only));
  CHECK(either["outputs"] == int_only["outputs"]);
  CHECK(either["launches"][0]["warp_instructions"] == int_only["launches"][0]["warp_instructions"]);
  check_refused({{"int_either_pipe=2", "'sm.int_either_pipe': '2' must be 0 or 1"}});
}

namespace {
std::string stop27_file() { return std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop27.kir"; }
}  // namespace

TEST_CASE("hoist_global_loads: a trip's second global load issues ahead of the arithmetic on the first",
          "[timing]") {
  // One block an SM, a grid-stride loop of 64 trips: each trip waits for DRAM once when y's load
  // goes ahead of the multiply on x, twice when it waits behind it.
  auto run = [](const std::string& set) {
    return run_json({stop27_file(), "--kernel", "load_pair", "--grid", "132", "--block", "256", "--arg", "a=0.5",
                     "--arg", "n=2162688", "--buffer", "x=f32[2162688]:random", "--buffer", "y=f32[2162688]:random",
                     "--buffer", "z=f32[2162688]:zeros", "--gpu-set", set});
  };
  const auto hoisted = run("hoist_global_loads=1"), in_order = run("hoist_global_loads=0");
  CHECK(cycles(hoisted) * 10 < cycles(in_order) * 7);  // a round trip less of about two a trip
  CHECK(hoisted["outputs"] == in_order["outputs"]);
  CHECK(hoisted["launches"][0]["warp_instructions"] == in_order["launches"][0]["warp_instructions"]);
  // The hoisting's count of unread loads bounds it: with none allowed, the IR's order.
  const auto none = run_json({stop27_file(), "--kernel", "load_pair", "--grid", "132", "--block", "256", "--arg",
                              "a=0.5", "--arg", "n=2162688", "--buffer", "x=f32[2162688]:random", "--buffer",
                              "y=f32[2162688]:random", "--buffer", "z=f32[2162688]:zeros", "--gpu-set",
                              "hoist_global_loads=1", "--gpu-set", "hoist_shared_loads=0"});
  CHECK(cycles(none) == cycles(in_order));
  // A global load never passes an earlier shared store: the second load of stage_pair waits.
  auto staged = [](const std::string& set) {
    return run_json({stop27_file(), "--kernel", "stage_pair", "--grid", "132", "--block", "256", "--buffer",
                     "x=f32[512]:random", "--buffer", "out=f32[256]:zeros", "--gpu-set", set});
  };
  const auto staged1 = staged("hoist_global_loads=1"), staged0 = staged("hoist_global_loads=0");
  // (the load's address arithmetic may still move by a cycle; passing the store would save a round trip)
  CHECK(cycles(staged1) * 100 >= cycles(staged0) * 99);
  CHECK(staged1["outputs"] == staged0["outputs"]);
  check_refused({{"hoist_global_loads=2", "'sm.hoist_global_loads': '2' must be 0 or 1"}});
}

TEST_CASE("int_either_pipe: a shl by an immediate takes the fma pipe when the int pipe is busy, a shr does not",
          "[timing]") {
  auto run = [](const std::string& kernel, const std::string& set) {
    return run_json({stop27_file(), "--kernel", kernel, "--grid", "132", "--block", "1024", "--arg", "rounds=64",
                     "--buffer", "out=u32[135168]:zeros", "--gpu-set", set});
  };
  const auto left = run("shift_left", "int_either_pipe=1"), right = run("shift_right", "int_either_pipe=1");
  const auto left0 = run("shift_left", "int_either_pipe=0"), right0 = run("shift_right", "int_either_pipe=0");
  CHECK(cycles(left) * 10 < cycles(right) * 9);  // the shifts leave the int pipe to the xors
  CHECK(cycles(left0) == cycles(right0));        // one pipe: the same classes, the same cycles
  CHECK(left["launches"][0]["warp_instructions"] == right["launches"][0]["warp_instructions"]);
  CHECK(left["outputs"] == left0["outputs"]);
}

std::string stop28_file() { return std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop28.kir"; }

TEST_CASE("vector_shared_loads: four shared loads of a base the compiler proves aligned issue as one LDS.128",
          "[timing]") {
  auto run = [](const std::string& kernel, const std::string& set) {
    return run_json({stop28_file(), "--kernel", kernel, "--grid", "132", "--block", "1024", "--arg", "rounds=64", "--arg",
                     "skew=0", "--buffer", "out=f32[135168]:zeros", "--gpu-set", set});
  };
  const auto merged = run("quad_sum", "vector_shared_loads=1"), scalar = run("quad_sum", "vector_shared_loads=0");
  const auto& m = merged["launches"][0]["timing"]["memory"];
  const auto& s = scalar["launches"][0]["timing"]["memory"];
  // A round's 16 shared passes (4 loads at a 16-byte lane stride, 4 passes each) become 4, and its
  // 4 load issues 1: the shared pipe bounds both runs.
  CHECK(cycles(merged) * 3 < cycles(scalar));
  CHECK(m["shared_passes"].get<std::uint64_t>() * 3 < s["shared_passes"].get<std::uint64_t>());
  CHECK(m["shared_requests"].get<std::uint64_t>() * 3 < s["shared_requests"].get<std::uint64_t>());
  // Timing only: what the kernel computes and executes is the same.
  CHECK(merged["outputs"] == scalar["outputs"]);
  CHECK(merged["launches"][0]["warp_instructions"] == scalar["launches"][0]["warp_instructions"]);
  // The same addresses through a base plus a parameter: nothing the compiler can prove aligned, no merging.
  const auto skewed = run("quad_sum_skewed", "vector_shared_loads=1"), skewed0 = run("quad_sum_skewed", "vector_shared_loads=0");
  CHECK(cycles(skewed) == cycles(skewed0));
  CHECK(skewed["outputs"] == merged["outputs"]);
  CHECK(cycles(skewed) == Approx(cycles(scalar)).epsilon(0.01));
  // What the compiler cannot merge either: no LDS.64 at +4, and a base whose block's last write is
  // aligned but whose value at the loads (written before a membar.cta that splits the run) is not.
  for (const char* kernel : {"pair_offset", "quad_pinned"}) {
    INFO(kernel);
    const auto on = run(kernel, "vector_shared_loads=1"), off = run(kernel, "vector_shared_loads=0");
    CHECK(on["launches"][0]["timing"]["memory"]["shared_passes"] == off["launches"][0]["timing"]["memory"]["shared_passes"]);
    CHECK(cycles(on) == cycles(off));
  }
  check_refused({{"vector_shared_loads=2", "'sm.vector_shared_loads': '2' must be 0 or 1"}});
}

namespace {
std::string stop30_file() { return std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop30.kir"; }
}  // namespace

TEST_CASE("slow_paths: the load after an IEEE division waits for the division's operands, not the .approx form's",
          "[timing]") {
  // 64 blocks of 128 threads, 32 rows: each row's load of d comes after the first division. With the
  // slow path's branch (sm.slow_paths) it issues once b and c are back: two memory round trips a row
  // where without it the warp issued past the division and the three loads went together.
  auto run = [](const std::string& kernel, const std::vector<std::string>& more) {
    std::vector<std::string> args{stop30_file(), "--kernel", kernel, "--grid", "64", "--block", "128", "--arg",
                                  "cols=8192", "--arg", "trips=32", "--buffer", "b=f32[262144]:random", "--buffer",
                                  "c=f32[262144]:random", "--buffer", "d=f32[262144]:random", "--buffer",
                                  "q=f32[262144]:zeros", "--buffer", "r=f32[262144]:zeros"};
    args.insert(args.end(), more.begin(), more.end());
    return run_json(args);
  };
  const auto slow = run("divide_rows", {"--gpu-set", "slow_paths=1"}),
             plain = run("divide_rows", {"--gpu-set", "slow_paths=0"});
  CHECK(cycles(slow) * 10 > cycles(plain) * 16);  // about a round trip more of one a row
  CHECK(slow["outputs"] == plain["outputs"]);
  CHECK(slow["launches"][0]["warp_instructions"] == plain["launches"][0]["warp_instructions"]);
  CHECK(run("divide_rows", {"--mode", "functional"})["outputs"] == plain["outputs"]);
  CHECK(cycles(run("divide_rows", {})) == cycles(slow));  // the h100 preset's value is 1
  // div.approx.f32 is MUFU.RCP and a multiply: no branch, the same cycles either way.
  const auto approx = run("divide_rows_approx", {"--gpu-set", "slow_paths=1"});
  CHECK(cycles(approx) == cycles(run("divide_rows_approx", {"--gpu-set", "slow_paths=0"})));
  CHECK(cycles(approx) < cycles(slow));
  check_refused({{"slow_paths=2", "'sm.slow_paths': '2' must be 0 or 1"}});
}

TEST_CASE("slow_path_slots: an IEEE division holds its sub-partition's issue for its fast path's instructions",
          "[timing]") {
  auto run = [](const std::string& set) {
    return run_json({stop30_file(), "--kernel", "divide_mix", "--grid", "132", "--block", "256", "--arg", "trips=16",
                     "--buffer", "out=f32[33792]:zeros", "--buffer", "sum=u32[33792]:zeros", "--gpu-set", set});
  };
  auto issued = [](const nlohmann::json& r) {
    return r["launches"][0]["timing"]["stalls"]["issued"].get<std::uint64_t>();
  };
  const auto one = run("slow_path_slots=1"), nine = run("slow_path_slots=9"), none = run("slow_path_slots=0");
  // 132 blocks of 8 warps, 16 trips, a division a trip: eight more issue slots each.
  constexpr std::uint64_t divisions = 132ull * 8 * 16;
  CHECK(issued(nine) - issued(one) == 8 * divisions);
  CHECK(issued(none) == issued(one));
  CHECK(cycles(nine) >= cycles(one));
  CHECK(nine["outputs"] == one["outputs"]);
  CHECK(nine["launches"][0]["warp_instructions"] == one["launches"][0]["warp_instructions"]);
  check_refused({{"slow_path_slots=65", "'sm.slow_path_slots': '65' must be 0..64"}});
}

namespace {
// stop32.kir's sweep: one warp reads `words` words twice, each load waiting on the last.
nlohmann::json sweep(const std::string& kernel, std::uint32_t words, const std::vector<std::string>& sets) {
  std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop32.kir", "--kernel", kernel,
                                "--grid", "1", "--block", "32", "--arg", "words=" + std::to_string(words),
                                "--arg", "passes=2", "--buffer", "in=u32[" + std::to_string(words) + "]:zeros",
                                "--buffer", "out=u32[32]:zeros", "--gpu-set", "sim.watchdog_cycles=16777216"};
  for (const auto& s : sets) {
    args.push_back("--gpu-set");
    args.push_back(s);
  }
  return run_json(args);
}
}  // namespace

TEST_CASE("the driver's carve-out sets the L1's size (sm.carveout_unused_kib, sm.carveout_headroom)", "[timing]") {
  // 240 KiB read twice: a 256 KiB L1 (no carve-out) holds it and the second pass hits; with the
  // H100's 32 KiB carve-out for a kernel without shared memory the L1 keeps 224 KiB, and a pass
  // over more than it holds (least recently used) misses most of it.
  const auto whole = sweep("sweep", 61440, {"sm.carveout_unused_kib=0"});
  const auto carved = sweep("sweep", 61440, {"sm.carveout_unused_kib=32"});
  CHECK(memory_of(whole, 0)["l1_hit_rate"].get<double>() == 0.5);
  CHECK(memory_of(carved, 0)["l1_hit_rate"].get<double>() < 0.4);
  CHECK(cycles(carved) > cycles(whole) + 500 * 200);
  CHECK(carved["outputs"] == whole["outputs"]);
  // 4 KiB of shared memory a block: 32 blocks' 160 KiB fit the 164 KiB carve-out (an L1 of 92 KiB,
  // which holds 76 KiB); one carve-out further, 196 KiB, leaves it 60.
  const auto least = sweep("sweep_shared", 19456, {"sm.carveout_headroom=0"});
  const auto next = sweep("sweep_shared", 19456, {"sm.carveout_headroom=1"});
  CHECK(memory_of(least, 0)["l1_hit_rate"].get<double>() == 0.5);
  CHECK(memory_of(next, 0)["l1_hit_rate"].get<double>() < 0.1);  // the folded index leaves a few sets short (fold 6: 7.9%)
  CHECK(cycles(next) > cycles(least) + 608 * 200);
  check_refused({{"carveout_unused_kib=300", "'sm.carveout_unused_kib': '300' must not exceed sm.unified_l1_shared_kib"},
                 {"carveout_headroom=10", "'sm.carveout_headroom': '10' must be less than the number of carve-outs"}});
}

TEST_CASE("an L2 hit past the near half of its set's ways takes longer (memory.l2_near_ways, l2_far_cycles)",
          "[timing]") {
  // A 512 KiB L2 of 16 ways: 384 KiB read twice puts 12 lines in a set, so the second pass's hits
  // are 11 ways deep, past the 8 near ones, and each costs l2_far_cycles more (3,072 loads); 256 KiB
  // puts 8 in a set, all near. Neither fits the 224 KiB L1.
  auto run = [](std::uint32_t words, const std::string& far) {
    return sweep("sweep", words, {"memory.l2_kib=512", "memory.l2_far_cycles=" + far});
  };
  const auto deep_off = run(98304, "0"), deep_on = run(98304, "245");
  CHECK(cycles(deep_on) == cycles(deep_off) + 3072 * 245);
  CHECK(memory_of(deep_on, 0)["l2_hit_rate"] == memory_of(deep_off, 0)["l2_hit_rate"]);
  CHECK(cycles(run(65536, "245")) == cycles(run(65536, "0")));
  check_refused({{"l2_near_ways=16", "'memory.l2_near_ways': '16' must be less than memory.l2_associativity"},
                 {"l2_far_cycles=100001", "'memory.l2_far_cycles': '100001' must be at most 100000"}});
}

TEST_CASE("no accumulation issues ahead of its load across a barrier (ptxas moves nothing across a BAR)",
          "[timing]") {
  auto run = [](const std::string& kernel, std::uint32_t words, bool steps) {
    std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop33.kir", "--kernel", kernel,
                                  "--grid", "1", "--block", "32", "--buffer",
                                  "in=f32[" + std::to_string(words) + "]:zeros", "--buffer", "out=f32[32]:zeros"};
    if (steps) args.insert(args.end(), {"--arg", "steps=64"});
    return cycles(run_json(args));
  };
  // 64 steps, each a new line from DRAM added into a sum: with a barrier after each add, every step
  // waits for its load (at least the idle DRAM latency, 674 cycles); without one, the loop is
  // unrolled and its loads go out together.
  const auto barrier = run("acc_barrier", 2048, true), free = run("acc_free", 2048, true);
  CHECK(barrier > 64 * 674);
  CHECK(free * 2 < barrier);
  // Straight-line: a load added into a sum, then 64 dependent integer multiply-adds. They issue
  // while the load is out unless a barrier comes between (then the warp waits at it for the add).
  const auto waited = run("acc_then_barrier", 32, false), overlapped = run("acc_then_work", 32, false);
  CHECK(waited > overlapped + 64 * 3);
}

TEST_CASE("the L1's folded set index spreads power-of-two strides (memory.l1_index_fold)", "[timing]") {
  // 256 words 2 KiB apart, read twice by one thread: the H100's L1 holds them all
  // (chase-l1-stride2k-256); a plain index over the 448 sets of a 224 KiB, 4-way L1 puts them in
  // 28 sets, and the second pass misses most of them.
  auto run = [](const std::string& fold) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop33.kir", "--kernel", "stride_walk", "--grid",
                     "1", "--block", "1", "--buffer", "in=u32[131072]:zeros", "--buffer", "out=u32[1]:zeros", "--arg",
                     "stride=512", "--arg", "count=256", "--arg", "passes=2", "--gpu-set", "memory.l1_index_fold=" + fold});
  };
  const auto folded = run("6"), plain = run("0");  // 6: the H100 preset's
  CHECK(memory_of(folded, 0)["l1_hit_rate"].get<double>() == 0.5);
  CHECK(memory_of(plain, 0)["l1_hit_rate"].get<double>() < 0.25);
  CHECK(cycles(plain) > cycles(folded) + 100 * 200);
  check_refused({{"l1_index_fold=22", "'memory.l1_index_fold': '22' must be at most 21"}});
}

TEST_CASE("an SM's bandwidth shares move a burst at once after idling (memory.share_burst_bytes)", "[timing]") {
  // 132 blocks of 32 warps, each warp loading a new line a step, then bar.sync: each SM asks for
  // 4 KiB at once. Its 1/132 share of DRAM (11.7 bytes a cycle) takes about 350 cycles to move
  // them one after another; a burst of 4,096 bytes moves them together (barrier-dram-w32 on the
  // H100: 837 cycles a step against one warp's 790). Without sm.special_register_cycles, whose turns
  // would spread the warps' first loads over 310 cycles.
  auto run = [](const std::string& burst) {
    return cycles(run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop33.kir", "--kernel", "barrier_stream",
                            "--grid", "132", "--block", "1024", "--buffer", "in=f32[1081344]:zeros", "--buffer",
                            "out=f32[135168]:zeros", "--arg", "steps=8", "--gpu-set", "memory.share_burst_bytes=" + burst,
                            "--gpu-set", "sm.special_register_cycles=0"}));
  };
  const auto none = run("0"), burst = run("4096");
  CHECK(none > burst + 8 * 250);
  check_refused({{"share_burst_bytes=-1", "'memory.share_burst_bytes': '-1' must be 0 to 1048576"}});
}

TEST_CASE("stepping idle epochs as one changes no figure (sim.skip_idle_epochs)", "[timing]") {
  // Launches whose SMs spend most epochs waiting on DRAM (one thread's chase, 132 blocks at a
  // barrier after each load), on one and two host threads, and a deadlock's message.
  const std::string data = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop33.kir";
  const std::vector<std::vector<std::string>> runs{
      {data, "--kernel", "stride_walk", "--grid", "1", "--block", "1", "--buffer", "in=u32[131072]:zeros", "--buffer",
       "out=u32[1]:zeros", "--arg", "stride=512", "--arg", "count=256", "--arg", "passes=2"},
      {data, "--kernel", "barrier_stream", "--grid", "132", "--block", "1024", "--buffer", "in=f32[1081344]:zeros",
       "--buffer", "out=f32[135168]:zeros", "--arg", "steps=8", "--threads", "2"},
      // 132 blocks of one thread, each chasing the same lines: which SM's fill the L2 has merged
      // when another SM looks decides hits and misses, so the epochs' ends must fall where they did.
      {data, "--kernel", "stride_walk", "--grid", "132", "--block", "1", "--buffer", "in=u32[131072]:zeros", "--buffer",
       "out=u32[1]:zeros", "--arg", "stride=40", "--arg", "count=512", "--arg", "passes=2", "--threads", "2"},
      {"vecadd"}};
  for (auto args : runs) {
    args.insert(args.end(), {"--gpu-set", "sim.skip_idle_epochs=0"});
    auto every = run_json(args);
    args.back() = "sim.skip_idle_epochs=1";
    auto skipped = run_json(args);
    for (auto* r : {&every, &skipped}) (*r)["reproduce"].erase("argv"), (*r)["reproduce"].erase("gpu_set");  // the setting itself
    CHECK(every.dump() == skipped.dump());
    CHECK(cycles(every) > 0);
  }
  std::string said[2];
  for (int skip : {0, 1}) {
    Io io;
    CHECK(run_cli({"run", "grid-barrier", "--set", "blocks=5", "--set", "block=1024", "--gpu-set", "sms=2", "--gpu-set",
                   "sim.skip_idle_epochs=" + std::to_string(skip)},
                  io) == 1);
    said[skip] = io.err;
  }
  CHECK_THAT(said[1], Catch::Contains("deadlocked"));
  CHECK(said[0] == said[1]);
  check_refused({{"skip_idle_epochs=2", "'sim.skip_idle_epochs': '2' must be 0 or 1"}});
}
