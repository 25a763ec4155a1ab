// The timing model's textbook behaviours, asserted from the JSON report as a user reads it, and the
// rule that timing never changes a functional figure.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "kernels/scenario.hpp"
#include "sim/gpu.hpp"
#include "sim/timing/sector_cache.hpp"
#include "tests/kernels/textbook_helpers.hpp"
#include "tools/cli.hpp"
#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;
using warpsim::cli::Io;
using warpsim::cli::run_cli;

TEST_CASE("every scenario gives the same results and divergence figures in timing and functional mode",
          "[timing]") {
  for (const auto& scenario : warpsim::kernels::all_scenarios()) {
    const std::string name(scenario->name());
    // Functional mode runs one block at a time: a grid-wide barrier can only complete with timing.
    if (name == "grid-barrier") continue;
    INFO(name);
    auto timed = run_json({name, "--warps", "all"});
    auto functional = run_json({name, "--warps", "all", "--mode", "functional"});
    CHECK(functional["check"] == timed["check"]);
    REQUIRE(functional["launches"].size() == timed["launches"].size());
    for (std::size_t i = 0; i < timed["launches"].size(); ++i) {
      CHECK(timed["launches"][i]["timing"].is_object());
      CHECK(functional["launches"][i]["timing"].is_null());
      if (name == "reduce-last-block")
        CHECK(functional_part_any_block(functional["launches"][i]) == functional_part_any_block(timed["launches"][i]));
      else
        CHECK(functional_part(functional["launches"][i]) == functional_part(timed["launches"][i]));
    }
  }
}

TEST_CASE("the reduction family ranks as the hardware ranks it", "[timing]") {
  const auto fig13 = cycles(run_json({"reduce-fig5-13"}));
  const auto fig15 = cycles(run_json({"reduce-fig5-15"}));
  CHECK(fig13 > fig15);
  const auto naive = cycles(run_json({"reduce-ece408-naive"}));
  const auto improved = cycles(run_json({"reduce-ece408-improved"}));
  CHECK(naive > improved);
}

TEST_CASE("coarsening the reduction pays until the grid no longer fills the GPU", "[timing]") {
  // 2^22 elements in 256-thread blocks: 8 blocks fit per SM, 1,056 on the H100's 132 SMs.
  std::vector<std::uint64_t> time;
  std::vector<std::uint64_t> grid;
  for (const int coarse : {1, 2, 4, 8, 16}) {
    const auto r = run_json({"reduce-coarsened", "--set", "n=4194304", "--set", fmt::format("coarse={}", coarse)});
    time.push_back(cycles(r));
    grid.push_back(r["launches"][0]["blocks"].get<std::uint64_t>());
  }
  CHECK(time[1] < time[0]);
  CHECK(time[2] < time[1]);
  // The H100: coarse 4 and 8 within 9% (7.55 and 6.91 us); the model has them within 2%.
  CHECK(time[3] < time[2] * 21 / 20);
  CHECK(grid[4] < 1056);  // coarse 16 leaves SMs idle ...
  CHECK(time[4] > time[3]);  // ... and is slower again
}

TEST_CASE("a block needing more registers runs fewer blocks per SM and the report names registers", "[timing]") {
  const auto plain = run_json({"vecadd", "--set", "n=100000", "--set", "block=256"});
  const auto heavy = run_json({"vecadd", "--set", "n=100000", "--set", "block=256", "--registers", "128"});
  const auto& p = plain["launches"][0]["timing"]["occupancy"];
  const auto& h = heavy["launches"][0]["timing"]["occupancy"];
  CHECK(p["blocks_per_sm"] == 8);
  CHECK(p["limiter"] == "warps");
  // 128 registers x 32 lanes = 4,096 per warp: 4 warps per 16,384-register sub-partition, 16 per SM.
  CHECK(h["blocks_per_sm"] == 2);
  CHECK(h["limiter"] == "registers");
  CHECK(h["theoretical"].get<double>() == Approx(0.25));
}

TEST_CASE("a block needing more shared memory runs fewer blocks per SM and the report names shared memory",
          "[timing]") {
  // reduce-fig5-15 holds 1024 floats (4 KiB) of shared memory per block; 256-thread blocks would fit
  // 8 per SM by warps, but an SM with at most 18 KiB of shared memory holds only 3.
  const auto r = run_json({"reduce-fig5-15", "--set", "block=256", "--set", "n=2048", "--gpu-set",
                           "sm.shared_carveouts_kib=0,8,16,18"});
  const auto& o = r["launches"][0]["timing"]["occupancy"];
  CHECK(o["shared_bytes_per_block"] == 4096);
  CHECK(o["blocks_per_sm"] == 3);  // 18 KiB / (4 KiB + 1 KiB reserved)
  CHECK(o["limiter"] == "shared memory");
}

TEST_CASE("a grid-wide spin barrier completes when every block is resident and deadlocks when not", "[timing]") {
  // Two SMs of 2 blocks of 1024 threads each: 4 blocks fit at once.
  const auto fits = run_json({"grid-barrier", "--set", "blocks=4", "--set", "block=1024", "--gpu-set", "sms=2"});
  CHECK(fits["check"]["passed"] == true);
  Io io;
  const int code = run_cli({"run", "grid-barrier", "--set", "blocks=5", "--set", "block=1024", "--gpu-set", "sms=2"}, io);
  CHECK(code == 1);
  CHECK_THAT(io.err, Catch::Contains("deadlocked"));
  CHECK_THAT(io.err, Catch::Contains("4 blocks resident (0, 1, 2, 3)"));
  CHECK_THAT(io.err, Catch::Contains("1 blocks wait to be scheduled (from block 4)"));
  // Where the lead warps spin: the loop's atomic (line 17) or the compare waiting for it (line 18).
  CHECK((io.err.find("warp 0 pc 6 line 17") != std::string::npos ||
         io.err.find("warp 0 pc 7 line 18") != std::string::npos));
  CHECK_THAT(io.err, Catch::Contains("waiting at a barrier"));
}

TEST_CASE("uncoalesced and strided accesses cost more sectors and cycles than unit stride", "[timing]") {
  std::vector<double> sectors;
  std::vector<std::uint64_t> time;
  for (const int stride : {1, 2, 8}) {
    const auto r = run_json({"strided-copy", "--set", fmt::format("stride={}", stride)});
    const auto& m = r["launches"][0]["timing"]["memory"];
    sectors.push_back(double(m["global_sectors"].get<std::uint64_t>()));
    time.push_back(cycles(r));
  }
  // Loads: 4, 8 and 32 sectors per warp; stores stay at 4.
  CHECK(sectors[1] / sectors[0] == Approx(12.0 / 8.0));
  CHECK(sectors[2] / sectors[0] == Approx(36.0 / 8.0));
  CHECK(time[0] < time[1]);
  CHECK(time[1] < time[2]);
}

