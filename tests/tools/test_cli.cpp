// The command line as a user meets it: exit codes, one-line errors, output formats.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kernels/buffer_init.hpp"
#include "kernels/scenario.hpp"
#include "tests/tools/cli_helpers.hpp"
#include "tools/report/report.hpp"

namespace {

using warpsim::test::cli;

std::string kernels_dir() { return WARPSIM_KERNELS_DIR; }

using warpsim::test::write_temp;

const char* kVecadd = "vecadd.kir";

std::vector<std::string> vecadd_args(std::vector<std::string> extra) {
  std::vector<std::string> a{"run", kernels_dir() + "/" + kVecadd};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

}  // namespace

TEST_CASE("help lists the commands and version names the release") {
  const auto help = cli({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("validate") != std::string::npos);
  CHECK(help.out.find("exit codes") != std::string::npos);
  const auto version = cli({"--version"});
  CHECK(version.code == 0);
  CHECK(version.out.rfind("warpsim ", 0) == 0);
}

TEST_CASE("an unknown command or option is a usage error, exit 2") {
  CHECK(cli({"frobnicate"}).code == 2);
  CHECK(cli({"run", "vecadd", "--no-such-option"}).code == 2);
  CHECK(cli({}).code == 2);
}

TEST_CASE("check on a broken file points at the line and column and exits 1") {
  const auto path = write_temp("broken.kir", "kernel k(u32 n) {\n    reg u32 x\n    add.u32 x, n, q\n    exit\n}\n");
  const auto r = cli({"check", path});
  CHECK(r.code == 1);
  CHECK(r.err.find(path + ":3:19: error: unknown register 'q'") != std::string::npos);
}

TEST_CASE("check accepts every kernel in kernels/") {
  std::vector<std::string> args{"check"};
  for (const char* f : {"vecadd.kir", "gray.kir", "divergent_loop.kir", "report_clocks.kir", "warp_shapes.kir",
                        "reduce_fig5_13.kir", "reduce_fig5_15.kir", "reduce_ece408_naive.kir",
                        "reduce_ece408_improved.kir", "reduce_coarsened.kir", "reduce_last_block.kir",
                        "vecadd_coarsened.kir", "gray_coarsened.kir", "matmul_naive.kir", "matmul_tiled.kir",
                        "matmul_coarsened_c1.kir", "matmul_coarsened_c2.kir", "matmul_coarsened_c4.kir",
                        "matmul_coarsened_c8.kir", "matmul_coarsened_c16.kir"})
    args.push_back(kernels_dir() + "/" + f);
  const auto r = cli(args);
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("20 file(s), 20 kernel(s): no errors") != std::string::npos);
}

TEST_CASE("cfg shows where the Fig 5.15 if (t < stride) reconverges") {
  const auto r = cli({"cfg", kernels_dir() + "/reduce_fig5_15.kir"});
  CHECK(r.code == 0);
  const auto line = r.out.substr(r.out.find("@!adds bra next"));
  CHECK(line.substr(0, line.find('\n')).find("reconverges at pc 20 (line 33, B4 (next))") != std::string::npos);
  const auto dot = cli({"cfg", kernels_dir() + "/reduce_fig5_15.kir", "--format", "dot"});
  CHECK(dot.out.rfind("digraph", 0) == 0);
  CHECK(dot.out.find("label=\"reconverge\"") != std::string::npos);
}

TEST_CASE("print writes the canonical form, which checks clean again") {
  const auto r = cli({"print", kernels_dir() + "/vecadd.kir"});
  REQUIRE(r.code == 0);
  const auto path = write_temp("printed.kir", r.out);
  CHECK(cli({"check", path}).code == 0);
  CHECK(cli({"print", path}).out == r.out);
}

TEST_CASE("run on a kernel file takes arguments and buffers, and dumps a buffer") {
  const auto dump = std::string("/tmp/warpsim-test-c.bin");
  const auto r = cli(vecadd_args({"--grid", "16", "--block", "64", "--arg", "n=1003", "--buffer", "a=f32[1003]:iota",
                                  "--buffer", "b=f32[1003]:const:1", "--buffer", "c=f32[1003]:zeros", "--dump",
                                  "c=" + dump}));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("warps launched 32") != std::string::npos);
  std::ifstream in(dump, std::ios::binary);
  std::vector<float> c(1003);
  in.read(reinterpret_cast<char*>(c.data()), 1003 * 4);
  CHECK(c[0] == 1.0f);
  CHECK(c[1002] == 1003.0f);
}

