// sm.unroll_remainder (sim/timing/loop_trips.hpp): ptxas runs a counted loop's trips beyond its last
// whole group of 4 one at a time, so their loads do not batch; tests/data/timing/stop38.kir.
#include <string>
#include <vector>
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;

namespace {
// 132 blocks of 4 warps, each thread `trips` loads 16,896 words apart, from a flushed L2.
nlohmann::json sums(const std::string& kernel, unsigned trips, unsigned rule, const std::string& threads = "1") {
  return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop38.kir", "--kernel", kernel, "--grid", "132",
                   "--block", "128", "--arg", "trips=" + std::to_string(trips), "--arg", "stride=16896", "--buffer",
                   "in=f32[270336]:random", "--buffer", "out=f32[16896]:zeros", "--l2-start", "flushed", "--gpu-set",
                   "sm.unroll_remainder=" + std::to_string(rule), "--threads", threads});
}
}  // namespace

TEST_CASE("unroll_remainder: two or three trips load one at a time, four batch as before", "[timing]") {
  for (const char* kernel : {"sum_top", "sum_bottom"}) {
    INFO(kernel);
    const auto two_off = sums(kernel, 2, 0), two_on = sums(kernel, 2, 1);
    const auto three_on = sums(kernel, 3, 1), four_off = sums(kernel, 4, 0), four_on = sums(kernel, 4, 1);
    check_same_work(two_off, two_on);
    check_same_work(four_off, four_on);
    // Batched, the second load goes out with the first: about one DRAM round trip for both. One at
    // a time, each waits for the one before: two round trips, then three.
    CHECK(cycles(two_on) > cycles(two_off) * 14 / 10);
    CHECK(cycles(three_on) > cycles(two_on) * 12 / 10);
    // A whole group of four batches with the rule too.
    CHECK(cycles(four_on) == cycles(four_off));
    CHECK(cycles(four_on) < cycles(two_on));
  }
}

TEST_CASE("unroll_remainder: the same cycles for any number of host threads", "[timing]") {
  CHECK(cycles(sums("sum_top", 3, 1, "1")) == cycles(sums("sum_top", 3, 1, "2")));
  CHECK(cycles(sums("sum_bottom", 6, 1, "1")) == cycles(sums("sum_bottom", 6, 1, "3")));
}

TEST_CASE("unroll_remainder: a loop that ends on a loaded value has no trip count and batches as before", "[timing]") {
  // in is zeros: one trip each, ended by the value loaded, not by a count.
  std::vector<nlohmann::json> r;
  for (const char* rule : {"sm.unroll_remainder=0", "sm.unroll_remainder=1"})
    r.push_back(run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop38.kir", "--kernel", "sum_until_zero",
                          "--grid", "132", "--block", "128", "--arg", "stride=16896", "--buffer", "in=f32[270336]:zeros",
                          "--buffer", "out=f32[16896]:zeros", "--l2-start", "flushed", "--gpu-set", rule}));
  check_same_work(r[0], r[1]);
  CHECK(cycles(r[0]) == cycles(r[1]));
}

TEST_CASE("unroll_remainder takes 0 or 1", "[timing]") {
  check_refused({{"sm.unroll_remainder=2", "sm.unroll_remainder"}, {"sm.unroll_remainder=-1", "sm.unroll_remainder"}});
}
