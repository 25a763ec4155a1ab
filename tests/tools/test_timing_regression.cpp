// The timing model's error against the H100, replayed from committed measurements: CI fails when a
// change makes the simulator's predictions worse than the figure recorded in
// docs/validation/timing.md (the runs marked "ci" in tests/data/timing/h100-validation.json).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "tools/cli.hpp"

namespace {
const std::string kData = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation.json";
// Mean absolute percentage error of the "ci" runs with the h100 preset as committed: 4.4% of 23 since
// stop 39 (dirty lines written back when they leave the L2: vecadd, gray and their coarsened forms,
// whose output stays in L2, +12..+24% -> -4..+1%), 8.6% since stop 38 (ptxas's remainder loop: reduce-coarsened coarse 1 -24% -> -10%, matmul-naive -12% -> -3%), 9.0% at stop 37, 9.1% of
// 23 since stop 27 (the hoisted global loads), 9.0% of 23 since
// stop 25 (the compiler's list scheduling; its three costliest runs left the subset to save CI time;
// the 26 read 9.2%), 9.3% at stop 24 (the fifth calibration), 8.8% at stop 23, 9.0% at
// stop 22, 13.1% at stop 21, 13.6% at stop 20, 43.7% with stop 16's measurements and preset; rounded
// up: docs/validation/timing.md records the figure.
const std::string kRecordedMape = "5";
// The second held-out set (stop 22, measured after the preset was frozen; 38.0% blind), its "ci"
// runs (a gemv, global atomics, BFS): 26.4% of 6 since stop 39 (26.2% at stop 38), 32.7% since stop 27, when the costlier gemv, well
// predicted, left the subset to save CI time (the 7 read 29.0%), 28.8% since stop 26 (the integer atomics' per-sector turn:
// histo_global over 1,024 bins -38% -> -55%), 27.9% at stop 25, when the gather family and the
// costlier gemv left the subset to save CI time (the 11 runs read 21.9% at stop 24, 19.1% at stop 23,
// 21.9% at stop 22); BFS, too fast in the model (-49/-61%), weighs more among 7; rounded up.
const std::string kData22 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop22.json";
const std::string kRecordedMape22 = "27";
// The third held-out set (stop 23, scored blind at 16.2% over all 37 runs), its "ci" runs (block
// reduce, scatter, Mandelbrot, hash, copy): 8.7% since stop 39's write-backs at eviction, 10.5% since stop 31, whose store rule changed which SM
// takes which of Mandelbrot's blocks (rows differing in cost by 10x; its stall totals moved by 0.2%):
// Mandelbrot at 64 iterations +12% -> +16%; 10.0% since stop 28, when the float4 copy was measured
// again with the emitter's vector accesses (the GPU 5% faster, the model unchanged: +4% -> +10%), 8.8% of 5 since stop 27, when the costlier scatter and
// SoA left the subset to save CI time, 12.5% since stop 26 (the logic class: hash_mix -5% ->
// +12%), 11.7% at stop 25, when its four costliest runs left the subset to save CI time (the 11 read
// 9.2% with stop 25's list scheduling, 9.7% after stop 24's store rules, 12.5% at stop 23), rounded up.
const std::string kData23 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop23.json";
const std::string kRecordedMape23 = "9";
// The fourth held-out set (stop 24, scored blind at 24.7% over all 39 runs), its "ci" runs (SGEMM on
// 16 blocks, compaction, f64 Horner, downsampling, a row gather: five of the cheapest to simulate,
// misses included; 12 runs took CI 132 s under ASan): 11.2% since stop 39's write-backs at eviction
// (the row gather +6% -> -16%, Horner -8% -> -19%: their outputs stay in L2 in the model and their
// time falls with the DRAM bytes; the GPU's does not), 10.4% since stop 28, when the row gather was
// measured again with the emitter's vector accesses (the GPU 8% faster: +5% -> +14%), 9.2% since stop 27 (SGEMM measured again with
// the new emitter, +4%; conv1d left the subset to save CI time), 11.1% since stop 25's shared-load
// scheduling and folded truncations (SGEMM +44% -> -9%), 16.9% at stop 24; rounded up.
const std::string kData24 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop24.json";
const std::string kRecordedMape24 = "12";
// The fifth held-out set (stop 25, scored blind at 18.8% over 41 runs), its "ci" runs (FMA chains at
// ILP 1 and 4, 64-bit hashing, registers limiting occupancy at 8 and 48 values a thread: five of the
// cheapest to simulate, misses included): 6.4% since stop 39's write-backs at eviction (registers
// limiting occupancy, +24% and +14% -> -14% and 0%), 10.5% of 4 since stop 27, when the 64-bit hashing left the
// subset to save CI time (the 5 read 12.5% with the shl on either pipe and the hoisted global loads),
// 16.7% with the arithmetic scheduling and the imul64 and
// bits classes found after it (30.2% with the model it was scored blind with), rounded up.
const std::string kData25 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop25.json";
const std::string kRecordedMape25 = "7";
// The sixth held-out set (stop 26, scored blind at 19.6% over 42 runs), its "ci" runs (sRGB to L*a*b*
// at 1080p, an NCHW -> NHWC permute by constant divisors: two of the cheapest to simulate, a miss
// included): 19.1% since stop 39's write-backs at eviction (the permute -3% -> -14%: 33 MB read
// and 33 MB written, whose write-backs the model now leaves partly in L2; sRGB to L*a*b* -20% ->
// -24%), 12.0% with the rules found after its blind score; the chase on one block (+4%) left the
// subset to save CI time (36 s under ASan for the three), rounded up.
const std::string kData26 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop26.json";
const std::string kRecordedMape26 = "20";
// The seventh held-out set (stop 27, scored blind at 12.7% over 42 runs), its "ci" runs (a strided sum
// unrolled twice, a warp-per-row sum: two of the cheapest to simulate, a miss included): 15.9% since
// stop 39 (15.9% at stop 38), 16.7% with
// the rules found after its blind score, rounded up.
const std::string kData27 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop27.json";
const std::string kRecordedMape27 = "16";
// The eighth held-out set (stop 28, scored blind at 19.5% over 44 runs with the model of d34d5fa),
// its "ci" runs (block matching at radius 1, +1%, and the span-1 FFT stage, +76%: two of the cheapest
// to simulate, a miss included): 38.7% blind, 38.5% once the FFT was measured again with the
// emitter's vector accesses (float2); 3.5% since stop 39's write-backs at eviction (the FFT stage
// +22% -> -6%), 12.0% since stop 29's write path (the FFT stage's 8-byte pairs
// charged once: +23%), rounded up.
const std::string kData28 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop28.json";
const std::string kRecordedMape28 = "4";
// The ninth held-out set (stop 29, scored blind at 21.6% over 45 runs with the model of bc83179),
// its "ci" runs (the Tanimoto scan over 512- and 2,048-bit fingerprints, +6% and -36%: a hit and a
// miss of one family): 18.5% since stop 39's write-backs at eviction, 21.1% before; rounded up.
const std::string kData29 = std::string(WARPSIM_TEST_DATA_DIR) + "/timing/h100-validation-stop29.json";
const std::string kRecordedMape29 = "19";

// The CUDA C runs name their files from the repository root, as the GPU ran them.
struct FromRepositoryRoot {
  std::filesystem::path before = std::filesystem::current_path();
  FromRepositoryRoot() { std::filesystem::current_path(std::filesystem::path(WARPSIM_TEST_DATA_DIR) / ".." / ".."); }
  ~FromRepositoryRoot() { std::filesystem::current_path(before); }
};
}  // namespace

