// memory.l2_side_copies (sim/timing/memory_path.hpp): the L2's two halves each keep their own copy
// of a line their SMs read; a load that finds only the other half's copy is a far hit, and lines
// both halves read take a way each. tests/data/timing/stop39.kir and stop39_halves.json.
#include <string>
#include <vector>
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;

namespace {
const std::string kFar = "memory.l2_far_cycles=245";

std::string copies(unsigned on) { return "memory.l2_side_copies=" + std::to_string(on); }

// SM 0 reads `words` words (a line a load), then the SM of block `reader` reads them again.
nlohmann::json halves(unsigned reader, unsigned on) {
  return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop39_halves.json", "--set",
                   "reader=" + std::to_string(reader), "--gpu-set", copies(on), "--gpu-set", kFar});
}

// `grid` blocks of one warp each read 384 KiB twice, in a 512 KiB L2 (the L1 holds 224 KiB).
nlohmann::json together(unsigned grid, unsigned on, const std::string& threads = "1") {
  return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop39.kir", "--kernel", "sweep_all", "--grid",
                   std::to_string(grid), "--block", "32", "--arg", "words=98304", "--arg", "passes=2", "--buffer",
                   "in=u32[98304]:zeros", "--buffer", "out=u32[32]:zeros", "--gpu-set", "memory.l2_kib=512",
                   "--gpu-set", "sim.watchdog_cycles=16777216", "--gpu-set", copies(on), "--threads", threads});
}

std::uint64_t launch_cycles(const nlohmann::json& r, std::size_t launch) {
  return r["launches"][launch]["timing"]["cycles"].get<std::uint64_t>();
}
std::uint64_t dram(const nlohmann::json& r, std::size_t launch) {
  return memory_of(r, launch)["dram_bytes"].get<std::uint64_t>();
}
}  // namespace

TEST_CASE("l2_side_copies: a load that finds only the other half's copy of a line is a far hit", "[timing]") {
  // 4,096 words: 128 loads, each on a line SM 0 brought in. SM 1 is in SM 0's half (pairs of SMs
  // alternate), SM 2 is not.
  const auto same_off = halves(1, 0), same_on = halves(1, 1), other_off = halves(2, 0), other_on = halves(2, 1);
  CHECK(launch_cycles(same_on, 1) == launch_cycles(same_off, 1));
  CHECK(launch_cycles(other_off, 1) <= launch_cycles(same_off, 1) + 2);  // block 2 is dispatched later
  CHECK(launch_cycles(other_on, 1) == launch_cycles(other_off, 1) + 128 * 245);
  for (const auto* r : {&same_on, &other_on}) {
    CHECK(memory_of(*r, 1)["l2_hit_rate"].get<double>() == 1.0);
    CHECK(dram(*r, 1) == 0);
  }
  CHECK(launch_cycles(other_on, 0) == launch_cycles(other_off, 0));  // SM 0's first read: no copy yet either way
  CHECK(other_on["outputs"] == other_off["outputs"]);
}

TEST_CASE("l2_side_copies: lines both halves read take a way in each", "[timing]") {
  // Two blocks on SMs 0 and 1 (one half): 384 KiB fits the 512 KiB L2 once, and the second pass
  // hits. Four blocks (both halves): two copies of it do not fit, and the second pass goes to DRAM.
  const auto one_off = together(2, 0), one_on = together(2, 1);
  CHECK(cycles(one_on) == cycles(one_off));
  CHECK(dram(one_on, 0) == dram(one_off, 0));
  const auto both_off = together(4, 0), both_on = together(4, 1);
  check_same_work(both_off, both_on);
  CHECK(memory_of(both_off, 0)["l2_hit_rate"].get<double>() >= 0.5);
  CHECK(memory_of(both_on, 0)["l2_hit_rate"].get<double>() < 0.1);
  // The first pass's misses, both halves at once, fetch each line once; the second pass again.
  CHECK(dram(both_on, 0) > dram(both_off, 0) * 19 / 10);
  CHECK(cycles(both_on) > cycles(both_off));
  CHECK(cycles(together(4, 1, "3")) == cycles(both_on));
}

TEST_CASE("l2_side_copies: the host's copies write the home copies, which loads of either half find", "[timing]") {
  // --l2-start restored: the buffers' lines are in L2 as the copies to the GPU left them, each in
  // its home half (a hash of its group of 4 lines): SM 2's loads all hit, those of the 64 lines
  // homed in the other half far (128 lines: 32 groups of 4, their hash's parity split 16 and 16).
  auto restored = [](unsigned on) {
    return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop39.kir", "--kernel", "sweep_by", "--grid",
                     "4", "--block", "32", "--arg", "words=4096", "--arg", "passes=1", "--arg", "reader=2",
                     "--buffer", "in=u32[4096]:zeros", "--buffer", "out=u32[32]:zeros", "--l2-start", "restored",
                     "--gpu-set", copies(on), "--gpu-set", kFar});
  };
  const auto off = restored(0), on = restored(1);
  CHECK(dram(on, 0) == 0);
  CHECK(dram(off, 0) == 0);
  CHECK(memory_of(on, 0)["l2_hit_rate"].get<double>() == 1.0);
  CHECK(cycles(on) == cycles(off) + 64 * 245);
  check_refused({{"l2_side_copies=2", "'memory.l2_side_copies': '2' must be 0 or 1"}});
}
