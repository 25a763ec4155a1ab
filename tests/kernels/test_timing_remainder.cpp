// sm.unroll_remainder (sim/timing/loop_trips.hpp): ptxas runs a counted loop's trips beyond its last
// whole group of 4 one at a time, so their loads do not batch; tests/data/timing/stop38.kir.
#include <string>
#include <vector>
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;

namespace {
// 132 blocks of 4 warps, each thread `trips` trips of loads 16,896 words apart, from a flushed L2.
nlohmann::json sums(const std::string& kernel, unsigned trips, unsigned rule, const std::string& threads = "1") {
  return run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop38.kir", "--kernel", kernel, "--grid", "132",
                   "--block", "128", "--arg", "trips=" + std::to_string(trips), "--arg", "stride=16896", "--buffer",
                   "in=f32[540672]:random", "--buffer", "out=f32[16896]:zeros", "--l2-start", "flushed", "--gpu-set",
                   "sm.unroll_remainder=" + std::to_string(rule), "--threads", threads});
}
}  // namespace

TEST_CASE("unroll_remainder: two or three trips load one at a time, four batch as before", "[timing]") {
  for (const char* kernel : {"sum_top", "sum_bottom", "sum_bottom_not"}) {
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
    // Six: a group of four, then two alone.
    const auto six_off = sums(kernel, 6, 0), six_on = sums(kernel, 6, 1);
    check_same_work(six_off, six_on);
    CHECK(cycles(six_on) > cycles(six_off) * 12 / 10);
  }
}

TEST_CASE("unroll_remainder: a trip left over still sends its own loads together", "[timing]") {
  // sum_pairs loads two words a trip, adding each as it comes: two trips alone are two round trips,
  // about what sum_top's two single loads take, not four.
  const auto pairs = sums("sum_pairs", 2, 1), singles = sums("sum_top", 2, 1), three = sums("sum_top", 3, 1);
  check_same_work(sums("sum_pairs", 2, 0), pairs);
  CHECK(cycles(pairs) < cycles(singles) * 12 / 10);
  CHECK(cycles(pairs) < cycles(three));
}

TEST_CASE("unroll_remainder: lanes that leave on different trips batch as before", "[timing]") {
  for (unsigned trips : {2u, 3u}) {
    const auto off = sums("sum_lanes", trips, 0), on = sums("sum_lanes", trips, 1);
    check_same_work(off, on);
    CHECK(cycles(on) == cycles(off));
  }
}

TEST_CASE("unroll_remainder: the same cycles for any number of host threads", "[timing]") {
  CHECK(cycles(sums("sum_top", 3, 1, "1")) == cycles(sums("sum_top", 3, 1, "2")));
  CHECK(cycles(sums("sum_bottom", 6, 1, "1")) == cycles(sums("sum_bottom", 6, 1, "3")));
}

TEST_CASE("unroll_remainder: a loop that ends on a loaded value has no trip count and batches as before", "[timing]") {
  // flags 1, 0: two trips each, ended by a value loaded, not by a count. Counted, two trips would load
  // one at a time with the rule (above); here both batch either way.
  std::vector<nlohmann::json> r;
  for (const char* rule : {"sm.unroll_remainder=0", "sm.unroll_remainder=1"})
    r.push_back(run_json({std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop38.kir", "--kernel", "sum_until_zero",
                          "--grid", "132", "--block", "128", "--arg", "stride=16896", "--buffer", "in=f32[540672]:random",
                          "--buffer", "flags=f32[4]:iota:1:-1", "--buffer", "out=f32[16896]:zeros", "--l2-start",
                          "flushed", "--gpu-set", rule}));
  check_same_work(r[0], r[1]);
  CHECK(cycles(r[0]) == cycles(r[1]));
  // Two trips a thread: the loop's branch ran twice per warp.
  CHECK(r[0]["launches"][0]["warp_instructions"].get<std::uint64_t>() ==
        sums("sum_bottom", 2, 0)["launches"][0]["warp_instructions"].get<std::uint64_t>() + 16896 / 32 * 2 * 3);
}

TEST_CASE("unroll_remainder takes 0 or 1", "[timing]") {
  check_refused({{"sm.unroll_remainder=2", "sm.unroll_remainder"}, {"sm.unroll_remainder=-1", "sm.unroll_remainder"}});
}