// Replays a saved set's "ci" runs from the repository root under `limit`: the report, and whether
// it stayed under the limit.
struct Replay {
  int code = 0;
  std::string out;
};
Replay replay(const std::string& data, const std::string& limit) {
  const FromRepositoryRoot cd;
  warpsim::cli::Io io;
  const int code = warpsim::cli::run_cli({"timing-report", data, "--ci", "--threads", "2", "--max-mape", limit}, io);
  INFO(io.err);
  return {code, io.out};
}

// Replays a set under its limit: it must pass and its report must name each of `names`.
void check_under_limit(const std::string& data, const std::string& limit, const std::vector<std::string>& names) {
  const auto r = replay(data, limit);
  INFO(r.out);
  CHECK(r.code == 0);
  for (const auto& name : names) CHECK_THAT(r.out, Catch::Contains(name));
}

TEST_CASE("the timing error over the saved H100 runs does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData, kRecordedMape, {"mean absolute percentage error", "strided-copy"});
}

TEST_CASE("the timing error over the second saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData22, kRecordedMape22, {"histo_global.cu"});
}

TEST_CASE("the timing error over the third saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData23, kRecordedMape23, {"block_reduce.cu", "Over the 5 runs"});
}

TEST_CASE("the timing error over the fourth saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData24, kRecordedMape24, {"sgemm_reg.cu", "Over the 5 runs"});
}

