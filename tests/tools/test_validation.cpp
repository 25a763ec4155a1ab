// validate without a GPU: a saved run replayed against the simulator, and a doctored one.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernels/scenario.hpp"
#include "kernels/scenario_file.hpp"
#include "sim/gpu.hpp"
#include "tests/tools/cli_helpers.hpp"
#include "tools/ncu.hpp"
#include "tools/validation.hpp"

namespace {

using warpsim::test::cli;

// A "measured" run made by the simulator itself, saved as validate --save writes it.
nlohmann::json saved_from_simulator(const std::string& scenario_name, const warpsim::kernels::Params& params) {
  warpsim::sim::Gpu gpu;
  const auto* scenario = warpsim::kernels::find_scenario(scenario_name);
  warpsim::kernels::RunOptions options;
  options.record_trace = true;
  const auto resolved = warpsim::kernels::resolve_params(*scenario, params);
  const auto outcome = scenario->run(gpu, resolved, options);
  auto saved = warpsim::validation::save_measured(outcome, "simulated stand-in");
  saved["target"] = scenario_name;
  for (const auto& [k, v] : resolved) saved["params"][k] = std::to_string(v);
  return saved;
}

std::string write(const std::string& name, const nlohmann::json& j) {
  const auto path = "/tmp/warpsim-test-" + name;
  std::ofstream(path) << j.dump();
  return path;
}

// A validation that ends in a fault: exit 1, the side that faulted and where, no output compared.
void check_fault_verdict(const warpsim::test::CliResult& r, const std::string& fault_line,
                         const std::string& outputs_line) {
  INFO(r.out << r.err);
  CHECK(r.code == 1);
  CHECK(r.out.find(fault_line) != std::string::npos);
  CHECK(r.out.find(outputs_line) != std::string::npos);
  CHECK(r.out.find("verdict: FAULT") != std::string::npos);
}

}  // namespace

TEST_CASE("a replayed run that did what the simulator predicts validates as a match") {
  const auto path = write("replay-same.json", saved_from_simulator("divergent-loop", {}));
  const auto r = cli({"validate", "divergent-loop", "--replay", path});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("verdict: MATCH") != std::string::npos);
  CHECK(r.out.find("output out: 32 elements equal") != std::string::npos);
}

TEST_CASE("a mask that differs is listed with warp, basic block, pc and both masks, and exits 6") {
  auto saved = saved_from_simulator("divergent-loop", {});
  // The second entry of the loop block (B1) by warp 0: pretend lane 0 was missing.
  auto& events = saved["launches"][0]["warps"][0]["events"];
  int seen = 0;
  for (auto& e : events)
    if (e[0] == 1 && seen++ == 1) e[1] = e[1].get<std::uint64_t>() & ~1ull;
  const auto path = write("replay-doctored.json", saved);
  const auto r = cli({"validate", "divergent-loop", "--replay", path});
  CHECK(r.code == 6);
  CHECK(r.out.find("block 0 warp 0 B1 loop (pc 5, line 14) entry 2: predicted 0xffffffff measured 0xfffffffe") !=
        std::string::npos);
  CHECK(r.out.find("verdict: MISMATCH") != std::string::npos);
  const auto j = cli({"validate", "divergent-loop", "--replay", path, "--format", "json"});
  const auto parsed = nlohmann::json::parse(j.out);
  REQUIRE(parsed["launches"][0]["mismatches"].size() == 1);
  CHECK(parsed["launches"][0]["mismatches"][0]["pc"] == 5);
  CHECK(parsed["match"] == false);
}

TEST_CASE("an output that differs makes the validation fail even when every mask agrees") {
  auto saved = saved_from_simulator("vecadd", {{"n", 100}});
  auto hex = saved["outputs"][0]["hex"].get<std::string>();
  hex[6] = hex[6] == '0' ? '1' : '0';  // the exponent byte of element 0 (little-endian)
  saved["outputs"][0]["hex"] = hex;
  const auto r = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-output.json", saved)});
  CHECK(r.code == 6);
  CHECK(r.out.find("output c: 1 of 100 elements DIFFER (first at element 0)") != std::string::npos);
}

TEST_CASE("a replayed run shows its measured time and the spread of its timed launches beside the prediction") {
  auto saved = saved_from_simulator("vecadd", {{"n", 100}});
  saved["launches"][0]["kernel_ms"] = 0.0042;
  saved["launches"][0]["kernel_ms_range"] = {0.0040, 0.0051};
  const auto r = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-spread.json", saved)});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("0.0042") != std::string::npos);
  CHECK(r.out.find("0.0040-0.0051") != std::string::npos);
  CHECK(r.out.find("time error (predicted / measured - 1)") != std::string::npos);
  // A recording from before stop 20 has no range: no spread line, the rest as before.
  saved["launches"][0].erase("kernel_ms_range");
  const auto old = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-nospread.json", saved)});
  CHECK(old.code == 0);
  CHECK(old.out.find("measured spread") == std::string::npos);
}

