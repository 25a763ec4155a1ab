// The timing model's costs of starting and ending warps (stop 34), asserted from the JSON report:
// each warp's first special-register read waits its turn at the SM (sm.special_register_cycles),
// and a finished block's slot takes the next block only after its warps are torn down
// (sm.warp_exit_cycles). Neither changes what a kernel computes or how many instructions it runs.
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;

namespace {
nlohmann::json run_blocks(const std::string& kernel, std::uint32_t grid, std::vector<std::string> sets,
                          std::vector<std::string> extra = {}) {
  std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop34.kir", "--kernel", kernel, "--grid",
                                std::to_string(grid), "--block", "1024", "--buffer", "out=u32[1]:zeros", "--gpu-set",
                                "gpu.sms=1"};
  for (auto& a : extra) args.push_back(a);
  for (auto& s : sets) {
    args.push_back("--gpu-set");
    args.push_back(s);
  }
  return run_json(args);
}
}  // namespace

TEST_CASE("each warp's first special-register read takes the SM's turn (sm.special_register_cycles)", "[timing]") {
  // One block of 32 warps on one SM: the last warp's %tid.x comes 31 turns after the first's, and
  // the barrier waits for it (its warps start sm.warp_launch_cycles = 2 apart, so 31 x 8 more); a
  // second read of %tid.x in the same warp costs no further turn.
  auto run = [](const std::string& turn, const std::string& again) {
    return run_blocks("read_tid", 1, {"sm.special_register_cycles=" + turn, "sm.warp_exit_cycles=0"},
                      {"--arg", "again=" + again});
  };
  const auto none = run("0", "0"), ten = run("10", "0"), twice = run("10", "1"), twice_none = run("0", "1");
  CHECK(cycles(ten) >= cycles(none) + 31 * 8);
  CHECK(cycles(ten) <= cycles(none) + 31 * 8 + 20);
  CHECK(cycles(twice) - cycles(twice_none) == cycles(ten) - cycles(none));
  REQUIRE(none["outputs"].size() == 1);
  CHECK(ten["outputs"] == none["outputs"]);
  CHECK(ten["launches"][0]["warp_instructions"] == none["launches"][0]["warp_instructions"]);
  // A second wave on the same slots takes its turns again: two blocks a slot pay twice what one does.
  auto wave = [](std::uint32_t grid, const std::string& turn) {
    return cycles(run_blocks("read_tid", grid, {"sm.special_register_cycles=" + turn, "sm.warp_exit_cycles=0"},
                             {"--arg", "again=0"}));
  };
  CHECK(wave(4, "10") - wave(4, "0") >= wave(2, "10") - wave(2, "0") + 31 * 8);
  // A kernel that reads no special register takes no turn.
  CHECK(cycles(run_blocks("pass_barrier", 1, {"sm.special_register_cycles=10", "sm.warp_exit_cycles=0"})) ==
        cycles(run_blocks("pass_barrier", 1, {"sm.special_register_cycles=0", "sm.warp_exit_cycles=0"})));
  check_refused({{"special_register_cycles=100001", "'sm.special_register_cycles': '100001' must be at most 100000"}});
}

TEST_CASE("a finished block's slot takes its next block after its warps are torn down (sm.warp_exit_cycles)",
          "[timing]") {
  // Six blocks of 1,024 threads on one SM of two slots: the third to sixth each wait for a finished
  // block's 32 warps to be torn down, one block after another; the first two start at once.
  auto run = [](const std::string& exit) {
    return run_blocks("pass_barrier", 6, {"sm.warp_exit_cycles=" + exit, "sm.special_register_cycles=0"});
  };
  const auto none = run("0"), three = run("3"), six = run("6");
  CHECK(cycles(six) >= cycles(none) + 2 * 32 * 6);
  CHECK(cycles(six) <= cycles(none) + 4 * 32 * 6);  // at most a teardown for each of the four
  CHECK(cycles(three) < cycles(six));
  CHECK(six["outputs"] == none["outputs"]);
  // One block: nothing waits for a slot.
  CHECK(cycles(run_blocks("pass_barrier", 1, {"sm.warp_exit_cycles=6"})) ==
        cycles(run_blocks("pass_barrier", 1, {"sm.warp_exit_cycles=0"})));
  check_refused({{"warp_exit_cycles=100001", "'sm.warp_exit_cycles': '100001' must be at most 100000"}});
}

TEST_CASE("blocks that start late (sm.warp_exit_cycles) give the same report on any host threads, idle epochs "
          "skipped or not, and are not resident before they start",
          "[timing]") {
  // 96 blocks of 1,024 threads on 8 SMs, each slot waiting out long teardowns (40 cycles a warp), so
  // many epochs are idle.
  auto run = [](const std::string& threads, const std::string& skip, const std::string& exit = "40") {
    std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop34.kir", "--kernel", "read_tid",
                                  "--grid", "96", "--block", "1024", "--buffer", "out=u32[1]:zeros", "--arg", "again=1",
                                  "--threads", threads};
    for (const std::string& set :
         std::vector<std::string>{"gpu.sms=8", "sm.warp_exit_cycles=" + exit, "sim.skip_idle_epochs=" + skip}) {
      args.push_back("--gpu-set");
      args.push_back(set);
    }
    return run_json(args);
  };
  const auto base = run("1", "0");
  for (const auto& [threads, skip] : std::vector<std::pair<std::string, std::string>>{{"1", "1"}, {"2", "1"}, {"3", "0"}, {"3", "1"}}) {
    const auto other = run(threads, skip);  // its "reproduce" names its own settings
    CHECK(other["launches"].dump() == base["launches"].dump());
    CHECK(other["outputs"].dump() == base["outputs"].dump());
  }
  // A slot waits 1,280 cycles a teardown, so an SM holds fewer blocks on average than with none
  // (0.57 against 0.92 of the theoretical); counted as resident from their dispatch, the waiting
  // blocks pushed the achieved occupancy up instead.
  const auto achieved = [](const nlohmann::json& r) {
    return r["launches"][0]["timing"]["occupancy"]["achieved"].get<double>();
  };
  CHECK(achieved(base) < 0.8 * achieved(run("1", "0", "0")));
}
