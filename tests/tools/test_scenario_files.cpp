// Scenario files, reports that survive faults, reruns, the shared number rules and the errors for
// options that do not apply (issue 12).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_helpers.hpp"
#include "device/errors.hpp"
#include "isa/literal.hpp"
#include "isa/parser.hpp"
#include "kernels/buffer_init.hpp"
#include "tools/progress.hpp"

using warpsim::test::cli;

namespace {

const std::string kData = std::string(WARPSIM_TEST_DATA_DIR) + "/scenarios/";

// A fresh folder for files a test writes.
std::filesystem::path scratch(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("warpsim-scen-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

using warpsim::test::read_text;

// The two-launch scenario with its expectations replaced.
std::string two_pass_with(const std::string& expect) {
  auto j = nlohmann::ordered_json::parse(read_text(kData + "two_pass.json"));
  j["expect"] = nlohmann::ordered_json::parse(expect);
  for (auto& l : j["launches"]) l["kernel"] = kData + "affine.kir";
  return j.dump(2);
}

}  // namespace

TEST_CASE("a scenario file with two launches passes its file-based expectation") {
  const auto r = cli({"run", kData + "two_pass.json", "--format", "json", "--mode", "functional"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["launches"].size() == 2);
  CHECK(j["launches"][0]["blocks"] == 4);  // cdiv(100, 32)
  CHECK(j["launches"][1]["blocks"] == 4);  // cdiv(count(b), 32)
  CHECK(j["check"]["ran"] == true);
  CHECK(j["check"]["passed"] == true);
  CHECK_THAT(j["check"]["detail"].get<std::string>(), Catch::Contains("100 elements of c equal file two_pass_c.bin"));
  CHECK_THAT(j["check"]["detail"].get<std::string>(), Catch::Contains("c[0] = 1 equals 1"));
}

TEST_CASE("a scenario file's parameters change with --set and are checked against their range") {
  // 50 elements: the file holds 100, so the file expectation now refuses the comparison (exit 1).
  auto r = cli({"run", kData + "two_pass.json", "--set", "n=50", "--mode", "functional"});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("two_pass_c.bin"));
  r = cli({"run", kData + "two_pass.json", "--set", "n=0"});
  CHECK(r.code == 2);
  r = cli({"run", kData + "two_pass.json", "--set", "width=3"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("no parameter 'width'"));
}

TEST_CASE("a failed expectation of a scenario file is a failed check, exit 3") {
  const auto dir = scratch("fail");
  const auto file = write(dir / "s.json", two_pass_with(R"([{"buffer": "c", "index": 5, "equals": {"value": 15}}])"));
  const auto r = cli({"run", file, "--mode", "functional"});
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains("check: FAILED: c[5] = 16, expected 15"));
}

TEST_CASE("expectations compare with other buffers, strides, sums and tolerances") {
  const auto dir = scratch("kinds");
  // b = 3a as the device left it; c = b + 1; b's elements at stride 1 equal 3i; the sum of initial a is 4950.
  const auto file = write(dir / "s.json", two_pass_with(R"([
    {"buffer": "b", "equals": {"initial": "a", "stride": 1}, "count": 1},
    {"buffer": "c", "index": 1, "equals": {"buffer": "b", "offset": 0}, "tolerance": 1},
    {"buffer": "b", "index": 0, "equals": {"sum_of": "a"}, "tolerance": 4950}
  ])"));
  auto r = cli({"run", file, "--mode", "functional"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("within 1"));
  // Without the tolerance c[1] = 4 is not b[1] = 3.
  const auto strict = write(dir / "t.json", two_pass_with(R"([{"buffer": "c", "index": 1, "equals": {"buffer": "b"}}])"));
  r = cli({"run", strict, "--mode", "functional"});
  CHECK(r.code == 3);
  CHECK_THAT(r.out, Catch::Contains("c[1] = 4, expected 3 (b)"));
}

TEST_CASE("a malformed scenario file is invalid input naming the place") {
  const auto dir = scratch("bad");
  auto r = cli({"run", write(dir / "a.json", two_pass_with(R"([{"buffer": "c", "equal": {"value": 1}}])"))});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("expect[0]: unknown key 'equal'"));
  r = cli({"run", write(dir / "b.json", "{ not json")});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("not valid JSON"));
  auto j = nlohmann::ordered_json::parse(two_pass_with("[]"));
  j["launches"][1]["grid"] = "cdiv(count(nothing), 2)";
  r = cli({"run", write(dir / "c.json", j.dump())});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("count(nothing)"));
}