TEST_CASE("shared-memory bank conflicts of 2, 4 and 32 ways cost 2, 4 and 32 passes", "[timing]") {
  std::vector<std::uint64_t> time;
  for (const int stride : {1, 2, 4, 32}) {
    const auto r = run_json({"bank-conflicts", "--set", fmt::format("stride={}", stride)});
    const auto& m = r["launches"][0]["timing"]["memory"];
    const auto requests = m["shared_requests"].get<std::uint64_t>();
    CHECK(m["shared_passes"].get<std::uint64_t>() == requests * static_cast<std::uint64_t>(stride));
    time.push_back(cycles(r));
  }
  CHECK(time[0] < time[1]);
  CHECK(time[1] < time[2]);
  CHECK(time[2] < time[3]);
}

TEST_CASE("%clock reads the SM's cycle counter: one value per warp, in warp order, a few cycles apart", "[timing]") {
  warpsim::sim::Gpu gpu;
  const auto* scenario = warpsim::kernels::find_scenario("report-clocks");
  warpsim::kernels::RunOptions options;
  const auto outcome = scenario->run(gpu, warpsim::kernels::resolve_params(*scenario, {}), options);
  const auto& bytes = outcome.outputs.front().bytes;
  std::vector<std::uint32_t> clocks(bytes.size() / 4);
  std::memcpy(clocks.data(), bytes.data(), bytes.size());
  const auto& stats = outcome.launches.front().result.stats;
  const std::uint64_t threads = stats.block.count();
  // Block 0: every lane of a warp reads the same value; each warp reads later than the one before.
  std::uint32_t previous = 0;
  for (std::uint64_t w = 0; w * 32 < threads; ++w) {
    const std::uint32_t first = clocks[w * 32];
    for (std::uint64_t t = w * 32; t < std::min(threads, w * 32 + 32); ++t) CHECK(clocks[t] == first);
    if (w > 0) {
      CHECK(first > previous);
      // The H100 reads them 2-9 cycles apart; the model one special-register turn apart
      // (sm.special_register_cycles, 10): the IR's in-order warp waits for %tid before the clock
      // read, where ptxas issues the CS2R ahead of the first use of the S2R's result.
      CHECK(first - previous <= 10);
    }
    previous = first;
  }
}

TEST_CASE("timing reports are byte-identical for any number of host threads", "[timing]") {
  for (const char* target : {"vecadd", "reduce-full", "grid-barrier", "gray"}) {
    Io one, two;
    REQUIRE(run_cli({"run", target, "--format", "json", "--threads", "1", "--warps", "all"}, one) == 0);
    REQUIRE(run_cli({"run", target, "--format", "json", "--threads", "2", "--warps", "all"}, two) == 0);
    CHECK(one.out == two.out);
  }
}

TEST_CASE("bad presets and parameters are refused with one line naming them", "[timing]") {
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"run", "vecadd", "--gpu", "h200x"}, 2, "unknown GPU 'h200x'"},
      {{"run", "vecadd", "--gpu", "/nonexistent/preset.ini"}, 2, "cannot read the preset file"},
      {{"run", "vecadd", "--gpu-set", "bogus=1"}, 2, "unknown parameter 'bogus'"},
      {{"run", "vecadd", "--gpu-set", "sms=0"}, 2, "'gpu.sms': '0' must be 1..4096"},
      {{"run", "vecadd", "--gpu-set", "clock_mhz=0"}, 2, "'gpu.clock_mhz'"},
      {{"run", "vecadd", "--gpu-set", "l2_kib=1"}, 2, "'memory.l2_kib'"},
      {{"run", "vecadd", "--gpu-set", "sms=lots"}, 2, "is not a whole number"},
      {{"run", "vecadd", "--mode", "fast"}, 2, "unknown mode 'fast'"},
      {{"run", "vecadd", "--set", "block=1024", "--registers", "255"}, 1, "registers"},
  };
  for (const auto& c : cases) {
    Io io;
    const int code = run_cli(c.args, io);
    INFO(fmt::format("{}", fmt::join(c.args, " ")) << ": " << io.err);
    CHECK(code == c.code);
    CHECK_THAT(io.err, Catch::Contains(c.says));
    CHECK(std::count(io.err.begin(), io.err.end(), '\n') == 1);
  }
}

TEST_CASE("every built-in preset loads, and gpus lists them", "[timing]") {
  for (const auto& name : warpsim::sim::builtin_presets()) {
    const auto p = warpsim::sim::load_preset(name);
    CHECK(p.name == name);
    CHECK(p.sms > 0);
  }
  Io io;
  REQUIRE(run_cli({"gpus"}, io) == 0);
  CHECK_THAT(io.out, Catch::Contains("h100"));
  CHECK_THAT(io.out, Catch::Contains("a100"));
  CHECK_THAT(io.out, Catch::Contains("v100"));
  Io params;
  REQUIRE(run_cli({"gpus", "--params", "--gpu", "a100"}, params) == 0);
  CHECK_THAT(params.out, Catch::Contains("gpu.sms"));
  CHECK_THAT(params.out, Catch::Contains("108"));
}

TEST_CASE("the same kernel takes fewer cycles on a GPU with more SMs when the grid is large", "[timing]") {
  const auto h100 = cycles(run_json({"vecadd", "--set", "n=2000000", "--set", "block=256", "--gpu", "h100"}));
  const auto v100 = cycles(run_json({"vecadd", "--set", "n=2000000", "--set", "block=256", "--gpu", "v100"}));
  CHECK(h100 < v100);
}


TEST_CASE("the chip's block dispatcher bounds a grid of many small blocks", "[timing]") {
  // 65,536 blocks of 64 threads: each SM could take more blocks than the dispatcher hands out.
  const std::vector<std::string> launch{"vecadd", "--set", "n=4194304", "--set", "block=64"};
  auto with = [&](const char* interval) {
    auto args = launch;
    args.insert(args.end(), {"--gpu-set", fmt::format("block_dispatch_cycles={}", interval)});
    return cycles(run_json(args));
  };
  const auto none = with("0"), h100 = with("1.2"), slow = with("2.4");
  CHECK(none < h100);
  CHECK(h100 < slow);
  CHECK(slow >= static_cast<std::uint64_t>(65536 * 2.4));  // one block per 2.4 cycles, chip-wide
  CHECK(h100 >= static_cast<std::uint64_t>(65536 * 1.2));
  // Large blocks are few: the dispatcher is not what bounds them.
  const auto big0 = cycles(run_json({"vecadd", "--set", "n=4194304", "--set", "block=1024", "--gpu-set",
                                     "block_dispatch_cycles=0"}));
  const auto big = cycles(run_json({"vecadd", "--set", "n=4194304", "--set", "block=1024"}));
  CHECK(big < big0 * 11 / 10);
}