TEST_CASE("wrong launches get one clear line: exit 2 for a command-line mistake, 1 for what the device refuses") {
  const std::vector<std::string> buffers{"--buffer", "a=f32[64]:zeros", "--buffer", "b=f32[64]:zeros",
                                         "--buffer", "c=f32[64]:zeros"};
  auto run = [&](std::vector<std::string> extra, bool with_buffers = true) {
    if (with_buffers) extra.insert(extra.end(), buffers.begin(), buffers.end());
    return cli(vecadd_args(extra));
  };
  SECTION("zero block") {
    const auto r = run({"--grid", "1", "--block", "0", "--arg", "n=64"});
    CHECK(r.code == 2);
    CHECK(r.err.find("--block: '0' has a size of 0; every size is at least 1") != std::string::npos);
  }
  SECTION("negative size") {
    const auto r = run({"--grid", "1", "--block", "-4", "--arg", "n=64"});
    CHECK(r.code == 2);
    CHECK(r.err.find("negative size") != std::string::npos);
  }
  SECTION("more than 1024 threads per block") {
    const auto r = run({"--grid", "1", "--block", "64,32", "--arg", "n=64"});
    CHECK(r.code == 1);
    CHECK(r.err.find("2048 threads, more than the 1024 a block may have") != std::string::npos);
  }
  SECTION("missing argument") {
    const auto r = run({"--grid", "1", "--block", "64"});
    CHECK(r.code == 2);
    CHECK(r.err.find("parameter 'n' of 'vecadd' (u32) has no value: add --arg n=VALUE") != std::string::npos);
  }
  SECTION("extra argument") {
    const auto r = run({"--grid", "1", "--block", "64", "--arg", "n=64", "--arg", "m=3"});
    CHECK(r.code == 2);
    CHECK(r.err.find("kernel 'vecadd' has no parameter 'm'") != std::string::npos);
  }
  SECTION("a buffer whose type does not match the parameter") {
    const auto r = run({"--grid", "1", "--block", "64", "--arg", "n=64", "--buffer", "a=u32[64]:zeros", "--buffer",
                        "b=f32[64]:zeros", "--buffer", "c=f32[64]:zeros"},
                       false);
    CHECK(r.code == 2);
    CHECK(r.err.find("--buffer a: elements are u32, but parameter 'a' of 'vecadd' is ptr.f32") != std::string::npos);
  }
  SECTION("a buffer too small for the kernel's accesses") {
    const auto r = run({"--grid", "1", "--block", "64", "--arg", "n=64", "--buffer", "a=f32[64]:zeros", "--buffer",
                        "b=f32[63]:zeros", "--buffer", "c=f32[64]:zeros"},
                       false);
    CHECK(r.code == 1);
    CHECK(r.err.find("lane 31") != std::string::npos);
    CHECK(r.err.find("'b'") != std::string::npos);
  }
  SECTION("a scalar out of range") {
    const auto r = run({"--grid", "1", "--block", "64", "--arg", "n=4294967296"});
    CHECK(r.code == 2);
    CHECK(r.err.find("--arg n: 4294967296 is out of range for u32") != std::string::npos);  // the IR's words
  }
}

TEST_CASE("a kernel that never ends stops at --max-instructions and says where each warp was") {
  const auto path = write_temp("spin.kir", "kernel spin() {\nloop:\n    bra loop\n}\n");
  const auto r = cli({"run", path, "--grid", "1", "--block", "64", "--max-instructions", "1000"});
  CHECK(r.code == 1);
  CHECK(r.err.find("1000") != std::string::npos);
  CHECK(r.err.find("warp 1") != std::string::npos);
}