TEST_CASE("the built-in scenarios that became scenario files keep their names and figures") {
  for (const std::string name : {"strided-copy", "bank-conflicts"}) {
    const auto r = cli({"run", name, "--format", "json"});
    INFO(name << ": " << r.err);
    CHECK(r.code == 0);
    CHECK(nlohmann::json::parse(r.out)["check"]["passed"] == true);
  }
  // A wrong expectation in the data would fail: stride 2 still copies the even elements.
  const auto r = cli({"run", "strided-copy", "--set", "stride=2", "--set", "n=1000", "--format", "json"});
  CHECK(nlohmann::json::parse(r.out)["check"]["detail"] == "1000 elements of out equal initial in[2*i]");
}

TEST_CASE("a kernel fault prints the report up to the fault with a FAULT line, in every format") {
  const auto file = kData + "fault.json";
  auto r = cli({"run", file, "--mode", "functional"});
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("launch 1 of 1: kernel affine"));
  CHECK_THAT(r.out, Catch::Contains("FAULT in launch 2 (kernel affine, grid 2, block 32): block (0,0,0) warp 0 lane 8 pc 5 "
                                    "line 12 `ld.global.u32 x, [p]`: global load of 4 bytes"));
  CHECK_THAT(r.out, Catch::Contains("check: not run"));
  CHECK_THAT(r.err, Catch::Contains("outside every allocation"));

  r = cli({"run", file, "--format", "json"});
  CHECK(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["launches"].size() == 1);
  CHECK(j["fault"]["launch"] == 2);
  CHECK(j["fault"]["site"]["lane"] == 8);
  CHECK(j["fault"]["site"]["warp"] == 0);
  CHECK(j["fault"]["site"]["line"] == 12);

  r = cli({"run", file, "--format", "csv"});
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("\n# FAULT in launch 2"));
  CHECK_THAT(r.out, Catch::StartsWith("launch,kernel,block"));
}

TEST_CASE("compare reports every target when one faults: its launches up to the fault and a FAULT line") {
  const auto file = kData + "fault.json";
  auto r = cli({"compare", "vecadd", file, "--mode", "functional"});
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("vecadd"));
  CHECK_THAT(r.out, Catch::Contains(file + ": FAULT in launch 2 (kernel affine, grid 2, block 32): block (0,0,0) warp 0 lane 8"));
  CHECK_THAT(r.out, Catch::Contains("not run"));
  CHECK_THAT(r.err, Catch::Contains("outside every allocation"));

  r = cli({"compare", file, "vecadd", "--format", "json"});
  CHECK(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["runs"].size() == 2);
  CHECK(j["runs"][0]["launches"].size() == 1);
  CHECK(j["runs"][0]["fault"]["launch"] == 2);
  CHECK(j["runs"][1]["fault"].is_null());
  CHECK(j["runs"][1]["check"]["passed"] == true);
}

TEST_CASE("rerun reproduces a compare report, and finds a changed figure in it") {
  const auto dir = scratch("rerun-compare");
  auto r = cli({"compare", "vecadd:n=300", "reduce-fig5-15:n=512", "--seed", "3", "--format", "json"});
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["reproduce"]["argv"][0] == "compare");
  CHECK(j["runs"][1]["reproduce"]["params"]["n"] == "512");
  r = cli({"rerun", write(dir / "c.json", r.out)});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("identical"));
  REQUIRE(j["runs"][0]["launches"][0].contains("warp_instructions"));
  j["runs"][0]["launches"][0]["warp_instructions"] = 1;
  r = cli({"rerun", write(dir / "d.json", j.dump(2) + "\n")});
  CHECK(r.code == 7);
  CHECK_THAT(r.out, Catch::Contains("/runs/0/launches/0/warp_instructions: saved 1"));
}