TEST_CASE("launches under l2-start flushed start with an empty L2, under kept with what the last launch left", "[timing]") {
  // reduce-full's second launch reads the block sums the first one wrote (into L2).
  const auto kept = run_json({"reduce-full", "--set", "n=65536"});
  const auto flushed = run_json({"reduce-full", "--set", "n=65536", "--l2-start", "flushed"});
  CHECK(memory_of(kept, 1)["l2_hit_rate"].get<double>() > 0.5);
  CHECK(memory_of(flushed, 1)["l2_hit_rate"].get<double>() == 0.0);
  CHECK(memory_of(flushed, 1)["dram_bytes"].get<std::uint64_t>() > memory_of(kept, 1)["dram_bytes"].get<std::uint64_t>());
  // The first launch starts empty either way.
  CHECK(memory_of(kept, 0) == memory_of(flushed, 0));
  CHECK(cycles(flushed) > cycles(kept));
}

TEST_CASE("32-way bank conflicts from many warps hold the shared pipe shared_replay_interval per pass", "[timing]") {
  const std::vector<std::string> launch{"bank-conflicts", "--set", "stride=32", "--set", "rounds=64",
                                        "--set", "blocks=132"};
  auto with = [&](int interval) {
    auto args = launch;
    args.insert(args.end(), {"--gpu-set", fmt::format("shared_replay_interval={}", interval)});
    return run_json(args);
  };
  const auto one = with(1), two = with(2);
  CHECK(cycles(one) < cycles(two));
  // Passes are the same: the interval changes when they run, not how many there are.
  CHECK(memory_of(one, 0)["shared_passes"] == memory_of(two, 0)["shared_passes"]);
}

TEST_CASE("a read that misses L2 fetches dram_fetch_sectors at once: one sector per line costs double at 2",
          "[timing]") {
  auto dram = [](const char* stride, int sectors) {
    const auto r = run_json({"strided-copy", "--set", "n=65536", "--set", fmt::format("stride={}", stride),
                             "--gpu-set", fmt::format("dram_fetch_sectors={}", sectors)});
    return memory_of(r, 0)["dram_bytes"].get<std::uint64_t>();
  };
  // Stride 32: each lane reads one 32-byte sector of its own line, 65,536 x 32 bytes, plus the stores.
  const auto sparse1 = dram("32", 1), sparse2 = dram("32", 2);
  CHECK(sparse2 - sparse1 == 65536ull * 32);
  // Stride 1: every sector of each line is read anyway.
  CHECK(dram("1", 1) == dram("1", 2));
}

TEST_CASE("the stop-20 preset parameters are checked with one line naming them", "[timing]") {
  check_refused({{"block_dispatch_cycles=-1", "'gpu.block_dispatch_cycles'"},
                 {"shared_replay_interval=0", "'memory.shared_replay_interval': '0' must be 1..1024"},
                 {"dram_fetch_sectors=3", "'memory.dram_fetch_sectors': '3' must be a power of two"},
                 {"dram_fetch_sectors=8", "'memory.dram_fetch_sectors': '8' must be a power of two"}});
}

TEST_CASE("dram_loaded_latency adds to DRAM reads as DRAM gets busy (times u / (1 - u))", "[timing]") {
  // A streaming kernel keeps DRAM busy; a single warp's few reads hardly use it.
  auto us = [](const std::vector<std::string>& launch, int extra) {
    auto args = launch;
    args.insert(args.end(), {"--gpu-set", fmt::format("dram_loaded_latency={}", extra)});
    return cycles(run_json(args));
  };
  // 2^20 elements fill the H100 four times over (8,192 warps); 2^22 cost CI a minute under ASan.
  const std::vector<std::string> stream{"vecadd", "--set", "n=1048576", "--set", "block=256"};
  const std::vector<std::string> tiny{"vecadd", "--set", "n=64", "--set", "block=64"};
  CHECK(us(stream, 66) == cycles(run_json(stream)));  // the h100 preset's value
  CHECK(us(stream, 0) < us(stream, 66));
  // Many loads in flight hide most of it; a reduction whose warps each wait on their first loads
  // does not.
  CHECK(us(stream, 600) > us(stream, 0));
  const std::vector<std::string> waits{"reduce-fig5-15", "--set", "n=1048576", "--set", "block=512"};
  CHECK(us(waits, 600) > us(waits, 0) * 21 / 20);
  // One block of two warps: its reads wait at most the little the first epoch's traffic adds.
  CHECK(us(tiny, 600) < us(tiny, 0) + 600 / 4);
  CHECK(us(stream, 600) == us(stream, 600));  // deterministic
}

TEST_CASE("an if-converted branch: a warp whose lanes all skip the body still issues it, results unchanged",
          "[timing]") {
  const std::string file = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/if_convert.kir";
  auto run = [&](const char* kernel, int most) {
    return run_json({file, "--kernel", kernel, "--grid", "1", "--block", "64", "--buffer", "out=u32[64]:zeros",
                     "--gpu-set", fmt::format("if_convert_max={}", most), "--gpu-set", "fold_widenings=0",
                     "--gpu-set", "fuse_addresses=0"});
  };
  // Without the lowering's folds (sm.fold_widenings, sm.fuse_addresses; both 0 on the H100), whose
  // folded instructions take no slot: issued minus executed is then the predicated slots alone.
  auto predicated_slots = [](const nlohmann::json& r) {
    const auto& l = r["launches"][0];
    return l["timing"]["stalls"]["issued"].get<std::int64_t>() - l["warp_instructions"].get<std::int64_t>();
  };
  // Warp 1 skips the 3-instruction body once: the branch's slot is the body's first, 2 more follow.
  const auto off = run("if_convert", 0), shorter = run("if_convert", 2), fits = run("if_convert", 3),
             h100 = run_json({file, "--kernel", "if_convert", "--grid", "1", "--block", "64", "--buffer",
                              "out=u32[64]:zeros", "--gpu-set", "fold_widenings=0", "--gpu-set", "fuse_addresses=0"});
  CHECK(predicated_slots(off) == 0);
  CHECK(predicated_slots(shorter) == 0);
  CHECK(predicated_slots(fits) == 2);
  CHECK(predicated_slots(h100) == 2);  // the h100 preset if-converts bodies of up to 8
  // No branch to fetch after: the skipping warp is ready sooner than after a taken branch.
  CHECK(cycles(fits) < cycles(off));
  CHECK(fits["outputs"] == off["outputs"]);
  CHECK(fits["launches"][0]["warp_instructions"] == off["launches"][0]["warp_instructions"]);
  // A body with a global load stays a branch.
  CHECK(predicated_slots(run("if_convert_global", 8)) == 0);
  CHECK(cycles(run("if_convert_global", 8)) == cycles(run("if_convert_global", 0)));
  // Fig 5.15's tree: the warps past the stride issue the predicated body and its shared accesses.
  const std::vector<std::string> tree{"reduce-fig5-15", "--set", "n=262144", "--set", "block=512"};
  auto with = [&](int most) {
    auto args = tree;
    args.insert(args.end(), {"--gpu-set", fmt::format("if_convert_max={}", most)});
    return run_json(args);
  };
  const auto plain = with(0), converted = with(8);
  CHECK(cycles(converted) > cycles(plain) * 21 / 20);
  CHECK(predicated_slots(converted) > 0);
  Io io;
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "if_convert_max=65"}, io) == 2);
  CHECK_THAT(io.err, Catch::Contains("'sm.if_convert_max': '65' must be 0..64"));
}

