// The timing model's write path (docs/timing.md, "DRAM"): memory.dirty_sectors and the chip-wide
// table of partly written sectors, on tests/data/timing/stop29.kir.
#include <cstdint>
#include <string>
#include <vector>
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;

namespace {
nlohmann::json stop29(const std::string& kernel, const std::string& grid, const std::string& buffer,
                      const std::vector<std::string>& sets) {
  // Write-backs charged as stores dirty sectors (memory.write_back_at_eviction 0) unless `sets` says
  // otherwise: a later --gpu-set of a parameter wins.
  std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop29.kir", "--kernel", kernel, "--grid",
                                grid, "--block", "256", "--buffer", buffer, "--l2-start", "flushed",
                                "--gpu-set", "memory.write_back_at_eviction=0"};
  for (const auto& set : sets) args.insert(args.end(), {"--gpu-set", set});
  return run_json(args);
}
std::uint64_t dram_bytes(const nlohmann::json& report) { return memory_of(report, 0)["dram_bytes"].get<std::uint64_t>(); }
// One thread of a stop29.kir kernel over out=f64[1].
nlohmann::json stop29_one(const std::string& kernel, const std::vector<std::string>& sets) {
  std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop29.kir", "--kernel", kernel, "--grid",
                                "1", "--block", "1", "--buffer", "out=f64[1]:zeros"};
  for (const auto& set : sets) args.insert(args.end(), {"--gpu-set", set});
  return run_json(args);
}
// A pipeline latency of the h100 preset, as `warpsim gpus --params` would show it.
unsigned base_latency(const std::string& key) {
  warpsim::cli::Io io;
  REQUIRE(warpsim::cli::run_cli({"gpus", "--params"}, io) == 0);
  const auto at = io.out.find("pipeline." + key + " ");
  REQUIRE(at != std::string::npos);
  const auto eq = io.out.find_first_of("0123456789", at + key.size() + 9);
  return static_cast<unsigned>(std::stoul(io.out.substr(eq)));
}
}  // namespace

TEST_CASE("dirty_sectors: a sector costs one write-back however many stores write it, and an in-place update costs one",
          "[timing]") {
  // 2^18 threads write 16 bytes each as two 8-byte stores: 4 MiB of sectors, each written in halves.
  auto pairs = [](const char* set) { return stop29("pair_store", "1024", "out=u64[524288]:zeros", {set}); };
  const auto once = pairs("dirty_sectors=1"), each = pairs("dirty_sectors=0");
  const std::uint64_t footprint = 1024 * 256 * 16;
  // Once: the footprint, and a few sectors the table of partly written ones lost before their
  // second half came (197 at stop 29). Each store: the second half found the sector missing too.
  CHECK(dram_bytes(once) >= footprint);
  CHECK(dram_bytes(once) < footprint + footprint / 200);
  CHECK(dram_bytes(each) > footprint * 3 / 2);
  CHECK(cycles(once) < cycles(each));
  CHECK(once["outputs"] == each["outputs"]);
  // 2^18 words read and written back in place: the read, then the write-back of what it dirtied.
  auto in_place = [](const char* set) { return stop29("add_in_place", "1024", "x=u32[262144]:zeros", {set}); };
  const auto written = in_place("dirty_sectors=1"), unwritten = in_place("dirty_sectors=0");
  const std::uint64_t words = 1024 * 256 * 4;
  CHECK(dram_bytes(unwritten) == words);
  CHECK(dram_bytes(written) == 2 * words);
  CHECK(cycles(written) > cycles(unwritten));
  CHECK(written["outputs"] == unwritten["outputs"]);
  check_refused({{"dirty_sectors=2", "'memory.dirty_sectors': '2' must be 0 or 1"}});
}