TEST_CASE("a replay recorded with other parameters is refused") {
  const auto path = write("replay-params.json", saved_from_simulator("vecadd", {{"n", 100}}));
  const auto r = cli({"validate", "vecadd", "--set", "n=200", "--replay", path});
  CHECK(r.code == 1);
  CHECK(r.err.find("was recorded with parameters") != std::string::npos);
}

TEST_CASE("validate without a GPU and without a replay says so and exits 4") {
  const auto r = cli({"validate", "vecadd"});
  if (r.code == 0 || r.code == 6) {
    WARN("a GPU is present: validate ran on it");
    return;
  }
  CHECK(r.code == 4);
}

TEST_CASE("ncu's csv output is read metric by metric for the first kernel") {
  const std::string csv =
      "==PROF== Connected to process 1\n"
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"1\",\"vecadd\",\"smsp__warps_launched.sum\",\"warp\",\"32\"\n"
      "\"0\",\"1\",\"vecadd\",\"smsp__thread_inst_executed_per_inst_executed.ratio\",\"\",\"31,50\"\n"
      "\"1\",\"1\",\"vecadd\",\"smsp__warps_launched.sum\",\"warp\",\"64\"\n";
  const auto m = warpsim::cli::parse_ncu_csv(csv);
  CHECK(m["smsp__warps_launched.sum"] == "32");
  CHECK(m["smsp__thread_inst_executed_per_inst_executed.ratio"] == "31,50");
}

TEST_CASE("runs recorded on an H100 replay as a match against today's simulator") {
  std::size_t replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(WARPSIM_TEST_DATA_DIR) + "/h100")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const auto saved = nlohmann::json::parse(in);
    std::vector<std::string> args{"validate", saved["target"].get<std::string>(), "--replay", entry.path().string()};
    for (const auto& [k, v] : saved["params"].items()) {
      args.push_back("--set");
      args.push_back(k + "=" + v.get<std::string>());
    }
    const auto r = cli(args);
    INFO(entry.path().filename().string() << "\n" << r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("measured on NVIDIA H100") != std::string::npos);
    ++replayed;
  }
  CHECK(replayed >= 10);
}

TEST_CASE("a saved run describing warps the launch cannot have is refused as bad input") {
  auto saved = saved_from_simulator("vecadd", {{"n", 100}});
  SECTION("a grid of zero blocks") {
    saved["launches"][0]["grid"] = {0, 1, 1};
    const auto r = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-grid0.json", saved)});
    CHECK(r.code == 1);
    CHECK(r.err.find("saved run: launch 1 has grid") != std::string::npos);
  }
  SECTION("lanes the block does not have") {
    saved["launches"][0]["warps"][0]["lanes"] = ~0ull;
    const auto r = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-lanes.json", saved)});
    CHECK(r.code == 1);
    CHECK(r.err.find("has no warp 0 of block 0") != std::string::npos);
  }
  SECTION("not an object") {
    const auto r = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-array.json", nlohmann::json::array())});
    CHECK(r.code == 1);
    CHECK(r.err.find("is not a JSON object") != std::string::npos);
  }
}