TEST_CASE("batched_loads: a loop's accumulations let up to that many loads be pending, results unchanged",
          "[timing]") {
  // One block of the coarsened reduction, 32 loads per thread: one at a time without batching.
  auto run = [](int batched, const char* coarse) {
    return run_json({"reduce-coarsened", "--set", "n=8192", "--set", fmt::format("coarse={}", coarse), "--gpu-set",
                     fmt::format("batched_loads={}", batched)});
  };
  const auto serial = run(0, "16"), two = run(2, "16"), four = run(4, "16");
  CHECK(cycles(two) < cycles(serial) * 3 / 4);
  CHECK(cycles(four) < cycles(two));
  CHECK(four["outputs"] == serial["outputs"]);
  CHECK(four["launches"][0]["warp_instructions"] == serial["launches"][0]["warp_instructions"]);
  CHECK(cycles(run_json({"reduce-coarsened", "--set", "n=8192", "--set", "coarse=16"})) == cycles(four));  // h100: 4
  // vecadd accumulates nothing: only the loads' write-after-write wait goes (a few cycles).
  const std::vector<std::string> vecadd{"vecadd", "--set", "n=65536"};
  auto batched = vecadd;
  batched.insert(batched.end(), {"--gpu-set", "batched_loads=4"});
  auto unbatched = vecadd;
  unbatched.insert(unbatched.end(), {"--gpu-set", "batched_loads=0"});
  const auto with = cycles(run_json(batched)), without = cycles(run_json(unbatched));
  // Within 1% either way (the loads' order moves the LSU's queue by a cycle or so).
  CHECK(with <= without + without / 100);
  CHECK(with + without / 100 >= without);
  Io io;
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "batched_loads=9"}, io) == 2);
  CHECK_THAT(io.err, Catch::Contains("'sm.batched_loads': '9' must be 0..8"));
}

TEST_CASE("pending_fills: a request for a line whose fill is on its way waits for it, in L1 and L2", "[timing]") {
  // Every thread chases one cold chain: the first warp misses, the others ask for lines already on
  // their way. With pending fills each load waits the whole DRAM round trip; without, a follower
  // hits at L1 latency (same block) or L2 latency (other SMs, after an epoch) and overtakes.
  const std::string file = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/chase_together.kir";
  auto run = [&](int pending, const char* grid, const char* block) {
    return run_json({file, "--kernel", "chase_together", "--grid", grid, "--block", block, "--arg", "steps=16",
                     "--buffer", "buf=u32[131072]:zeros", "--buffer", "out=u64[4224]:zeros", "--l2-start", "flushed",
                     "--gpu-set", fmt::format("pending_fills={}", pending)});
  };
  for (const auto& [grid, block] : std::vector<std::pair<const char*, const char*>>{{"1", "512"}, {"132", "32"}}) {
    CAPTURE(grid, block);
    const auto with = run(1, grid, block), without = run(0, grid, block);
    // Each of the 16 dependent loads takes a DRAM round trip (676 cycles) with pending fills.
    CHECK(cycles(with) > 16 * 600);
    CHECK(cycles(without) < cycles(with) * 3 / 4);
    CHECK(with["outputs"] == without["outputs"]);
    // In one SM, requests that waited for a fill on their way count as hits, as Nsight Compute
    // counts them. (SMs that miss within one epoch each fetch: the L2 learns of a fill at the
    // epoch's end.)
    if (std::string(grid) == "1") CHECK(with["launches"][0]["timing"]["memory"]["l1_hit_rate"].get<double>() > 0.5);
  }
  Io io;
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "pending_fills=2"}, io) == 2);
  CHECK_THAT(io.err, Catch::Contains("'memory.pending_fills': '2' must be 0 or 1"));
}

TEST_CASE("predicated_shared_passes: a skipped if-converted body's shared accesses take the shared pipe",
          "[timing]") {
  // Fig 5.15's tree: most warps skip the tree step's shared loads and store in most rounds.
  const std::vector<std::string> tree{"reduce-fig5-15", "--set", "n=262144", "--set", "block=512"};
  auto with = [&](int passes) {
    auto args = tree;
    args.insert(args.end(), {"--gpu-set", fmt::format("predicated_shared_passes={}", passes)});
    return run_json(args);
  };
  const auto off = with(0), on = with(1);
  CHECK(cycles(on) > cycles(off) * 21 / 20);
  CHECK(on["outputs"] == off["outputs"]);
  // The skipped accesses are not shared-memory requests: no lane made them.
  CHECK(on["launches"][0]["timing"]["memory"]["shared_requests"] == off["launches"][0]["timing"]["memory"]["shared_requests"]);
  CHECK(cycles(run_json(tree)) == cycles(on));  // h100: 1
  // Without if-conversion there is nothing to charge.
  auto plain = tree;
  plain.insert(plain.end(), {"--gpu-set", "if_convert_max=0", "--gpu-set", "predicated_shared_passes=1"});
  auto plain0 = tree;
  plain0.insert(plain0.end(), {"--gpu-set", "if_convert_max=0", "--gpu-set", "predicated_shared_passes=0"});
  CHECK(cycles(run_json(plain)) == cycles(run_json(plain0)));
  Io io;
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "predicated_shared_passes=2"}, io) == 2);
  CHECK_THAT(io.err, Catch::Contains("'sm.predicated_shared_passes': '2' must be 0 or 1"));
}