TEST_CASE("partly written sectors: a store's whole sectors are whole, and another SM's store completes its edges",
          "[timing]") {
  // 2^21 threads write word t + 1: each warp's 128 bytes lie over 5 sectors, 3 of them whole, and
  // the neighbouring warp (in the next block, on another SM, at the block's edge) writes the rest
  // of each edge sector. Until stop 29 each SM's table took all 5 as partly written (the request's
  // bytes spread evenly: 25 of 32 each) and lost them: 28,111 cycles with merges against 10,196.
  auto shifted = [](const char* set) { return stop29("shifted_store", "8192", "out=u32[2097408]:zeros", {set}); };
  const auto merged = shifted("dram_merge_bytes=512"), free = shifted("dram_merge_bytes=0");
  CHECK(cycles(merged) == cycles(free));
  CHECK(dram_bytes(merged) == dram_bytes(free));
  // The written bytes and the sector past them, once.
  CHECK(dram_bytes(free) == 8192ull * 256 * 4 + 32);
}

TEST_CASE("write_back_at_eviction: a dirty line costs DRAM when it leaves the L2 or its set has too many dirty",
          "[timing]") {
  // 2^18 words (1 MiB, 8,192 lines) read and written back in place, from a flushed L2.
  auto in_place = [](const std::vector<std::string>& sets, const std::string& threads = "1") {
    std::vector<std::string> all = sets;
    all.push_back("write_back_at_eviction=1");
    auto args = std::vector<std::string>{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop29.kir", "--kernel",
                                         "add_in_place", "--grid", "1024", "--block", "256", "--buffer",
                                         "x=u32[262144]:zeros", "--l2-start", "flushed", "--threads", threads};
    for (const auto& set : all) args.insert(args.end(), {"--gpu-set", set});
    return run_json(args);
  };
  const std::uint64_t words = 1024 * 256 * 4;
  // In the 50 MiB L2 every dirty line is still there at the end: only the reads reach DRAM.
  const auto kept = in_place({"l2_dirty_ways=0"});
  const auto at_store = stop29("add_in_place", "1024", "x=u32[262144]:zeros", {"dirty_sectors=1"});
  CHECK(dram_bytes(kept) == words);
  CHECK(dram_bytes(at_store) == 2 * words);
  CHECK(cycles(kept) < cycles(at_store));
  CHECK(kept["outputs"] == at_store["outputs"]);
  // A 512 KiB L2 holds half of it: the lines the later reads evict are written back as they go.
  const auto small = in_place({"l2_dirty_ways=0", "memory.l2_kib=512"});
  CHECK(dram_bytes(small) > words + words / 4);
  CHECK(dram_bytes(small) <= 2 * words);
  const auto small3 = in_place({"l2_dirty_ways=0", "memory.l2_kib=512"}, "3");  // the merge's evictions on 3 threads
  CHECK(cycles(small3) == cycles(small));
  CHECK(dram_bytes(small3) == dram_bytes(small));
  // A 2 MiB L2 (1,024 sets of 16 ways) holds it all, 8 lines a set on average: at most 4 dirty a
  // set writes back about half of them; at most 12 hardly any.
  const auto four = in_place({"l2_dirty_ways=4", "memory.l2_kib=2048"});
  const auto twelve = in_place({"l2_dirty_ways=12", "memory.l2_kib=2048"});
  CHECK(dram_bytes(four) > words + words * 3 / 10);
  CHECK(dram_bytes(four) < words + words * 7 / 10);
  CHECK(dram_bytes(twelve) < words + words / 50);
  CHECK(cycles(in_place({"l2_dirty_ways=4", "memory.l2_kib=2048"}, "3")) == cycles(four));
  // Without memory.dirty_sectors the L2 keeps no dirty sectors and the flag does nothing.
  const auto clean = in_place({"dirty_sectors=0"});
  const auto clean_at_store = stop29("add_in_place", "1024", "x=u32[262144]:zeros", {"dirty_sectors=0"});
  CHECK(cycles(clean) == cycles(clean_at_store));
  CHECK(dram_bytes(clean) == dram_bytes(clean_at_store));
  // Two 8-byte stores a sector, 4 MiB of them, through a 1 MiB L2: each sector is written back
  // once when it leaves (at most what the L2 holds at the end is not), never once a store.
  const std::uint64_t pairs_footprint = 1024 * 256 * 16;
  const auto pairs = stop29("pair_store", "1024", "out=u64[524288]:zeros",
                            {"write_back_at_eviction=1", "l2_dirty_ways=5", "memory.l2_kib=1024"});
  CHECK(dram_bytes(pairs) >= pairs_footprint - 1024 * 1024);
  CHECK(dram_bytes(pairs) < pairs_footprint + pairs_footprint / 200);
  // memory.l2_store_byte_cost: a stored byte takes that many of the L2's bandwidth (1 on the H100).
  auto vecadd = [](const std::string& cost) {
    return run_json({"vecadd", "--set", "n=1048576", "--l2-start", "flushed", "--gpu-set",
                     "memory.l2_store_byte_cost=" + cost});
  };
  const auto cost1 = vecadd("1"), cost8 = vecadd("8");
  CHECK(cycles(cost8) > cycles(cost1));
  check_same_work(cost1, cost8);
  check_refused({{"write_back_at_eviction=2", "'memory.write_back_at_eviction': '2' must be 0 or 1"},
                 {"l2_store_byte_cost=0.5", "'memory.l2_store_byte_cost': '0.5' must be 1..64"},
                 {"l2_dirty_ways=16", "'memory.l2_dirty_ways': '16' must be less than memory.l2_associativity"}});
}

