// warpsim sweep as a user meets it: the table's figures, the best point and why the others lose,
// CSV and JSON, invalid points, host threads, the job files and their merge, the plot.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/tools/cli_helpers.hpp"

namespace {

using warpsim::test::cli;
namespace fs = std::filesystem;

// The coarsened matmul at 64^3: TILE 16 gives 4 phases and 16 blocks, a fast timing run.
std::vector<std::string> matmul_sweep(std::vector<std::string> extra) {
  std::vector<std::string> a{"sweep", "matmul-coarsened", "--set",     "rows=64", "--set", "inner=64",
                             "--set", "cols=64",          "--threads", "2"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

nlohmann::json json_of(const warpsim::test::CliResult& r) {
  INFO(r.err);
  return nlohmann::json::parse(r.out);
}

std::string temp_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("warpsim-test-sweep-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

using warpsim::test::read_text;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("sweep: coarsening the matmul loads fewer global values per output, and the best point is named") {
  const auto r = cli(matmul_sweep({"--set", "coarse=1,2,4", "--format", "json"}));
  REQUIRE(r.code == 0);
  const auto j = json_of(r);
  CHECK(j["swept"] == nlohmann::json::array({"coarse"}));
  CHECK(j["fixed"]["tile"] == "16");
  const auto& p = j["points"];
  REQUIRE(p.size() == 3);
  // 4 phases; the M tile loaded once per phase, an N tile per output column: 4 * (1 + 1/COARSE).
  CHECK(p[0]["global_loads_per_output"].get<double>() == Approx(8.0));
  CHECK(p[1]["global_loads_per_output"].get<double>() == Approx(6.0));
  CHECK(p[2]["global_loads_per_output"].get<double>() == Approx(5.0));
  CHECK(p[0]["outputs"] == 64 * 64);
  CHECK(p[0]["blocks"] == 16);
  CHECK(p[1]["blocks"] == 8);
  CHECK(p[2]["blocks"] == 4);
  CHECK(p[0]["warps"] == 128);
  CHECK(p[0]["speedup"].get<double>() == Approx(1.0));
  // 16 blocks cannot fill 132 SMs: coarsening only takes more SMs away, so no coarsening wins.
  REQUIRE(j["best"].size() == 1);
  CHECK(j["best"][0]["gpu"] == "h100");
  CHECK(j["best"][0]["point"] == 1);
  CHECK(p[0]["cycles"].get<std::uint64_t>() < p[1]["cycles"].get<std::uint64_t>());
  CHECK(p[1]["cycles"].get<std::uint64_t>() < p[2]["cycles"].get<std::uint64_t>());
  const auto& others = j["best"][0]["others"];
  REQUIRE(others.size() == 2);
  CHECK(others[1]["why"][0].get<std::string>().rfind("too few blocks to fill the SMs (4 blocks for 132 SMs", 0) == 0);

  const auto text = cli(matmul_sweep({"--set", "coarse=1,2,4"}));
  CHECK(text.code == 0);
  CHECK(text.out.find("best on h100: point 1 (coarse=1)") != std::string::npos);
  CHECK(text.out.find("  point 3 (coarse=4): ") != std::string::npos);
}

TEST_CASE("sweep: a tile of 8 loads twice as much per output as 16, and the summary says so") {
  const auto j = json_of(cli(matmul_sweep({"--set", "coarse=1", "--set", "tile=8,16", "--format", "json"})));
  const auto& p = j["points"];
  REQUIRE(p.size() == 2);
  CHECK(p[0]["global_loads_per_output"].get<double>() == Approx(16.0));
  CHECK(p[1]["global_loads_per_output"].get<double>() == Approx(8.0));
  CHECK(p[0]["limiter"] == "shared memory");
  REQUIRE(j["best"][0]["point"] == 2);
  const auto why = j["best"][0]["others"][0]["why"].dump();
  CHECK(why.find("redundant loads (16.00 global loads per output against the best's 8.00)") != std::string::npos);
}

TEST_CASE("sweep: csv has a header and one row per point, parameters first") {
  const auto r = cli(matmul_sweep({"--set", "coarse=1,2", "--set", "tile=8,16", "--gpu", "h100,v100", "-f", "csv"}));
  REQUIRE(r.code == 0);
  CHECK(count(r.out, "\n") == 1 + 8);
  CHECK(r.out.rfind("point,coarse,tile,gpu,status,warps,blocks,waves,", 0) == 0);
  CHECK(r.out.find("\n5,1,8,v100,ok,") != std::string::npos);
}

TEST_CASE("sweep: invalid points are named with the reason, the others still run, exit 1") {
  const auto r = cli(matmul_sweep({"--set", "coarse=1", "--set", "tile=16,64"}));
  CHECK(r.code == 1);
  CHECK(r.out.find("    2   64 h100 invalid: matmul-coarsened: tile = 64 makes a 64x64 block of 4096 threads") !=
        std::string::npos);
  CHECK(r.out.find("1 of 2 point(s) did not run cleanly (not ranked):") != std::string::npos);
  CHECK(r.out.find("best on h100: point 1 (tile=16)") != std::string::npos);
  // A block over 1024 threads.
  const auto j = json_of(cli({"sweep", "vecadd", "--set", "block=64,2048", "--set", "n=1000", "-f", "json"}));
  CHECK(j["points"][0]["status"] == "ok");
  CHECK(j["points"][1]["status"] == "invalid");
  CHECK(j["points"][1]["reason"] == "scenario 'vecadd': block = 2048 is out of range (1..1024)");
  CHECK(j["not_ok"] == nlohmann::json::array({2}));
}

TEST_CASE("sweep: empty or malformed lists, unknown parameters and GPUs are usage errors, exit 2") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--set", "coarse="}, "--set coarse=: the list of values is empty"},
      {{"--set", "coarse=1,,4"}, "--set coarse=1,,4: an empty value in the list"},
      {{"--set", "coarse=1,x"}, "--set coarse: 'x' is not a u64 number the IR accepts"},
      {{"--set", "width=1,2"}, "matmul-coarsened has no parameter 'width' (its parameters: rows, inner, cols"},
      {{"--set", "coarse=1,2", "--set", "coarse=4"}, "coarse is swept twice"},
      {{"--gpu", "h100,h200"}, "unknown GPU 'h200'"},
      {{"--set", "coarse=2", "--plot", "/dev/null"}, "--plot needs timing mode and a --set list with several values"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> a{"sweep", "matmul-coarsened"};
    a.insert(a.end(), args.begin(), args.end());
    const auto r = cli(a);
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(message) != std::string::npos);
  }
  CHECK(cli({"sweep"}).code == 2);
  CHECK(cli({"sweep", "no-such-scenario"}).code == 2);
}

TEST_CASE("sweep: one host thread or two give byte-identical output") {
  const std::vector<std::string> args{"sweep", "matmul-coarsened", "--set", "rows=48",      "--set", "inner=40",
                                      "--set", "cols=56",          "--set", "coarse=1,2,4", "--set", "tile=8,16"};
  auto one = args, two = args;
  one.insert(one.end(), {"--threads", "1"});
  two.insert(two.end(), {"--threads", "2"});
  const auto a = cli(one), b = cli(two);
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
}

TEST_CASE("sweep: the plot draws one line per GPU against the swept parameter") {
  const auto dir = temp_dir("plot");
  const auto svg = dir + "/coarse.svg";
  const auto r = cli(matmul_sweep({"--set", "coarse=1,2,4", "--gpu", "h100,v100", "--plot", svg}));
  REQUIRE(r.code == 0);
  const auto text = read_text(svg);
  CHECK(text.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(count(text, "<polyline") == 2);
  CHECK(count(text, "<circle") == 6);
  CHECK(text.find("predicted time against coarse") != std::string::npos);
  CHECK(text.find(">h100</text>") != std::string::npos);
  CHECK(text.find(">v100</text>") != std::string::npos);
}

TEST_CASE("sweep: --merge of jobs that never ran marks every point, exit 1") {
  const auto dir = temp_dir("not-run");
  const auto jobs = dir + "/jobs.txt";
  REQUIRE(cli(matmul_sweep({"--set", "coarse=1,2", "--emit-jobs", jobs, "--out", dir + "/out"})).code == 0);
  const auto lines = read_text(jobs);
  CHECK(count(lines, "\n") == 2);
  CHECK(lines.find(" run matmul-coarsened --set rows=64 --set inner=64 --set cols=64 --set coarse=2 --mode timing "
                   "--gpu h100 --format json > ") != std::string::npos);
  const auto r = cli({"sweep", "--merge", dir + "/out"});
  CHECK(r.code == 1);
  CHECK(r.out.find("    1      1 h100 failed: no point-1.json: the job has not run") != std::string::npos);
  CHECK(cli({"sweep", "--merge", dir}).code == 2);  // no sweep.json there
}

TEST_CASE("sweep: jobs run by GNU parallel merge into the same table, csv and json") {
  if (std::system("parallel --version > /dev/null 2>&1") != 0) {
    WARN("GNU parallel is not installed (apt-get install parallel): the job round trip is not tested");
    return;
  }
  const auto dir = temp_dir("parallel");
  const auto jobs = dir + "/jobs.txt";
  const std::vector<std::string> sweep{"--set", "coarse=1,4", "--set", "tile=16,64", "--gpu", "h100,v100"};
  auto emit = matmul_sweep(sweep);
  emit.insert(emit.end(), {"--emit-jobs", jobs, "--out", dir + "/out", "--warpsim", WARPSIM_BINARY});
  REQUIRE(cli(emit).code == 0);
  REQUIRE(std::system(("parallel --will-cite -j 2 < " + jobs + " > /dev/null 2>&1").c_str()) != -1);
  for (const char* format : {"text", "csv", "json"}) {
    INFO(format);
    auto direct = matmul_sweep(sweep);
    direct.insert(direct.end(), {"--format", format});
    const auto a = cli(direct);
    const auto b = cli({"sweep", "--merge", dir + "/out", "--format", format});
    CHECK(a.code == 1);  // the tile=64 points are invalid
    CHECK(b.code == 1);
    CHECK(a.out == b.out);
  }
}
