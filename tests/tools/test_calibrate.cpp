// warpsim calibrate without a GPU: the list of microbenchmarks, the refusal with no GPU, the fit
// replayed from the committed H100 figures (docs/validation/h100/stop24/raw24.json), and its errors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/cli.hpp"

namespace {
using warpsim::cli::Io;
using warpsim::cli::run_cli;

const std::string kRaw = std::string(WARPSIM_TEST_DATA_DIR) + "/../../docs/validation/h100/stop24/raw24.json";
// Microbenchmarks that simulate in well under a second each, fitting five parameters.
const std::string kQuick = "lat-int,lat-fp64,chase-shared-s1,tput-shared-s32,bar-32";

std::string temp(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("warpsim-test-calibrate-" + name)).string();
}
std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("calibrate --list names each microbenchmark with the preset parameter it fits", "[calibrate]") {
  Io io;
  REQUIRE(run_cli({"calibrate", "--list"}, io) == 0);
  for (const char* line : {"scatter-l2               memory.l2_store_access_bytes",
                           "scatter-dram             memory.dram_merge_bytes",
                           "atom-hot-u32             memory.atomic_int_slice_cycles",
                           "gather-l2                memory.l2_access_bytes", "lat-fp64                 pipeline.fp64_latency",
                           "stream-conflict-dram     -", "fence-gl                 pipeline.fence_gl_latency",
                           "fence-gl-busy            -", "gather-l1-few            -",
                           "chase-lanes-l1           memory.l1_pass_cycles",
                           "store-lines-w4           memory.store_line_cycles",
                           // Stop 38: the L2's capacity from every SM and from one, compared only.
                           "gather-l2-32m            -", "gather-l2-32m-few        -", "chase-l2-96m             -"})
    CHECK_THAT(io.out, Catch::Contains(line));
  // The list: latency and throughput per class, shared memory, the memory hierarchy,
  // bandwidth, atomics, barriers, the clock and launch overhead.
  for (const char* name : {"lat-idiv", "tput-sfu", "lat-cvt", "chase-shared-s32", "chase-l1", "chase-l2", "chase-dram",
                           "bw-dram", "bw-l2", "atom-global-same32", "atom-shared-distinct32", "bar-1", "bar-32",
                           "clock", "launch"})
    CHECK_THAT("\n" + io.out, Catch::Contains(std::string("\n") + name + " "));
}

TEST_CASE("calibrate --backend cuda without a GPU says so in one line and exits 4", "[calibrate]") {
  Io io;
  const int code = run_cli({"calibrate", "--backend", "cuda", "--benches", "lat-int"}, io);
  if (code == 0) {
    WARN("a GPU is present here: the refusal is not exercised");
    return;
  }
  CHECK(code == 4);
  CHECK_THAT(io.err, Catch::StartsWith("warpsim: error: calibrate --backend cuda: "));
  CHECK(std::count(io.err.begin(), io.err.end(), '\n') == 1);
  CHECK(io.out.empty());
}

TEST_CASE("the committed h100 preset is what calibrate fits to the committed H100 figures", "[calibrate]") {
  // Replayed from the built-in preset, the fit moves none of the parameters these microbenchmarks fit,
  // and the comparison shows each within a few percent of its raw figure.
  Io io;
  const auto out = temp("fit.ini");
  REQUIRE(run_cli({"calibrate", "--replay", kRaw, "--benches", kQuick, "--out", out}, io) == 0);
  CHECK_THAT(io.err, Catch::Contains("fit pass 1: 0 parameter(s) moved"));
  CHECK_THAT(io.out, Catch::Contains("measured on NVIDIA H100"));
  CHECK_THAT(io.out, Catch::Contains("lat-fp64                 pipeline.fp64_latency"));
  // The written preset names each microbenchmark and its raw figure beside the value, and loads.
  const auto text = read(out);
  CHECK_THAT(text, Catch::Contains("fp64_latency = 8"));
  CHECK_THAT(text, Catch::Contains("# [M] calibrate: lat-fp64 = 8.28 cycles/op"));
  CHECK_THAT(text, Catch::Contains("# [M] calibrate: chase-shared-s1 = 23.94 cycles/load"));
  Io run;
  CHECK(run_cli({"run", "vecadd", "--set", "n=1000", "--gpu", out}, run) == 0);
  // Started from a preset whose fp64 latency is far off, the fit brings it back.
  const auto off = temp("off.ini");
  {
    std::ofstream f(off);
    f << read(out).replace(text.find("fp64_latency = 8"), 16, "fp64_latency = 30");
  }
  Io refit;
  REQUIRE(run_cli({"calibrate", "--replay", kRaw, "--benches", "lat-fp64", "--gpu", off, "--out", temp("refit.ini")},
                  refit) == 0);
  CHECK_THAT(refit.err, Catch::Contains("fit pass 1: 1 parameter(s) moved"));
  CHECK_THAT(read(temp("refit.ini")), Catch::Contains("fp64_latency = 8 "));
}

