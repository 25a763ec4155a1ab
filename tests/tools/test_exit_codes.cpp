// Exit codes as documented in README.md: every mistake on the command line is a usage error (2);
// a launch the device refuses, a bad input file or a kernel fault is invalid input (1).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "sim/gpu.hpp"
#include "tests/tools/cli_helpers.hpp"
#include "tests/tools/file_run_helpers.hpp"
#include "tools/file_run.hpp"

namespace {

using warpsim::test::cli;

std::string vecadd() { return std::string(WARPSIM_KERNELS_DIR) + "/vecadd.kir"; }

warpsim::test::CliResult run(std::vector<std::string> extra, bool with_buffers = true) {
  std::vector<std::string> args{"run", vecadd()};
  if (with_buffers)
    for (const char* b : {"a=f32[64]:zeros", "b=f32[64]:zeros", "c=f32[64]:zeros"}) {
      args.push_back("--buffer");
      args.push_back(b);
    }
  args.insert(args.end(), extra.begin(), extra.end());
  return cli(args);
}

}  // namespace

TEST_CASE("every mistake on the command line is a usage error, exit 2") {
  const std::vector<std::string> launch{"--grid", "1", "--block", "64", "--arg", "n=64"};
  auto with = [&](std::vector<std::string> extra) {
    auto args = launch;
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
  };
  CHECK(run({"--grid", "-1", "--block", "64", "--arg", "n=64"}).code == 2);
  CHECK(run({"--grid", "0", "--block", "64", "--arg", "n=64"}).code == 2);
  CHECK(run({"--grid", "1", "--block", "0", "--arg", "n=64"}).code == 2);
  CHECK(run({"--grid", "4294967296", "--block", "64", "--arg", "n=64"}).code == 2);
  CHECK(with({"--threads", "0"}).code == 2);
  CHECK(with({"--threads", "257"}).code == 2);
  CHECK(with({"--warp-size", "0"}).code == 2);
  CHECK(with({"--warp-size", "65"}).code == 2);
  CHECK(with({"--arg", "bogus=5"}).code == 2);
  CHECK(with({"--buffer", "bogus=f32[4]:zeros"}).code == 2);
  CHECK(with({"--arg", "n=65"}).code == 2);  // given twice
  CHECK(with({"--dump", "bogus=/tmp/x.bin"}).code == 2);
  CHECK(run({"--grid", "1", "--block", "64"}).code == 2);                      // n missing
  CHECK(run({"--grid", "1", "--block", "64", "--arg", "n=-1"}).code == 2);     // out of range
  CHECK(run({"--grid", "1", "--block", "64", "--arg", "n=64", "--buffer", "a=q32[4]"}, false).code == 2);
  CHECK(cli({"run", "vecadd", "--set", "block=0"}).code == 2);
  CHECK(cli({"run", "vecadd", "--threads", "0"}).code == 2);
  CHECK(cli({"compare", "vecadd", "--threads", "0"}).code == 2);
  CHECK(cli({"validate", "vecadd", "--threads", "0", "--replay", "/nonexistent"}).code == 2);
  // bench and run accept the same host thread counts.
  CHECK(cli({"bench", "--threads", "257"}).code == 2);
}

TEST_CASE("run takes the host thread counts bench takes") {
  const auto r = cli({"run", "vecadd", "--threads", std::to_string(warpsim::cli::kMaxHostThreads)});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(cli({"run", "vecadd", "--threads", std::to_string(warpsim::cli::kMaxHostThreads + 1)}).err.find(
            "--threads: 257 is not between 1 and 256") != std::string::npos);
}