TEST_CASE("the timing error over the fifth saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData25, kRecordedMape25, {"ilp_fma.cu", "Over the 4 runs"});
}

TEST_CASE("the timing error over the sixth saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData26, kRecordedMape26, {"rgb2lab.cu", "Over the 2 runs"});
}

TEST_CASE("the timing error over the seventh saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData27, kRecordedMape27, {"unroll_sum.cu", "Over the 2 runs"});
}

TEST_CASE("the timing error over the eighth saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData28, kRecordedMape28, {"block_match.cu", "Over the 2 runs"});
}

TEST_CASE("the timing error over the ninth saved H100 set does not rise above the recorded figure", "[timing]") {
  check_under_limit(kData29, kRecordedMape29, {"tanimoto.cu", "Over the 2 runs"});
}

TEST_CASE("the timing regression check fails when the error is above the limit", "[timing]") {
  // One small launch whose "measured" time (100 us) is far above anything the model predicts for it
  // (a few us): an error between -100% and -90%, so a 10% limit fails and a 100% limit passes.
  const auto path = std::filesystem::temp_directory_path() / "warpsim-test-timing-regression.json";
  {
    std::ofstream f(path);
    f << R"({"device": "test", "launch_us": 0, "floor_us": 0, "how": "a test fixture",
             "kernels": [{"family": "f", "args": "vecadd --set n=1024", "kernel_ms": [0.1], "ci": true}]})";
  }
  warpsim::cli::Io fail, pass;
  CHECK(warpsim::cli::run_cli({"timing-report", path.string(), "--ci", "--max-mape", "10"}, fail) == 6);
  INFO(pass.out << pass.err);
  CHECK(warpsim::cli::run_cli({"timing-report", path.string(), "--ci", "--max-mape", "100"}, pass) == 0);
  CHECK_THAT(pass.out, Catch::Contains("vecadd --set n=1024"));
  std::filesystem::remove(path);
}

TEST_CASE("a timing data file whose measured spread is not a fastest and slowest pair is refused as bad input", "[timing]") {
  const auto path = std::filesystem::temp_directory_path() / "warpsim-test-timing-range.json";
  {
    std::ofstream f(path);
    f << R"({"device": "test", "launch_us": 0, "floor_us": 0, "l2_start": "flushed", "how": "a test fixture",
             "kernels": [{"family": "f", "args": "vecadd --set n=1024", "kernel_ms": [0.1],
                          "kernel_ms_range": [["fast", 0.2]], "ci": true}]})";
  }
  warpsim::cli::Io io;
  CHECK(warpsim::cli::run_cli({"timing-report", path.string(), "--ci"}, io) == 1);
  CHECK_THAT(io.err, Catch::Contains("kernel_ms_range holds [\"fast\",0.2]"));
  std::filesystem::remove(path);
}