namespace {
// A committed value reproduces its committed raw figure (the fit moves nothing); started from the
// value before its stop, the fit brings it back.
struct FitCase {
  std::string raw, bench, now, before, fitted;
};
void check_fit(const FitCase& c) {
  INFO(c.bench);
  const std::string dir = std::string(WARPSIM_TEST_DATA_DIR) + "/../../docs/validation/h100/";
  Io io;
  const auto out = temp(c.bench + ".ini");
  REQUIRE(run_cli({"calibrate", "--replay", dir + c.raw, "--benches", c.bench, "--out", out}, io) == 0);
  CHECK_THAT(io.err, Catch::Contains("fit pass 1: 0 parameter(s) moved"));
  std::string text = read(out);
  REQUIRE(text.find(c.now) != std::string::npos);
  const auto off = temp(c.bench + "-off.ini");
  {
    std::ofstream f(off);
    f << text.replace(text.find(c.now), c.now.size(), c.before);
  }
  Io refit;
  REQUIRE(run_cli({"calibrate", "--replay", dir + c.raw, "--benches", c.bench, "--gpu", off, "--out",
                   temp(c.bench + "-refit.ini")},
                  refit) == 0);
  CHECK_THAT(refit.err, Catch::Contains("fit pass 1: 1 parameter(s) moved"));
  CHECK_THAT(read(temp(c.bench + "-refit.ini")), Catch::Contains(c.fitted));
}
}  // namespace

TEST_CASE("stop 31's fitted values are what calibrate fits to the H100 figures of stop 31", "[calibrate]") {
  // fence-gl (batch31b.sh's first run: 674.66 cycles a membar.gl) fits the fence latency, and
  // chase-lanes-l1 (batch31c.sh's first run: 105.83 cycles a 32-pass L1 load) what each data-bank
  // pass adds, store-lines-w4 (batch31e.sh's first run: 255.55 cycles a warp store, 4 warps) what a
  // store's line holds the LSU, stride-chase-l2 and -dram (batch31g.sh's first run: 367.49 and 920.70
  // cycles a 32-line load) the gap between a load's lines coming back. Started from the values
  // before stop 31 (272, 0), the fit brings each back.
  for (const auto& c : {FitCase{"stop31/raw31b-1.json", "fence-gl", "fence_gl_latency = 674", "fence_gl_latency = 272",
                                "fence_gl_latency = 674 "},
                        FitCase{"stop31/raw31c-1.json", "chase-lanes-l1", "l1_pass_cycles = 2.31",
                                "l1_pass_cycles = 0   ", "l1_pass_cycles = 2.31 "},
                        FitCase{"stop31/raw31e-1.json", "store-lines-w4", "store_line_cycles = 1.99",
                                "store_line_cycles = 0   ", "store_line_cycles = 1.99 "},
                        FitCase{"stop31/raw31g-1.json", "stride-chase-l2", "l2_line_cycles = 2.50",
                                "l2_line_cycles = 0   ", "l2_line_cycles = 2.50 "},
                        FitCase{"stop31/raw31g-1.json", "stride-chase-dram", "dram_line_cycles = 7.50",
                                "dram_line_cycles = 0   ", "dram_line_cycles = 7.50 "}})
    check_fit(c);
}

// Hidden (run by hand: `build/tests/test_tools "[.slow]"`, 44 s in a Release build since stop 33's
// sim.skip_idle_epochs, about 3 minutes before): its three simulations of chase-l2-32m's warm-up
// pass over 32 MiB would add minutes to the sanitizer build's run of the suite.
TEST_CASE("stop 32's far L2 latency is what calibrate fits to chase-l2-32m", "[calibrate][.slow]") {
  // chase-l2-32m (batch32.sh's first run: 521.42 cycles a load) fits what a far L2 hit adds (0 before).
  check_fit(FitCase{"stop32/raw32-1.json", "chase-l2-32m", "l2_far_cycles = 245", "l2_far_cycles = 0  ",
                    "l2_far_cycles = 245 "});
}

TEST_CASE("calibrate refuses bad arguments and files with one line and a documented exit code", "[calibrate]") {
  const auto not_json = temp("not.json");
  std::ofstream(not_json) << "{ not json";
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  for (const auto& c : std::vector<Case>{
           {{"calibrate", "--benches", "lat-nothing", "--replay", kRaw}, 2, "unknown microbenchmark 'lat-nothing'"},
           {{"calibrate", "--replay", "/nonexistent/raw.json"}, 2, "--replay: cannot read '/nonexistent/raw.json'"},
           {{"calibrate", "--replay", not_json}, 1, "not JSON"},
           {{"calibrate", "--replay", kRaw, "--save", temp("x.json")}, 2, "--save and --replay exclude each other"},
           {{"calibrate", "--backend", "fpga", "--benches", "lat-int"}, 2, "unknown backend 'fpga'"}}) {
    Io io;
    INFO(c.args.back());
    CHECK(run_cli(c.args, io) == c.code);
    CHECK_THAT(io.err, Catch::Contains(c.says));
    CHECK(std::count(io.err.begin(), io.err.end(), '\n') == 1);
  }
}