TEST_CASE("atomic_slice_cycles: the L2 slice holding a line serialises the chip's atomics to it", "[timing]") {
  const std::string file = std::string(WARPSIM_KERNELS_DIR) + "/microbench/mb_sync.kir";
  // 132 x 8 warps; lane 0 of each (`lane0`), or every lane, adds `steps` times to
  // words[((k x threads + g) x stride) & mask].
  auto run = [&](const char* stride, const char* mask, const char* lane0, const std::string& set) {
    std::vector<std::string> args{file, "--kernel", "atom_stream", "--grid", "132", "--block", "256", "--arg", "steps=8",
                                  "--arg", fmt::format("stride={}", stride), "--arg", fmt::format("mask={}", mask), "--arg",
                                  fmt::format("lane0={}", lane0), "--buffer", "words=f32[1048576]:zeros"};
    if (!set.empty()) args.insert(args.end(), {"--gpu-set", set});
    return run_json(args);
  };
  // One word for the whole chip: 8448 atomics, one slice turn (3.49 cycles, the h100 preset's) each.
  const auto hot = run("0", "0", "1", ""), hot_free = run("0", "0", "1", "atomic_slice_cycles=0");
  CHECK(cycles(hot) > 132 * 8 * 8 * 3.49 * 0.9);
  CHECK(cycles(hot_free) * 4 < cycles(hot));
  CHECK(hot["outputs"] == hot_free["outputs"]);
  // Every lane its own line: the work spreads over the slices; one slice would take far longer.
  const auto spread = run("32", "1048575", "0", ""), one_slice = run("32", "1048575", "0", "l2_slices=1");
  CHECK(cycles(one_slice) > cycles(spread) * 10);
  // One line, 32 distinct words against 8 words with 4 lanes each: four turns a request.
  const auto distinct = run("1", "31", "0", ""), four = run("1", "7", "0", "");
  CHECK(cycles(four) > cycles(distinct) * 3);
  Io io;
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "l2_slices=0"}, io) == 2);
  CHECK_THAT(io.err, Catch::Contains("'memory.l2_slices': '0' must be 1..4096"));
}

TEST_CASE("a global integer atom.add of a constant to one address is one atomic for the warp", "[timing]") {
  // ptxas aggregates it (VOTEU.ANY, POPC, one ATOMG: the SASS of bfs_frontier); from a register
  // it is 32 lane atomics on one word. The counter ends the same.
  const std::string file = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/atom_uniform.kir";
  auto run = [&](const char* kernel) {
    return run_json({file, "--kernel", kernel, "--grid", "132", "--block", "256", "--arg", "steps=4", "--buffer",
                     "counter=u32[1]:zeros"});
  };
  const auto aggregated = run("atom_const"), lanes = run("atom_reg");
  CHECK(cycles(aggregated) * 10 < cycles(lanes));
  CHECK(aggregated["outputs"] == lanes["outputs"]);
}

TEST_CASE("batched_loads: an unrolled body's arithmetic goes ahead of the loads still to come", "[timing]") {
  const std::string file = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/unrolled.kir";
  auto run = [&](int batched) {
    return run_json({file, "--grid", "1", "--block", "32", "--arg", "n=16", "--buffer", "a=f32[4096]:random",
                     "--buffer", "x=f32[4096]:random", "--buffer", "out=f32[32]:zeros", "--l2-start", "flushed",
                     "--gpu-set", fmt::format("batched_loads={}", batched), "--gpu-set", "hoist_global_loads=0"});
  };
  // Without batching each copy's multiply waits for its loads before the next copy's loads issue:
  // two DRAM round trips an iteration; with it, one. (With sm.hoist_global_loads the next copy's
  // loads go ahead of the multiply too: the same one round trip, so it is off here.)
  const auto serial = run(0), batched = run(4);
  CHECK(cycles(batched) * 3 < cycles(serial) * 2);
  CHECK(batched["outputs"] == serial["outputs"]);
  CHECK(batched["launches"][0]["warp_instructions"] == serial["launches"][0]["warp_instructions"]);
}

TEST_CASE("a line's arrival cycle is kept until the launch ends, then settled, and cleared when it is evicted",
          "[timing]") {
  using warpsim::sim::SectorCache;
  SectorCache l2(std::uint64_t{1} << 16, 128, 2);  // 256 sets of 2 ways
  const std::uint64_t line = 5, set = l2.set_index(line);
  const unsigned part = SectorCache::partition_of_set(set);
  l2.fill_set_partition(line, 1, set, part, 1000);
  l2.fill_set_partition(line, 1, set, part, 0);  // a later hit's touch does not lower it
  std::uint64_t ready = 0;
  CHECK(l2.present_in_set(line, set, 1, &ready) == 1);
  CHECK(ready == 1000);
  l2.settle();  // the next launch counts cycles from 0
  CHECK(l2.present_in_set(line, set, 1, &ready) == 1);
  CHECK(ready == 0);
  l2.fill_set_partition(line, 1, set, part, 2000);
  // Two more lines of the same set evict it; brought back, it has no arrival cycle of its own.
  for (std::uint64_t other = line + 1; other < line + 100000 && l2.present_in_set(line, set, 1, &ready) != 0; ++other)
    if (l2.set_index(other) == set) l2.fill_set_partition(other, 1, set, part, 0);
  CHECK(l2.present_in_set(line, set, 1, &ready) == 0);
  l2.fill_set_partition(line, 1, set, part, 0);
  CHECK(l2.present_in_set(line, set, 1, &ready) == 1);
  CHECK(ready == 0);
}


TEST_CASE("f64 arithmetic is the fp64 class: its own latency, apart from f32's", "[timing]") {
  auto run = [](const std::string& set) {
    std::vector<std::string> args{stop23_file(), "--kernel", "fma64_chain", "--grid", "1", "--block", "1", "--arg",
                                  "steps=64", "--buffer", "out=f64[1]:zeros"};
    if (!set.empty()) args.insert(args.end(), {"--gpu-set", set});
    return run_json(args);
  };
  const auto fast = run("fp64_latency=8"), slow = run("fp64_latency=40"), f32_slow = run("fp32_latency=40");
  // 64 dependent f64 FMAs, 32 cycles more each (the loop's own instructions hide a little of it).
  CHECK(cycles(slow) >= cycles(fast) + 64 * 28);
  CHECK(cycles(f32_slow) == cycles(run("")));
  CHECK(slow["outputs"] == fast["outputs"]);
  const auto& mix = fast["launches"][0]["instruction_mix"];
  CHECK(mix["fp64"]["warp_instructions"] == 64);
  CHECK_FALSE(mix.contains("fp32"));
}

