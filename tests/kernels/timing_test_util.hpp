// Helpers of the timing model's tests (test_timing.cpp, test_timing_compiler.cpp): run a kernel
// through the CLI and read its JSON report.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>
#include <catch2/catch.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tools/cli.hpp"

namespace warpsim::timing_test {

using warpsim::cli::Io;
using warpsim::cli::run_cli;

// A kernel file's report has no "outputs" (only scenarios check theirs): every --buffer of such a
// run is dumped and the report's "outputs" becomes each buffer's name and a hash of its bytes, so
// the tests' `a["outputs"] == b["outputs"]` compares what the kernel wrote.
inline nlohmann::json run_json(std::vector<std::string> args, int expect = 0) {
  Io io;
  std::vector<std::pair<std::string, std::filesystem::path>> dumps;
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--buffer") {
      const std::string name = args[i + 1].substr(0, args[i + 1].find('='));
      dumps.emplace_back(name, std::filesystem::temp_directory_path() /
                                   fmt::format("warpsim-test-timing-{}-{}-{}.bin", ::getpid(), name, dumps.size()));
    }
  for (const auto& [name, path] : dumps) args.insert(args.end(), {"--dump", name + "=" + path.string()});
  args.insert(args.begin(), "run");
  args.push_back("--format");
  args.push_back("json");
  const int code = run_cli(args, io);
  INFO(io.err);
  REQUIRE(code == expect);
  auto report = nlohmann::json::parse(io.out);
  if (!dumps.empty() && report["outputs"].empty()) {
    report["outputs"] = nlohmann::json::array();
    for (const auto& [name, path] : dumps) {
      std::ifstream in(path, std::ios::binary);
      const std::string bytes(std::istreambuf_iterator<char>(in), {});
      report["outputs"].push_back({{"buffer", name}, {"bytes", bytes.size()}, {"hash", std::hash<std::string>{}(bytes)}});
      std::filesystem::remove(path);
    }
  }
  return report;
}

inline std::uint64_t cycles(const nlohmann::json& report) {
  std::uint64_t total = 0;
  for (const auto& l : report["launches"]) total += l["timing"]["cycles"].get<std::uint64_t>();
  return total;
}

// Everything in a launch report that does not come from the timing model.
inline nlohmann::json functional_part(nlohmann::json launch) {
  launch.erase("timing");
  launch.erase("cycles");
  for (auto& w : launch["warps"]) {
    // The order warps issue in (first/last issue) is the scheduler's, so it differs between modes.
    for (const char* k : {"first_issue", "last_issue", "first_cycle", "last_cycle", "sm", "sub_partition", "stalls"})
      w.erase(k);
  }
  return launch;
}

// The same with the per-warp rows as a multiset without block ids: in the last-block reduction
// the block that finds itself last (and sums the partials) is whichever finishes last, which
// depends on timing; every other figure must still match.
inline nlohmann::json functional_part_any_block(nlohmann::json launch) {
  launch = functional_part(std::move(launch));
  std::vector<std::string> rows;
  for (auto& w : launch["warps"]) {
    w.erase("block");
    w.erase("block_index");
    rows.push_back(w.dump());
  }
  std::sort(rows.begin(), rows.end());
  launch["warps"] = rows;
  return launch;
}

// Each `--gpu-set` is refused with exit 2 and one line naming the parameter and what is wrong.
inline void check_refused(const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [set, says] : cases) {
    Io io;
    CHECK(run_cli({"run", "vecadd", "--gpu-set", set}, io) == 2);
    INFO(set << ": " << io.err);
    CHECK_THAT(io.err, Catch::Contains(says));
    CHECK(std::count(io.err.begin(), io.err.end(), '\n') == 1);
  }
}


inline const nlohmann::json& memory_of(const nlohmann::json& report, std::size_t launch) {
  return report["launches"][launch]["timing"]["memory"];
}

inline std::string stop23_file() { return std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop23.kir"; }
// Two runs of one launch that differ only in timing parameters: the same results, the same IR
// instructions executed, the same IR classes in the report.
inline void check_same_work(const nlohmann::json& a, const nlohmann::json& b) {
  REQUIRE(!a["outputs"].empty());
  CHECK(a["outputs"] == b["outputs"]);
  CHECK(a["launches"][0]["warp_instructions"] == b["launches"][0]["warp_instructions"]);
  CHECK(a["launches"][0]["instruction_mix"] == b["launches"][0]["instruction_mix"]);
}
inline std::int64_t issue_slots(const nlohmann::json& r) {
  return r["launches"][0]["timing"]["stalls"]["issued"].get<std::int64_t>();
}
// A kernel of tests/data/timing/stop25.kir on 132 blocks of 4 warps, 64 trips.
inline nlohmann::json stop25_run(const std::string& kernel, std::vector<std::string> extra) {
  std::vector<std::string> args{std::string(WARPSIM_TEST_DATA_DIR) + "/timing/stop25.kir", "--kernel", kernel, "--grid",
                                "132", "--block", "128", "--arg", "rounds=64"};
  if (kernel == "truncate_sum" || kernel == "bits_mix") {
    args.insert(args.end(), {"--buffer", "out=u32[16896]:zeros"});
  } else {
    args.insert(args.end(), {"--buffer", "in=f32[128]:random", "--buffer", "out=f32[16896]:zeros"});
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return run_json(args);
}

}  // namespace warpsim::timing_test