// Not a write rule, but stop 29's too: the f64 sequences ptxas compiles (set29's f64-divsqrt).
TEST_CASE("f64 div, rcp and sqrt are classes of their own (ddiv, drcp, dsqrt), an approximate rcp the SFU's",
          "[timing]") {
  auto run = [](const std::vector<std::string>& sets) {
    return stop29_one("f64_special", sets);
  };
  const auto base = run({});
  const auto& mix = base["launches"][0]["instruction_mix"];
  for (const char* cls : {"ddiv", "drcp", "dsqrt", "sfu", "fp64"}) CHECK(mix[cls]["warp_instructions"] == 1);
  CHECK_FALSE(mix.contains("fdiv"));
  // Each class's latency is its own: 100 cycles more on one dependent instruction, 100 more in all.
  for (const char* key : {"ddiv_latency", "drcp_latency", "dsqrt_latency", "sfu_latency"}) {
    INFO(key);
    const auto slower = run({std::string(key) + "=" + std::to_string(base_latency(key) + 100)});
    CHECK(cycles(slower) == cycles(base) + 100);
    CHECK(slower["outputs"] == base["outputs"]);
  }
  // f32 div's latency does not touch them.
  CHECK(cycles(run({"fdiv_latency=400"})) == cycles(base));
}

TEST_CASE("the write path's merge state gives byte-identical reports for any number of host threads", "[timing]") {
  // The merge's PartialSectors, merge reads and dirty refunds are kept per L2 partition, each filled
  // by one host thread in SM order: 1 and 3 threads (an uneven split of the 16 partitions) agree.
  auto run = [](const std::string& kernel, const std::string& grid, const std::string& buffer, const char* threads) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop29.kir", "--kernel", kernel, "--grid", grid,
                     "--block", "256", "--buffer", buffer, "--l2-start", "flushed", "--gpu-set", "dram_merge_bytes=512",
                     "--threads", threads});
  };
  CHECK(run("shifted_store", "2048", "out=u32[524544]:zeros", "1")["launches"] ==
        run("shifted_store", "2048", "out=u32[524544]:zeros", "3")["launches"]);
  CHECK(run("pair_store", "1024", "out=u64[524288]:zeros", "1")["launches"] ==
        run("pair_store", "1024", "out=u64[524288]:zeros", "3")["launches"]);
}