TEST_CASE("a barrier in divergent code (two barriers in one warp) is reported with where it happened") {
  // Lanes that only skip a barrier to exit are fine (they never block it); two barriers are not.
  const auto path = write_temp("divbar.kir",
                               "kernel divbar() {\n    reg pred low\n    setp.lt.u32 low, %laneid, 4\n"
                               "    @!low bra skip\n    bar.sync\n    exit\nskip:\n    bar.sync\n    exit\n}\n");
  for (const auto& [model, line] : {std::pair{"ipdom", "line 8"}, std::pair{"volta", "line 8"}}) {
    const auto r = cli({"run", path, "--grid", "1", "--block", "32", "--reconvergence", model});
    INFO(model);
    CHECK(r.code == 1);
    CHECK(r.err.find("barrier in divergent code") != std::string::npos);
    CHECK(r.err.find(line) != std::string::npos);  // the bar.sync the second group reached
  }
}

TEST_CASE("an unknown reconvergence model is one line and exit 2") {
  const auto r = cli({"run", "vecadd", "--reconvergence", "stack"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--reconvergence: unknown model 'stack'") != std::string::npos);
}

TEST_CASE("json output has the documented keys and the same seed gives byte-identical output") {
  const auto a = cli({"run", "vecadd", "--format", "json"});
  REQUIRE(a.code == 0);
  const auto j = nlohmann::json::parse(a.out);
  const auto& l = j["launches"][0];
  for (const char* key : {"blocks", "warps_launched", "partial_warps", "padding_lanes", "divergent_warps",
                          "warp_instructions", "thread_instructions", "simt_efficiency", "idle_lane_slots",
                          "active_lanes_histogram", "branches", "warps"})
    CHECK(l.contains(key));
  for (const char* key : {"padding", "divergence", "exited", "predicated"}) CHECK(l["idle_lane_slots"].contains(key));
  for (const char* key : {"pc", "line", "executions", "divergent_executions", "passes"}) CHECK(l["branches"][0].contains(key));
  CHECK(cli({"run", "vecadd", "--format", "json"}).out == a.out);
  // The seed chooses the random inputs: the same seed gives the same bytes, another seed others.
  auto dumped = [&](const std::string& seed) {
    const std::string path = "/tmp/warpsim-test-seed-" + seed + ".bin";
    const auto r = cli(vecadd_args({"--grid", "1", "--block", "64", "--arg", "n=64", "--buffer", "a=f32[64]:random",
                                    "--buffer", "b=f32[64]:random", "--buffer", "c=f32[64]:zeros", "--seed", seed,
                                    "--dump", "c=" + path}));
    REQUIRE(r.code == 0);
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const auto one = dumped("1");
  CHECK(one.size() == 256);
  CHECK(dumped("1") == one);
  CHECK(dumped("7") != one);
}

TEST_CASE("csv output is the per-warp table with a header") {
  const auto r = cli({"run", "vecadd", "--format", "csv", "--warps", "all"});
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind("launch,kernel,block,", 0) == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 33);  // header + 32 warps
}

TEST_CASE("list shows every scenario with its parameters") {
  const auto r = cli({"list"});
  CHECK(r.code == 0);
  for (const char* name : {"warp-shapes", "vecadd", "gray", "reduce-fig5-13", "reduce-fig5-15", "reduce-ece408-naive",
                           "reduce-ece408-improved", "reduce-coarsened", "reduce-full", "divergent-loop",
                           "report-clocks", "vecadd-coarsened", "gray-coarsened", "matmul-naive", "matmul-tiled",
                           "matmul-coarsened"})
    CHECK(r.out.find(name) != std::string::npos);
}

TEST_CASE("compare puts scenarios side by side") {
  const auto r = cli({"compare", "reduce-fig5-13", "reduce-fig5-15"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("rounds with divergence") != std::string::npos);
  CHECK(r.out.find("reduce-fig5-13") != std::string::npos);
}

TEST_CASE("a scenario parameter it does not have is a usage error") {
  const auto r = cli({"run", "vecadd", "--set", "width=3"});
  CHECK(r.code == 2);
  CHECK(r.err.find("scenario 'vecadd' has no parameter 'width'") != std::string::npos);
}

TEST_CASE("two host threads give the same report as one") {
  const auto one = cli({"run", "reduce-fig5-15", "--set", "n=65536", "--format", "json"});
  const auto two = cli({"run", "reduce-fig5-15", "--set", "n=65536", "--format", "json", "--threads", "2"});
  REQUIRE(one.code == 0);
  CHECK(one.out == two.out);
}

TEST_CASE("the cuda backend without a GPU says so in one line and exits 4") {
  const auto r = cli({"run", "vecadd", "--backend", "cuda"});
  if (r.code == 0) {
    WARN("a GPU is present: the cuda backend ran");
    return;
  }
  CHECK(r.code == 4);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("the cuda backend's trace is on or off, and no setting of the simulator") {
  CHECK(cli({"run", "vecadd", "--gpu-trace", "off"}).code == 2);  // the simulator: not its setting
  CHECK(cli({"run", "vecadd", "--gpu-trace", "on"}).code == 2);
  CHECK(cli({"run", "vecadd", "--backend", "cuda", "--gpu-trace", "maybe"}).code == 2);
  CHECK(cli({"validate", "vecadd", "--gpu-trace", "off", "--replay", "/nonexistent"}).code == 2);
  CHECK(cli({"run", "vecadd"}).code == 0);  // the default (on) is no setting of the simulator's
  const auto r = cli({"run", "vecadd", "--backend", "cuda", "--gpu-trace", "off"});
  if (r.code == 0) {
    WARN("a GPU is present: the cuda backend ran untraced");
    CHECK(r.out.find("not traced (--gpu-trace off)") != std::string::npos);
    return;
  }
  CHECK(r.code == 4);
}

namespace {
// One untraced hardware launch of kernel k (k.cu), measured at 0.25 ms, and its run report.
struct UntracedRun {
  warpsim::kernels::Outcome outcome;
  warpsim::report::RunReport run;
  UntracedRun() {
    auto& launch = outcome.launches.emplace_back();
    launch.kernel_file = "k.cu";
    auto& s = launch.result.stats;
    s.kernel = "k";
    s.backend = "cuda";
    s.traced = false;
    s.kernel_ms = 0.25;
    run.title = "k.cu";
    run.backend = "cuda";
    run.device = "a GPU";
    run.outcome = &outcome;
  }
  UntracedRun(const UntracedRun&) = delete;
  UntracedRun& operator=(const UntracedRun&) = delete;
  warpsim::LaunchStats& stats() { return outcome.launches[0].result.stats; }
};
}  // namespace

TEST_CASE("a hardware run without its trace reports its shape and time, and no figure the trace gives") {
  UntracedRun r;
  auto& outcome = r.outcome;
  auto& run = r.run;
  auto& s = r.stats();
  s.grid = {3, 1, 1};
  s.block = {48, 1, 1};
  s.blocks = 3;
  s.warps_per_block = 2;
  s.warps_launched = 6;
  s.partial_warps = 3;
  s.padding_lanes = 48;
  const auto text = warpsim::report::format_text(run);
  CHECK(text.find("warps launched 6 (2 per block), partial warps 3, padding lanes 48") != std::string::npos);
  CHECK(text.find("not traced (--gpu-trace off)") != std::string::npos);
  CHECK(text.find("kernel time 0.2500 ms") != std::string::npos);
  CHECK(text.find("SIMT efficiency") == std::string::npos);  // 0 of 0 would read as a figure
  // With an output, no per-output instruction counts (there are none to divide); compare says "-".
  outcome.outputs.push_back({"out", std::vector<std::byte>(64), true, false});
  CHECK(warpsim::report::format_text(run).find("per output") == std::string::npos);
  const auto side = warpsim::report::format_comparison({&run});
  CHECK(side.find("warp instructions") != std::string::npos);
  CHECK(side.find("SIMT efficiency") != std::string::npos);
  CHECK(side.find("0.0%") == std::string::npos);
  const auto j = warpsim::report::to_json(s);
  CHECK(j["traced"] == false);
  CHECK(j["kernel_ms"] == 0.25);
  CHECK(j["warps_launched"] == 6);
  CHECK_FALSE(j.contains("warp_instructions"));
  CHECK_FALSE(j.contains("simt_efficiency"));
  s.traced = true;  // a traced run carries them
  CHECK(warpsim::report::to_json(s).contains("warp_instructions"));
  CHECK(warpsim::report::format_text(run).find("SIMT efficiency") != std::string::npos);
}

TEST_CASE("a hardware run reports the registers and local memory the GPU's compiler gave the timed build") {
  UntracedRun r;
  auto& run = r.run;
  auto& s = r.stats();
  CHECK(warpsim::report::format_text(run).find("compiled for the GPU") == std::string::npos);  // not known: no line
  s.compiled_registers = 93;
  s.compiled_local_bytes = 16;
  CHECK(warpsim::report::format_text(run).find(
            "compiled for the GPU: 93 registers per thread, 16 bytes of local memory per thread") != std::string::npos);
  s.traced = true;
  CHECK(warpsim::report::format_text(run).find("compiled for the GPU: 93 registers") != std::string::npos);
  CHECK(warpsim::report::to_json(s).at("timed_build") == "");
  s.timed_build = "source";  // which build was timed: the kernel's own, or the emitted CUDA
  CHECK(warpsim::report::format_text(run).find("compiled for the GPU (the source build, timed): 93 registers") !=
        std::string::npos);
  for (const bool traced : {false, true}) {
    s.traced = traced;
    const auto j = warpsim::report::to_json(s);
    CHECK(j.at("timed_build") == "source");
    CHECK(j["compiled_registers"] == 93);
    CHECK(j["compiled_local_bytes"] == 16);
  }
  s.backend = "sim";  // the simulator's estimate is its occupancy's, not a compile
  CHECK_FALSE(warpsim::report::to_json(s).contains("compiled_registers"));
}

TEST_CASE("scenario parameters outside their range are refused before anything runs") {
  const auto zero = cli({"run", "vecadd", "--set", "block=0"});
  CHECK(zero.code == 2);
  CHECK(zero.err.find("scenario 'vecadd': block = 0 is out of range (1..1024)") != std::string::npos);
  const auto wide = cli({"run", "divergent-loop", "--set", "block=4294967328"});
  CHECK(wide.code == 2);
  CHECK(wide.err.find("out of range") != std::string::npos);
  CHECK(cli({"run", "gray", "--set", "block_x=0"}).code == 2);
}

TEST_CASE("a negative count is refused, not wrapped around") {
  const auto r = cli({"run", "vecadd", "--max-instructions", "-1"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--max-instructions: '-1' is not a non-negative integer") != std::string::npos);
  CHECK(cli({"run", "vecadd", "--threads", "-1"}).code == 2);
  CHECK(cli({"run", "vecadd", "--warps", "-3"}).code == 2);
  CHECK(cli({"--log-level"}).code == 2);
}

TEST_CASE("a directory or an empty file is not a clean kernel file") {
  const auto dir = cli({"check", "/tmp"});
  CHECK(dir.code == 1);
  CHECK(dir.err.find("/tmp: is a directory") != std::string::npos);
  const auto empty = write_temp("empty.kir", "");
  const auto check = cli({"check", empty});
  CHECK(check.code == 1);
  CHECK(check.err.find("no kernel in this file") != std::string::npos);
  const auto cfg = cli({"cfg", empty});
  CHECK(cfg.code == 1);
  CHECK(cfg.err.find("no kernel in this file") != std::string::npos);
  const auto buffer = cli(vecadd_args({"--grid", "1", "--block", "64", "--arg", "n=64", "--buffer", "a=f32:file:/tmp",
                                       "--buffer", "b=f32[64]:zeros", "--buffer", "c=f32[64]:zeros"}));
  CHECK(buffer.code == 1);
  CHECK(buffer.err.find("is a directory") != std::string::npos);
}

TEST_CASE("control bytes of a binary file are not echoed to the terminal") {
  const auto path = write_temp("binary.kir", std::string("kernel k() {\n    \x1b[31m\x01\n    exit\n}\n"));
  const auto r = cli({"check", path});
  CHECK(r.code == 1);
  CHECK(r.err.find('\x1b') == std::string::npos);
}

TEST_CASE("a grid too large for the instruction limit is refused at once") {
  const auto path = write_temp("nop.kir", "kernel nop() {\n    exit\n}\n");
  const auto r = cli({"run", path, "--grid", "2147483647,65535,65535", "--block", "1024"});
  CHECK(r.code == 1);
  CHECK(r.err.find("--max-instructions") != std::string::npos);
}

TEST_CASE("a buffer larger than the simulated device memory may be is refused with a message") {
  const auto r = cli(vecadd_args({"--grid", "1", "--block", "64", "--arg", "n=64", "--buffer", "a=f32[17179869184]:zeros",
                                  "--buffer", "b=f32[64]:zeros", "--buffer", "c=f32[64]:zeros"}));
  CHECK(r.code == 1);
  CHECK(r.err.find("more than the") != std::string::npos);
  CHECK(r.err.find("half this machine's memory") != std::string::npos);
}

TEST_CASE("a kernel file's buffers hold what each initialiser makes, filled in the simulator's memory in place") {
  // run fills the simulator's device memory in place (Device::host_storage), where scenario files
  // and the CUDA backend build the bytes first (make_contents): every initialiser and element type
  // must come out the same, the seed advancing by one a pointer parameter.
  const std::string kir = write_temp("buffers.kir", R"(kernel k(ptr.u64 a, ptr.f64 b, ptr.f32 c, ptr.u32 d, ptr.u64 e, ptr.s32 f, ptr.f32 g, ptr.u32 h) {
    exit
}
)");
  const std::vector<std::string> specs{"a=u64[1001]:random",  "b=f64[999]:random:2.5", "c=f32[1003]:random:7",
                                       "d=u32[1000]:random:17", "e=u64[77]:random:1000", "f=s32[50]:random",
                                       "g=f32[33]:iota:1.5:0.25", "h=u32[9]:const:12345"};
  std::vector<std::string> args{"run", kir, "--grid", "1", "--block", "32", "--seed", "5"};
  for (const auto& s : specs) {
    args.push_back("--buffer");
    args.push_back(s);
    args.push_back("--dump");
    args.push_back(s.substr(0, 1) + "=/tmp/warpsim-test-fill-" + s.substr(0, 1) + ".bin");
  }
  REQUIRE(cli(args).code == 0);
  std::uint64_t seed = 5;
  for (const auto& s : specs) {
    const auto spec = warpsim::kernels::parse_buffer_spec(s);
    const auto expected = warpsim::kernels::make_contents(spec, spec.count, seed++);
    std::ifstream in("/tmp/warpsim-test-fill-" + s.substr(0, 1) + ".bin", std::ios::binary);
    const std::string got(std::istreambuf_iterator<char>(in), {});
    REQUIRE(got.size() == expected.size());
    CHECK(std::memcmp(got.data(), expected.data(), got.size()) == 0);
  }
  // The streams are random_floats' and random_u32's sequences.
  const auto floats = warpsim::kernels::random_floats(5, 9);
  const auto words = warpsim::kernels::random_u32(5, 9, 100);
  warpsim::kernels::RandomStream f{9}, w{9};
  for (std::size_t i = 0; i < 5; ++i) {
    CHECK(f.next_float() == floats[i]);
    CHECK(w.next_u32(100) == words[i]);
  }
}