TEST_CASE("a JSON report records how to run it again, and rerun reproduces it byte for byte") {
  const auto dir = scratch("rerun");
  auto r = cli({"run", "vecadd", "--set", "n=300", "--seed", "5", "--format", "json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["reproduce"]["seed"] == 5);
  CHECK(j["reproduce"]["mode"] == "timing");
  CHECK(j["reproduce"]["preset"] == "h100");
  CHECK(j["reproduce"]["params"]["n"] == "300");
  CHECK(j["reproduce"]["argv"][0] == "run");
  const auto saved = write(dir / "r.json", r.out);
  r = cli({"rerun", saved});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("byte for byte"));

  // A changed figure is found and named.
  auto changed = j;
  changed["launches"][0]["warp_instructions"] = j["launches"][0]["warp_instructions"].get<std::uint64_t>() + 1;
  r = cli({"rerun", write(dir / "changed.json", changed.dump(2) + "\n")});
  CHECK(r.code == 7);
  CHECK_THAT(r.out, Catch::Contains("/launches/0/warp_instructions"));

  // A kernel file's buffers are recorded and rerun too.
  r = cli({"run", kData + "affine.kir", "--grid", "2", "--block", "32", "--arg", "n=50", "--arg", "mul=2", "--arg",
           "add=0x10", "--buffer", "in=u32[64]:random:100", "--buffer", "out=u32[64]:zeros", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["reproduce"]["buffers"][0] == "in=u32[64]:random:100");
  r = cli({"rerun", write(dir / "k.json", r.out)});
  CHECK(r.code == 0);
  r = cli({"rerun", write(dir / "none.json", "{\"launches\": []}")});
  CHECK(r.code == 1);
}

TEST_CASE("the values of --arg, --set and buffers are exactly the literals the IR accepts") {
  using warpsim::isa::Type;
  const std::pair<Type, const char*> types[] = {{Type::U32, "u32"}, {Type::S32, "s32"}, {Type::U64, "u64"}, {Type::F32, "f32"}};
  const char* literals[] = {"0",          "42",         "-7",         "0x2a",        "4294967295", "4294967296",
                            "-2147483648", "2147483648", "0xffffffff", "1.5",         "-2.0e-3",    "1e6",
                            "0f7fc00000", "0f3f800000", "1e-50",      "1e39",        "16777217",   "16777216",
                            "abc",        "1.5x",       "0x",         "18446744073709551616"};
  for (const auto& [type, name] : types)
    for (const char* literal : literals) {
      const std::string kernel = fmt::format("kernel k(ptr.u32 o) {{\n    reg {} r\n    mov.{} r, {}\n    exit\n}}\n", name, name, literal);
      const bool ir_accepts = warpsim::isa::parse(kernel, "t.kir").ok();
      bool arg_accepts = true;
      try {
        warpsim::kernels::parse_value(literal, type, "--arg x");
      } catch (const warpsim::Error& e) {
        arg_accepts = false;
        CHECK(e.code() == warpsim::ExitCode::Usage);
      }
      INFO(name << " " << literal);
      CHECK(ir_accepts == arg_accepts);
    }
  // The exact-bits form gives those bits; underflow is refused, not silently 0.
  CHECK(warpsim::kernels::parse_value("0f7fc00000", Type::F32, "--arg x") == 0x7fc00000u);
  CHECK_THROWS_WITH(warpsim::kernels::parse_value("1e-50", Type::F32, "--arg x"), Catch::Contains("out of range"));
  const auto r = cli({"run", "vecadd", "--set", "n=1e3"});
  CHECK(r.code == 2);
}

TEST_CASE("buffer initialisers: random:0 is refused, bounds and steps apply per type") {
  using warpsim::kernels::make_contents;
  using warpsim::kernels::parse_buffer_spec;
  CHECK_THROWS_WITH(parse_buffer_spec("a=u32[4]:random:0"), Catch::Contains("random bound 0"));
  const auto iota = make_contents(parse_buffer_spec("a=u32[4]:iota:10:3"), 4, 1);
  std::uint32_t v[4];
  std::memcpy(v, iota.data(), sizeof v);
  CHECK(v[0] == 10);
  CHECK(v[3] == 19);
  const auto f = make_contents(parse_buffer_spec("a=f32[256]:random:8"), 256, 1);
  float x[256];
  std::memcpy(x, f.data(), sizeof x);
  float top = 0;
  for (float e : x) {
    CHECK(e >= 0);
    CHECK(e < 8);
    top = std::max(top, e);
  }
  CHECK(top > 1);  // scaled, not [0, 1)
  CHECK(parse_buffer_spec("a=u32[64]:iota:1:2").text() == "a=u32[64]:iota:1:2");
}

TEST_CASE("options that do not apply to the target are usage errors") {
  auto r = cli({"run", "vecadd", "--kernel", "vecadd"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("--kernel does not apply to vecadd"));
  r = cli({"run", "vecadd", "--dump", "c=x.bin"});
  CHECK(r.code == 2);
  r = cli({"run", kData + "two_pass.json", "--grid", "4"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("--grid does not apply"));
  r = cli({"run", kData + "affine.kir", "--grid", "1", "--block", "32", "--set", "n=1"});
  CHECK(r.code == 2);
}

TEST_CASE("a --warps block range outside every launch's grid is an error naming the grid") {
  auto r = cli({"run", "vecadd", "--warps", "100-200", "--mode", "functional"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("launch 1: grid 16 = blocks 0-15"));
  r = cli({"run", "vecadd", "--warps", "15-200", "--mode", "functional"});
  CHECK(r.code == 0);
}

TEST_CASE("branches in unlabelled blocks are named like warpsim cfg names them") {
  const auto r = cli({"run", "vecadd", "--format", "json", "--mode", "functional"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["launches"][0]["branches"][0]["label"] == "B0");
  const auto cfg = cli({"cfg", std::string(WARPSIM_KERNELS_DIR) + "/vecadd.kir"});
  CHECK_THAT(cfg.out, Catch::Contains("B0"));
}

TEST_CASE("scenario files sweep and bench like built-in scenarios") {
  auto r = cli({"sweep", kData + "two_pass.json", "--set", "block=32,64", "--mode", "functional", "--threads", "1"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("two_pass.json"));
  r = cli({"bench", kData + "two_pass.json", "--mode", "functional", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  CHECK(j[0]["check_passed"] == true);
  // --compare-set: each case under each value, side by side; the same work in each.
  r = cli({"bench", std::string(WARPSIM_TEST_DATA_DIR) + "/bench/l2_chase.json", "--set", "count=64", "--mode",
           "timing", "--compare-set", "memory.dram_latency=300,700", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto both = nlohmann::json::parse(r.out);
  REQUIRE(both.size() == 2);
  CHECK(both[0]["setting"] == "memory.dram_latency=300");
  CHECK(both[1]["setting"] == "memory.dram_latency=700");
  CHECK(both[0]["thread_instructions"] == both[1]["thread_instructions"]);
  CHECK(both[1]["simulated_cycles"].get<std::uint64_t>() > both[0]["simulated_cycles"].get<std::uint64_t>() + 64 * 300);  // the first pass misses
  for (const auto& bad : {"memory.l2_latency", "no.such_key=1", "sim.skip_idle_epochs=0,5"}) {
    r = cli({"bench", kData + "two_pass.json", "--mode", "functional", "--compare-set", bad});
    INFO(bad << ": " << r.err);
    CHECK(r.code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_THAT(r.err, Catch::StartsWith("warpsim: error: --compare-set: "));
  }
}

TEST_CASE("the progress line: its text, and nothing at all when standard error is not a terminal") {
  CHECK(warpsim::cli::format_progress("vecadd", 2, 300, 1024, "blocks", 0.5) ==
        "vecadd: launch 2, blocks 300 of 1024 (29%), 600 blocks/s");
  CHECK(warpsim::cli::format_progress("sweep", 0, 3, 4, "points", 0) == "sweep: points 3 of 4 (75%)");
  CHECK(warpsim::cli::format_progress("vecadd", 1, 4, 4, "blocks", 2) == "vecadd: launch 1, blocks 4 of 4 (100%)");
  CHECK(warpsim::cli::format_progress("vecadd", 0, 0, 0, "blocks", 2) == "vecadd: preparing");
  warpsim::cli::Progress quiet("vecadd", "blocks", false);
  CHECK(quiet.counters() == nullptr);  // nothing counts, no thread, nothing printed
  warpsim::cli::Progress shown("vecadd", "blocks", true);
  CHECK(shown.counters() != nullptr);
  shown.stop();  // stopped within the first second: it never printed
}