TEST_CASE("fold_immediates: a mov of an immediate takes no issue slot, results and counts unchanged", "[timing]") {
  // In the IR's order (schedule_arithmetic 0): scheduled, the unfolded movs fill the slots in which
  // the FMAs wait for each other, and folding them saves slots but hardly any cycles.
  auto run = [](int fold, int unroll) {
    return run_json({stop23_file(), "--kernel", "imm_loop", "--grid", "1", "--block", "128", "--arg", "steps=64",
                     "--buffer", "out=f32[128]:zeros", "--gpu-set", fmt::format("fold_immediates={}", fold),
                     "--gpu-set", fmt::format("unroll={}", unroll), "--gpu-set", "schedule_arithmetic=0"});
  };
  const auto off = run(0, 1), on = run(1, 1);
  // Two movs a trip, 64 trips, 4 warps, and the counter's first mov.
  CHECK(issue_slots(off) - issue_slots(on) == (2 * 64 + 1) * 4);
  CHECK(cycles(on) * 10 < cycles(off) * 9);
  CHECK(on["outputs"] == off["outputs"]);
  CHECK(on["launches"][0]["warp_instructions"] == off["launches"][0]["warp_instructions"]);
}

TEST_CASE("unroll: an innermost loop's counter, compare and branch issue once per that many trips", "[timing]") {
  auto run = [](int unroll) {
    return run_json({stop23_file(), "--kernel", "imm_loop", "--grid", "1", "--block", "128", "--arg", "steps=64",
                     "--buffer", "out=f32[128]:zeros", "--gpu-set", fmt::format("unroll={}", unroll)});
  };
  const auto every = run(1), four = run(4);
  // Trips 0-2 of each four fold their three bookkeeping instructions: 48 of 64 trips, 4 warps.
  CHECK(issue_slots(every) - issue_slots(four) == 48 * 3 * 4);
  CHECK(cycles(four) < cycles(every));
  CHECK(four["outputs"] == every["outputs"]);
  CHECK(four["launches"][0]["warp_instructions"] == every["launches"][0]["warp_instructions"]);
  // A counter that adds what the trip loaded: its folded constant step is ready when the load is,
  // so the next trip's load still waits for this one (no faster than without unrolling).
  auto chase = [](int unroll) {
    return run_json({stop23_file(), "--kernel", "dep_loop", "--grid", "1", "--block", "1", "--arg",
                     "limit=131168", "--buffer", "in=u32[1048576]:random:2", "--buffer", "out=u32[1]:zeros",
                     "--l2-start", "flushed", "--gpu-set", fmt::format("unroll={}", unroll)});
  };
  const auto dep1 = chase(1), dep4 = chase(4);
  CHECK(issue_slots(dep4) < issue_slots(dep1));  // its bookkeeping did fold
  CHECK(cycles(dep4) * 20 > cycles(dep1) * 19);
  CHECK(dep4["outputs"] == dep1["outputs"]);
  // A grid-stride loop (the counter steps by a register) and a loop without a counter are not
  // unrolled: the same slots and cycles either way.
  auto same = [](const std::vector<std::string>& args) {
    auto with = [&](int unroll) {
      auto a = args;
      a.insert(a.end(), {"--gpu-set", fmt::format("unroll={}", unroll)});
      return run_json(a);
    };
    const auto one = with(1), four = with(4);
    CHECK(issue_slots(four) == issue_slots(one));
    CHECK(cycles(four) == cycles(one));
  };
  same({stop23_file(), "--kernel", "stride_loop", "--grid", "4", "--block", "128", "--arg", "n=16384", "--buffer",
        "in=u32[16384]:random", "--buffer", "out=u32[512]:zeros"});
  same({stop23_file(), "--kernel", "search_loop", "--grid", "1", "--block", "1", "--arg", "key=63", "--buffer",
        "in=u32[64]:iota:1", "--buffer", "out=u32[1]:zeros"});
  Io io;
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "unroll=0"}, io) == 2);
  CHECK_THAT(io.err, Catch::Contains("'sm.unroll': '0' must be 1..64"));
}

TEST_CASE("scattered accesses: L1 lookups a cycle, the L2's least access, DRAM page openings", "[timing]") {
  // Threads each read one f32 of a scattered word under `mask` of a buffer of `words`, which starts
  // in L2 (restored) or not (flushed); vecadd reads whole lines.
  auto scattered = [](const std::string& grid, const std::string& block, const std::string& mask,
                      const std::string& words, const std::string& l2, const std::string& set) {
    return run_json({stop23_file(), "--kernel", "scatter_read", "--grid", grid, "--block", block, "--arg",
                     "mask=" + mask, "--buffer", "in=f32[" + words + "]:zeros", "--buffer", "out=f32[65536]:zeros",
                     "--l2-start", l2, "--gpu-set", set});
  };
  auto vecadd = [](const std::string& set) {
    return cycles(run_json({"vecadd", "--set", "n=1048576", "--l2-start", "flushed", "--gpu-set", set}));
  };
  // L1: 32 warps of one SM, 32 scattered lines a request: 1,024 cycles of lookups at one a cycle.
  auto l1 = [&](const char* set) { return cycles(scattered("1", "1024", "4095", "4096", "restored", set)); };
  CHECK(l1("l1_lines_per_cycle=3") + 500 < l1("l1_lines_per_cycle=1"));
  CHECK(vecadd("l1_lines_per_cycle=3") == vecadd("l1_lines_per_cycle=1"));
  // L2 (the buffer restored into it): each one-sector access takes at least l2_access_bytes of the
  // SM's share; whole lines are over it.
  auto l2 = [&](const char* set) { return cycles(scattered("256", "256", "1048575", "1048576", "restored", set)); };
  CHECK(l2("l2_access_bytes=128") > l2("l2_access_bytes=32"));
  CHECK(vecadd("l2_access_bytes=128") == vecadd("l2_access_bytes=32"));
  auto dram = [&](const char* set) { return scattered("64", "256", "16777215", "16777216", "flushed", set); };
  // DRAM: each scattered fetch opens a page of its own; a request for one line opens one, free.
  const auto closed = dram("dram_page_miss_bytes=512"), open = dram("dram_page_miss_bytes=0");
  CHECK(cycles(closed) > cycles(open));
  CHECK(memory_of(closed, 0)["dram_bytes"] == memory_of(open, 0)["dram_bytes"]);
  CHECK(closed["outputs"] == open["outputs"]);
  CHECK(vecadd("dram_page_miss_bytes=512") == vecadd("dram_page_miss_bytes=0"));
  check_refused({{"l1_bytes_per_cycle=16", "'memory.l1_bytes_per_cycle': '16' must be at least a sector"},
                 {"l2_access_bytes=5000", "'memory.l2_access_bytes': '5000' must be 0..4096"},
                 {"dram_page_bytes=100", "'memory.dram_page_bytes': '100' must be a power of two of at least a line"},
                 {"dram_page_miss_bytes=-1", "'memory.dram_page_miss_bytes'"},
                 {"fold_immediates=2", "'sm.fold_immediates': '2' must be 0 or 1"}});
}