TEST_CASE("the control-flow corpus recorded on an H100 replays with the scores of docs/validation/reconvergence.md") {
  const std::string dir = std::string(WARPSIM_TEST_DATA_DIR) + "/h100/control/";
  std::ifstream expected(dir + "expected.txt");
  std::string line;
  std::size_t replayed = 0;
  while (std::getline(expected, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string name, model, equal, compared;
    fields >> name >> model >> equal >> compared;
    std::ifstream in(dir + name + ".json");
    const auto saved = nlohmann::json::parse(in);
    std::vector<std::string> args{"validate", saved["target"].get<std::string>(), "--replay", dir + name + ".json",
                                  "--reconvergence", model, "--max-instructions", "2000000"};
    for (const auto& [k, v] : saved["params"].items()) {
      args.push_back("--set");
      args.push_back(k + "=" + v.get<std::string>());
    }
    const auto r = cli(args);
    INFO(line << "\n" << r.out << r.err);
    if (equal == "error") {
      CHECK(r.code == 1);
    } else {
      CHECK(r.out.find("masks: " + equal + " of " + compared + " block entries equal") != std::string::npos);
      CHECK(r.code == (equal == compared ? 0 : 6));
    }
    ++replayed;
  }
  CHECK(replayed >= 150);
}

TEST_CASE("validate reports the launches before a simulator fault, names the fault and exits 1") {
  // The scenario's second launch reads past the end of a short buffer: the simulator faults there,
  // the GPU (here a stand-in: the first launch's recording, repeated) ran both launches.
  const std::string path = std::string(WARPSIM_TEST_DATA_DIR) + "/scenarios/fault.json";
  const auto scenario = warpsim::kernels::load_scenario_file(path);
  warpsim::sim::Gpu gpu;
  warpsim::kernels::RunOptions options;
  options.record_trace = true;
  std::shared_ptr<warpsim::kernels::Outcome> partial;
  try {
    scenario->run(gpu, warpsim::kernels::resolve_params(*scenario, {}), options);
  } catch (const warpsim::kernels::FaultedRun& fault) {
    partial = fault.outcome;
  }
  REQUIRE(partial);
  REQUIRE(partial->launches.size() == 1);
  partial->fault.reset();
  auto saved = warpsim::validation::save_measured(*partial, "simulated stand-in");
  saved["launches"].push_back(saved["launches"][0]);
  saved["target"] = path;
  const auto r = cli({"validate", path, "--replay", write("replay-sim-fault.json", saved)});
  INFO(r.out << r.err);
  check_fault_verdict(r, "simulator: FAULT in launch 2 (kernel affine, grid 2, block 32): block (0,0,0) warp 0 lane 8",
                      "outputs: not compared (the simulator's run faulted); launches compared: 1");
  CHECK(r.out.find("launch 1: kernel affine") != std::string::npos);
  CHECK(r.out.find("active masks: 8 of 8 block entries equal; 2 of 2 warps identical") != std::string::npos);
  CHECK(r.out.find("launch 2:") == std::string::npos);
  CHECK(r.err.find("warpsim: error: the simulator: kernel 'affine' block (0,0,0) warp 0 lane 8") != std::string::npos);
  const auto j = cli({"validate", path, "--replay", write("replay-sim-fault.json", saved), "--format", "json"});
  CHECK(j.code == 1);
  const auto parsed = nlohmann::json::parse(j.out);
  CHECK(parsed["faults"]["predicted"]["launch"] == 2);
  CHECK(parsed["faults"]["predicted"]["site"]["lane"] == 8);
  CHECK(parsed["faults"]["measured"].is_null());
  CHECK(parsed["launches"].size() == 1);
  CHECK(parsed["outputs"].empty());
  CHECK(parsed["match"] == false);
}

TEST_CASE("a hardware run saved with its fault replays as a fault of the hardware") {
  auto saved = saved_from_simulator("vecadd", {{"n", 100}});
  saved["launches"] = nlohmann::json::array();
  saved["outputs"] = nlohmann::json::array();
  saved["fault"] = {{"message", "an illegal memory access was encountered"}, {"launch", 1}, {"kernel", "vecadd"},
                    {"grid", {1, 1, 1}}, {"block", {128, 1, 1}}};
  const auto r = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-gpu-fault.json", saved)});
  INFO(r.out << r.err);
  check_fault_verdict(r, "hardware: FAULT in launch 1 (kernel vecadd, grid 1, block 128): an illegal memory access was encountered",
                      "outputs: not compared (the hardware's run faulted); launches compared: 0");
  SECTION("a fault that does not follow the completed launches is refused") {
    saved["fault"]["launch"] = 3;
    const auto bad = cli({"validate", "vecadd", "--set", "n=100", "--replay", write("replay-gpu-fault-bad.json", saved)});
    CHECK(bad.code == 1);
    CHECK(bad.err.find("the fault is in launch 3 but 0 launch(es) completed before it") != std::string::npos);
  }
}

TEST_CASE("validate says which build the GPU timed, from the run and from a saved one") {
  auto saved = saved_from_simulator("divergent-loop", {});
  saved["launches"][0]["kernel_ms"] = 0.5;  // a timed hardware launch
  CHECK(saved["launches"][0].at("timed_build") == "");  // the simulator timed no build
  saved["launches"][0]["timed_build"] = "source";
  const auto r = cli({"validate", "divergent-loop", "--replay", write("replay-build.json", saved)});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  const auto row = r.out.find("timed build");
  REQUIRE(row != std::string::npos);
  CHECK(r.out.substr(row, r.out.find('\n', row) - row).find("source") != std::string::npos);
  const auto j = cli({"validate", "divergent-loop", "--replay", write("replay-build.json", saved), "--format", "json"});
  CHECK(nlohmann::json::parse(j.out).at("launches").at(0).at("measured").at("timed_build") == "source");
  // A run saved before stop 37 has no such key: not recorded.
  saved["launches"][0].erase("timed_build");
  const auto old = cli({"validate", "divergent-loop", "--replay", write("replay-build-old.json", saved)});
  CHECK(old.code == 0);
  CHECK(old.out.find("not recorded") != std::string::npos);
}