TEST_CASE("sizes are decimal: 0x10 is refused as a size, not read as 0 by 10") {
  const auto hex = run({"--grid", "0x10", "--block", "64", "--arg", "n=64"});
  CHECK(hex.code == 2);
  CHECK(hex.err.find("--grid: '0x10' is not a size: sizes are decimal numbers") != std::string::npos);
  const auto zero = run({"--grid", "0,10", "--block", "64", "--arg", "n=64"});
  CHECK(zero.code == 2);
  CHECK(zero.err.find("--grid: '0,10' has a size of 0") != std::string::npos);
  // XxYxZ is the documented other spelling of X,Y,Z, and --warps B is the one-block range B-B.
  CHECK(run({"--grid", "1x1", "--block", "8x8", "--arg", "n=64"}).code == 0);
  CHECK(cli({"run", "vecadd", "--warps", "3"}).out == cli({"run", "vecadd", "--warps", "3-3"}).out);
}

TEST_CASE("a launch the device refuses, a bad file or a fault is invalid input, exit 1") {
  CHECK(run({"--grid", "1", "--block", "64,32", "--arg", "n=64"}).code == 1);
  CHECK(run({"--grid", "1", "--block", "64", "--arg", "n=64", "--buffer", "a=f32[64]:file:/nonexistent"}, false).code ==
        1);
  CHECK(run({"--grid", "1", "--block", "96", "--arg", "n=96"}).code == 1);  // reads past the buffers
}

namespace {

// The simulator, counting the bytes read back.
class CountingDevice final : public warpsim::test::SimDevice {
 public:
  void read(std::uint64_t address, std::span<std::byte> out) override {
    bytes_read += out.size();
    SimDevice::read(address, out);
  }
  std::size_t bytes_read = 0;
};

warpsim::cli::FileRun vecadd_run() {
  warpsim::cli::FileRun r;
  r.path = vecadd();
  r.grid = {1, 1, 1};
  r.block = {64, 1, 1};
  r.args = {{"n", "64"}};
  for (const char* b : {"a=f32[64]:zeros", "b=f32[64]:zeros", "c=f32[1024]:zeros"})
    r.buffers.push_back(warpsim::cli::parse_buffer_spec(b));
  return r;
}

}  // namespace

TEST_CASE("only the buffers dumped, or compared by validate, are read back") {
  auto r = vecadd_run();
  CountingDevice device;
  warpsim::cli::run_file(device, r, {});
  CHECK(device.bytes_read == 0);
  r.dumps = {{"c", "/tmp/warpsim-exit-codes-c.bin"}};
  CountingDevice dumped;
  const auto out = warpsim::cli::run_file(dumped, r, {});
  CHECK(dumped.bytes_read == 4096);
  CHECK(out.outputs.size() == 1);
  CHECK(std::filesystem::file_size("/tmp/warpsim-exit-codes-c.bin") == 4096);
  CountingDevice all;
  warpsim::kernels::RunOptions options;
  options.read_all_buffers = true;
  CHECK(warpsim::cli::run_file(all, r, options).outputs.size() == 3);
  CHECK(all.bytes_read == 256 + 256 + 4096);
}

TEST_CASE("a dump path that cannot be written is refused before the run") {
  const auto missing = run({"--grid", "1", "--block", "64", "--arg", "n=64", "--dump", "c=/nonexistent/dir/c.bin"});
  CHECK(missing.code == 1);
  CHECK(missing.err.find("--dump c: cannot write '/nonexistent/dir/c.bin': there is no folder '/nonexistent/dir'") !=
        std::string::npos);
  CHECK(missing.out.empty());
  // Refused before the launch: a kernel that would fault does not get to run.
  const auto first = run({"--grid", "1", "--block", "96", "--arg", "n=96", "--dump", "c=/tmp"});
  CHECK(first.code == 1);
  CHECK(first.err.find("--dump c: cannot write '/tmp': it is a directory") != std::string::npos);
  // A path that exists is left alone until the run is done.
  const std::string kept = "/tmp/warpsim-exit-codes-kept.bin";
  std::ofstream(kept) << "old";
  CHECK(run({"--grid", "1", "--block", "96", "--arg", "n=96", "--dump", "c=" + kept}).code == 1);
  CHECK(std::filesystem::file_size(kept) == 3);
}