TEST_CASE("stores: the least L2 share a store's access takes, and the merge read of a sector left partly written",
          "[timing]") {
  const std::string file = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop24.kir";
  // 2^18 one-word stores at scattered words of 64 MiB, which starts outside L2: each allocates a
  // sector with 4 of its 32 bytes written.
  // Write-backs charged when a store dirties a sector (memory.write_back_at_eviction 0), so that
  // every partly written sector's merge read shows in the DRAM bytes.
  auto scatter = [&](const std::string& set) {
    return run_json({file, "--kernel", "scatter_write", "--grid", "1024", "--block", "256", "--arg", "mask=16777215",
                     "--buffer", "out=f32[16777216]:zeros", "--l2-start", "flushed", "--gpu-set", set, "--gpu-set",
                     "memory.write_back_at_eviction=0"});
  };
  // The same number of one-word stores a warp, but each block's 8 warps fill the sectors they start.
  auto columns = [&](const std::vector<std::string>& sets) {
    std::vector<std::string> args{file, "--kernel", "column_write", "--grid", "4096", "--block", "256", "--arg",
                                  "cols=512", "--buffer", "out=f32[16777216]:zeros", "--l2-start", "flushed",
                                  "--gpu-set", "memory.write_back_at_eviction=0"};
    for (const auto& set : sets) args.insert(args.end(), {"--gpu-set", set});
    return run_json(args);
  };
  auto vecadd = [](const std::string& set) {
    return cycles(run_json({"vecadd", "--set", "n=1048576", "--l2-start", "flushed", "--gpu-set", set}));
  };
  // The merge: sectors left partly written cost DRAM time and a sector's read each; the results
  // and the requests do not change.
  const auto merged = scatter("dram_merge_bytes=512"), free = scatter("dram_merge_bytes=0");
  CHECK(cycles(merged) > cycles(free) * 2);
  const auto merged_bytes = memory_of(merged, 0)["dram_bytes"].get<std::uint64_t>(),
             free_bytes = memory_of(free, 0)["dram_bytes"].get<std::uint64_t>();
  CHECK(merged_bytes > free_bytes);
  CHECK((merged_bytes - free_bytes) % 32 == 0);  // whole sectors read back
  CHECK(merged["outputs"] == free["outputs"]);
  CHECK(memory_of(merged, 0)["global_store_requests"] == memory_of(free, 0)["global_store_requests"]);
  // Column stores write the same partial sectors a warp, but the block fills each: no merge.
  const auto filled = columns({"dram_merge_bytes=512"}), unfilled = columns({"dram_merge_bytes=0"});
  CHECK(cycles(filled) == cycles(unfilled));
  // A few sectors may leave their L2 partition's table (32,768 entries, chip-wide since stop 29)
  // before their block's last warp fills them, as the warps' order allows: well under 0.1% more
  // DRAM bytes.
  const auto filled_bytes = memory_of(filled, 0)["dram_bytes"].get<std::uint64_t>(),
             unfilled_bytes = memory_of(unfilled, 0)["dram_bytes"].get<std::uint64_t>();
  CHECK(filled_bytes >= unfilled_bytes);
  CHECK(filled_bytes - unfilled_bytes < unfilled_bytes / 1000);
  CHECK(memory_of(filled, 0)["sectors_per_request"].get<double>() == 32.0);
  // Whole-line stores neither merge nor reach the floor.
  CHECK(vecadd("dram_merge_bytes=512") == vecadd("dram_merge_bytes=0"));
  CHECK(vecadd("l2_store_access_bytes=128") == vecadd("l2_store_access_bytes=32"));
  // A store over 4 lines (scatter_sector4: a whole sector in each) is not scattered: no store floor.
  auto sectors = [](const std::string& set) {
    return cycles(run_json({std::string(WARPSIM_KERNELS_DIR) + "/microbench/mb_write.kir", "--kernel", "scatter_sector4",
                            "--grid", "256", "--block", "256", "--arg", "m=262144", "--arg", "mask=2097151", "--buffer",
                            "out=f32[2097152]:zeros", "--gpu-set", set}));
  };
  CHECK(sectors("l2_store_access_bytes=512") == sectors("l2_store_access_bytes=32"));
  // The store floor: the scattered one-sector accesses of column_write take at least
  // l2_store_access_bytes; 0 falls back to the loads'.
  auto columns_at = [&](std::vector<std::string> sets) {
    sets.push_back("dram_merge_bytes=0");
    return cycles(columns(sets));
  };
  CHECK(columns_at({"l2_store_access_bytes=256"}) > columns_at({"l2_store_access_bytes=64"}));
  CHECK(columns_at({"l2_store_access_bytes=0", "l2_access_bytes=64"}) ==
        columns_at({"l2_store_access_bytes=64", "l2_access_bytes=64"}));
  check_refused({{"l2_store_access_bytes=5000", "'memory.l2_store_access_bytes': '5000' must be 0..4096"},
                 {"dram_merge_bytes=-1", "'memory.dram_merge_bytes': '-1' must be 0..65536"}});
}

