// ptxas's lowering of 64-bit integer arithmetic (stop 36; sim/timing/lower64.cpp), asserted from the
// JSON report of tests/data/timing/stop36.kir's kernels on one SM. sm.lower_int64: full-width xors
// are two LOP3 (timed as logic64), a xor with a zero-extended operand one (logic), and 64-bit
// arithmetic only ever truncated is 32-bit; sm.fold_widenings: a zero extension takes no slot;
// sm.fuse_addresses: an address's mul.wide or shl folds into its add. None changes what a kernel
// computes or how many IR instructions it runs.
#include <catch2/catch.hpp>

#include "tests/kernels/timing_test_util.hpp"

using namespace warpsim::timing_test;

namespace {
const std::string kStop36File = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop36.kir";
const std::vector<std::string> kLowerOff{"lower_int64=0", "fold_widenings=0", "fuse_addresses=0"};
const std::vector<std::string> kLowerOn{"lower_int64=1", "fold_widenings=1", "fuse_addresses=1"};

nlohmann::json chains(const std::string& kernel, const std::vector<std::string>& sets) {
  std::vector<std::string> args{kStop36File, "--kernel", kernel,  "--grid",    "1",
                                "--block",   "512",      "--arg", "rounds=64", "--arg",
                                "a=12345",   "--arg",    "b=678", "--buffer",  "out=u32[512]:zeros",
                                "--gpu-set", "gpu.sms=1"};
  for (const auto& s : sets) args.insert(args.end(), {"--gpu-set", s});
  return run_json(args);
}

nlohmann::json addresses(const std::vector<std::string>& sets) {
  std::vector<std::string> args{kStop36File,
                                "--kernel",
                                "addresses",
                                "--grid",
                                "1",
                                "--block",
                                "512",
                                "--arg",
                                "rounds=64",
                                "--arg",
                                "mask=1023",
                                "--buffer",
                                "in=u32[1024]:random",
                                "--buffer",
                                "out=u32[512]:zeros",
                                "--gpu-set",
                                "gpu.sms=1"};
  for (const auto& s : sets) args.insert(args.end(), {"--gpu-set", s});
  return run_json(args);
}

}  // namespace

TEST_CASE("a full-width 64-bit xor is timed as two LOP3, one with a zero-extended operand", "[timing]") {
  const auto off = chains("wide_xor", {"lower_int64=0"}), on = chains("wide_xor", {"lower_int64=1"});
  check_same_work(off, on);
  // The xors move from int64 (an interval of 2) to logic64 (4): the int pipe's trips take longer.
  CHECK(double(cycles(on)) > 1.25 * double(cycles(off)));
  // With the rule the xors follow logic64's interval, not int64's; without it, the other way round.
  CHECK(cycles(chains("wide_xor", {"lower_int64=1", "logic64_interval=8"})) > cycles(on));
  // (Without it only the shl and shr before and after the trips are logic64.)
  CHECK(double(cycles(chains("wide_xor", {"lower_int64=0", "logic64_interval=8"}))) < 1.02 * double(cycles(off)));
  // A zero-extended operand: one LOP3 (logic, an interval of 2), as fast as int64 was.
  const auto zext = chains("zext_xor", {"lower_int64=1"});
  CHECK(double(cycles(zext)) < 0.8 * double(cycles(on)));
  CHECK(double(cycles(chains("zext_xor", {"lower_int64=1", "logic64_interval=8"}))) < 1.02 * double(cycles(zext)));
  CHECK(cycles(chains("zext_xor", {"lower_int64=1", "logic_interval=6"})) > cycles(zext));
}

TEST_CASE("64-bit arithmetic whose values are only truncated is timed as 32-bit", "[timing]") {
  const auto off = chains("narrow_sum", {"lower_int64=0"}), on = chains("narrow_sum", {"lower_int64=1"});
  check_same_work(off, on);
  // mul.u64 (imul64: 9 cycles an instruction) becomes an IMAD (imul: 2).
  CHECK(double(cycles(on)) < 0.5 * double(cycles(off)));
  CHECK(cycles(chains("narrow_sum", {"lower_int64=1", "imul64_interval=30"})) == cycles(on));
  CHECK(cycles(chains("narrow_sum", {"lower_int64=1", "imul_interval=8"})) > cycles(on));
}

TEST_CASE("an address's mul.wide, shl and zero extension fold into its add", "[timing]") {
  const auto off = addresses(kLowerOff), on = addresses(kLowerOn);
  check_same_work(off, on);
  // Three IR instructions a trip take no issue slot: the mul.wide (IMAD.WIDE), the cvt.u64.u32 and
  // the shl (LEA), 16 warps x 64 trips; and the mul.wide of the store's address after them.
  CHECK(issue_slots(off) - issue_slots(on) == 3 * 16 * 64 + 16);
  CHECK(cycles(on) < cycles(off));
  // Each parameter alone: the zero extension (one a trip), the two folds into adds (two a trip and
  // the store's).
  CHECK(issue_slots(off) - issue_slots(addresses({"lower_int64=0", "fold_widenings=1", "fuse_addresses=0"})) ==
        16 * 64);
  CHECK(issue_slots(off) - issue_slots(addresses({"lower_int64=0", "fold_widenings=0", "fuse_addresses=1"})) ==
        2 * 16 * 64 + 16);
  // The add is the IMAD.WIDE, timed as imul, and the folded mul.wide's value is ready with its
  // sources: imul's latency reaches the load once, through the add, where unfused it comes with the
  // mul.wide and then int64's with the add.
  const auto penalty = [&](const char* fuse) {
    return double(cycles(addresses({fuse, "imul_latency=100", "int64_latency=100"}))) -
           double(cycles(addresses({fuse})));
  };
  CHECK(penalty("fuse_addresses=1") < 0.7 * penalty("fuse_addresses=0"));
}

TEST_CASE("an add takes in one product at most", "[timing]") {
  auto run = [](const char* fuse) {
    return run_json({kStop36File, "--kernel", "two_products", "--grid", "1", "--block", "512", "--arg", "rounds=64",
                     "--arg", "mask=511", "--buffer", "in=u32[1024]:random", "--buffer", "out=u32[512]:zeros",
                     "--gpu-set", "gpu.sms=1", "--gpu-set", fuse});
  };
  const auto off = run("fuse_addresses=0"), on = run("fuse_addresses=1");
  check_same_work(off, on);
  // One of the trip's two mul.wide folds (16 warps x 64 trips), and the store's after the trips.
  CHECK(issue_slots(off) - issue_slots(on) == 16 * 64 + 16);
}

TEST_CASE("sm.lower_int64, sm.fold_widenings and sm.fuse_addresses are 0 or 1", "[timing]") {
  check_refused({{"lower_int64=2", "'sm.lower_int64': '2' must be 0 or 1"},
                 {"fold_widenings=2", "'sm.fold_widenings': '2' must be 0 or 1"},
                 {"fuse_addresses=3", "'sm.fuse_addresses': '3' must be 0 or 1"}});
}