TEST_CASE("atomic_int_slice_cycles: one integer operation on a hot word takes the L2 slice for less time than a float one",
          "[timing]") {
  const std::string file = std::string(WARPSIM_KERNELS_DIR) + "/microbench/mb_sync.kir";
  // Lane 0 of each of 132 x 8 warps adds 8 times to one word, as u32 (the old values summed, an
  // ATOMG with return) or as f32 (atom_stream).
  auto u32 = [&](const std::string& set) {
    return run_json({file, "--kernel", "atom_stream_u32", "--grid", "132", "--block", "256", "--arg", "steps=8", "--arg",
                     "stride=0", "--arg", "mask=0", "--arg", "ret=1", "--buffer", "words=u32[33793]:zeros", "--gpu-set",
                     set});
  };
  auto f32 = [&](const std::string& set) {
    return cycles(run_json({file, "--kernel", "atom_stream", "--grid", "132", "--block", "256", "--arg", "steps=8",
                            "--arg", "stride=0", "--arg", "mask=0", "--arg", "lane0=1", "--buffer",
                            "words=f32[1]:zeros", "--gpu-set", set}));
  };
  // 8448 atomics on one word: about 8448 turns of the slice, whichever time a turn takes.
  const auto fast = u32("atomic_int_slice_cycles=1.5"), slow = u32("atomic_int_slice_cycles=6");
  CHECK(cycles(fast) > 8448 * 1.5 * 0.9);
  CHECK(cycles(slow) > cycles(fast) * 3);
  CHECK(fast["outputs"] == slow["outputs"]);
  // 0: integer atomics take the float ones' time; float atomics never take the integer time.
  CHECK(cycles(u32("atomic_int_slice_cycles=0")) == cycles(u32("atomic_int_slice_cycles=3.49")));
  CHECK(f32("atomic_int_slice_cycles=1") == f32("atomic_int_slice_cycles=100"));
  // A warp's 32 lanes on one word: aggregated (a constant) it is one integer operation and takes
  // the integer turn; from a register it is 32 lanes, each the integer turn (atom-lanes-u32-m32:
  // 46.4 cycles a request = 32 x 1.45 on the H100); the float turn's floor is checked below.
  const std::string uniform = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/atom_uniform.kir";
  auto lanes = [&](const char* kernel, const std::string& set) {
    return cycles(run_json({uniform, "--kernel", kernel, "--grid", "132", "--block", "256", "--arg", "steps=4",
                            "--buffer", "counter=u32[1]:zeros", "--gpu-set", set}));
  };
  CHECK(lanes("atom_const", "atomic_int_slice_cycles=20") > lanes("atom_const", "atomic_int_slice_cycles=1") * 5);
  const auto reg_slow = lanes("atom_reg", "atomic_int_slice_cycles=3"),
             reg_fast = lanes("atom_reg", "atomic_int_slice_cycles=1.5");
  CHECK(reg_slow > reg_fast * 3 / 2);  // 32 turns of the integer adder a request
  // 1056 warps x 4 requests of 32 lanes, one slice: at least 32 integer turns each.
  CHECK(reg_fast > std::uint64_t(1056 * 4 * 32 * 1.5 * 0.9));
  // Without the integer line rate, not under the float turn: with an integer turn of 0.01, 32 lanes
  // take 0.32 < 3.49, the float turn; with the rate (memory.atomic_lines_per_cycle) the floor is off.
  auto unfloored = [&](const std::string& rate) {
    return cycles(run_json({uniform, "--kernel", "atom_reg", "--grid", "132", "--block", "256", "--arg", "steps=4",
                            "--buffer", "counter=u32[1]:zeros", "--gpu-set", "atomic_int_slice_cycles=0.01",
                            "--gpu-set", rate}));
  };
  CHECK(unfloored("atomic_lines_per_cycle=0") > std::uint64_t(1056 * 4 * 3.49 * 0.9));
  CHECK(unfloored("atomic_lines_per_cycle=1000") < unfloored("atomic_lines_per_cycle=0") / 2);
  check_refused({{"atomic_int_slice_cycles=-1", "'memory.atomic_int_slice_cycles': '-1' must be 0..1e6"}});
}

TEST_CASE("l2_slice_line_shift and atomic_lines_per_cycle: nearby lines share a slice, and integer atomic lines share a rate",
          "[timing]") {
  const std::string file = std::string(WARPSIM_KERNELS_DIR) + "/microbench/mb_sync.kir";
  // Every lane of 132 x 8 warps adds to its own line, 4 times, over `lines` consecutive lines.
  auto lines_run = [&](unsigned lines, std::vector<std::string> sets) {
    std::vector<std::string> args{file, "--kernel", "atom_lines_u32", "--grid", "132", "--block", "256", "--arg", "steps=4",
                                  "--arg", "stride=32", "--arg", fmt::format("mask={}", lines * 32 - 1), "--buffer",
                                  fmt::format("words=u32[{}]:zeros", lines * 32)};
    for (const auto& s : sets) args.insert(args.end(), {"--gpu-set", s});
    return cycles(run_json(args));
  };
  const std::string rate = "atomic_lines_per_cycle=1000";  // no bound to speak of, and no float floor
  // 32 lines each a slice of their own, or 4 a slice (8 slices): about 4 times the turns at the busiest.
  const auto alone = lines_run(32, {"l2_slice_line_shift=0", rate}), grouped = lines_run(32, {"l2_slice_line_shift=2", rate});
  CHECK(grouped > alone * 2.5);
  // The chip's integer line rate: 132 x 8 warps x 4 requests x 32 lines at 8 a cycle take at least
  // 16,896 cycles, however many slices share them.
  const auto capped = lines_run(1024, {"l2_slice_line_shift=2", "atomic_lines_per_cycle=8"});
  CHECK(capped > std::uint64_t(132 * 8 * 4 * 32 / 8 * 0.9));
  CHECK(capped > lines_run(1024, {"l2_slice_line_shift=2", rate}) * 2);
  // Float atomics are bound by their slice turn, not by the integer line rate.
  auto f32 = [&](const std::string& set) {
    return cycles(run_json({file, "--kernel", "atom_stream", "--grid", "132", "--block", "256", "--arg", "steps=4",
                            "--arg", "stride=32", "--arg", "mask=32767", "--arg", "lane0=0", "--buffer",
                            "words=f32[32768]:zeros", "--gpu-set", set}));
  };
  CHECK(f32("atomic_lines_per_cycle=1") == f32("atomic_lines_per_cycle=0"));
  // One integer lane a warp (SingleInteger) passes the rate too: lane 0 of 132 x 8 warps, 4 steps,
  // each on a line of its own.
  auto single = [&](const std::string& set) {
    return cycles(run_json({file, "--kernel", "atom_stream_u32", "--grid", "132", "--block", "256", "--arg", "steps=4",
                            "--arg", "stride=32", "--arg", "mask=1048575", "--arg", "ret=0", "--buffer",
                            "words=u32[1081344]:zeros", "--gpu-set", set}));
  };
  CHECK(single("atomic_lines_per_cycle=0.01") > single("atomic_lines_per_cycle=1000") * 2);
  check_refused({{"l2_slice_line_shift=21", "'memory.l2_slice_line_shift': '21' must be at most 20"},
                 {"atomic_lines_per_cycle=-1", "'memory.atomic_lines_per_cycle': '-1' must be 0 or 0.001..1e6"},
                 {"atomic_lines_per_cycle=1e-9", "must be 0 or 0.001..1e6"}});
  // The rate is a part of the slices' model: without their turns it would do nothing, so it is refused.
  Io io;
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "atomic_slice_cycles=0", "--gpu-set", "atomic_int_slice_cycles=0"}, io) ==
        2);
  CHECK_THAT(io.err, Catch::Contains("needs the L2 slices' atomic turns"));
  CHECK(run_cli({"run", "vecadd", "--gpu-set", "atomic_slice_cycles=0", "--gpu-set", "atomic_int_slice_cycles=0",
                 "--gpu-set", "atomic_lines_per_cycle=0"},
                io) == 0);
}
