// Random structured kernels (fuzz/structured.hpp) against the per-thread reference interpreter
// (fuzz/reference.hpp): every output word must match, on one and two host threads, functionally
// and in the timing model, under every reconvergence model. The reports must agree too: byte for
// byte across thread counts, in every functional figure across modes, and in everything but the
// divergence figures across reconvergence models. WARPSIM_FUZZ_KERNELS sets how many (default 3000).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <functional>
#include <memory>
#include <set>
#include <span>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "device/errors.hpp"
#include "fuzz/reference.hpp"
#include "fuzz/structured.hpp"
#include "isa/analysis.hpp"
#include "isa/parser.hpp"
#include "isa/verifier.hpp"
#include "sim/gpu.hpp"
#include "sim/reconvergence.hpp"
#include "tools/report/report.hpp"

using namespace warpsim;

namespace {

struct Compiled {
  isa::Module module;
  isa::KernelAnalysis analysis;
};

std::unique_ptr<Compiled> compile(const std::string& text) {
  auto parsed = isa::parse(text, "generated.kir");
  std::string messages;
  for (const auto& d : parsed.diagnostics) messages += d.format();
  if (parsed.ok()) {
    for (const auto& d : isa::verify(parsed.module, text)) messages += d.format();
  }
  INFO(text);
  INFO(messages);
  REQUIRE(messages.empty());
  auto c = std::make_unique<Compiled>();
  c->module = std::move(parsed.module);
  c->analysis = isa::analyze(c->module.kernels.front());
  return c;
}

struct Run {
  fuzz::Buffers buffers;
  nlohmann::json report;
};

Run run_on(sim::Gpu& gpu, const Compiled& c, const fuzz::Program& p, const std::string& text,
           const fuzz::Buffers& initial) {
  auto upload = [&](const std::vector<std::uint32_t>& words, const char* label) {
    const std::uint64_t a = gpu.allocate(words.size() * 4, label);
    gpu.write(a, std::as_bytes(std::span(words)));
    return a;
  };
  LaunchSpec spec;
  spec.kernel = &c.module.kernels.front();
  spec.analysis = &c.analysis;
  spec.file = "generated.kir";
  spec.source_text = text;
  spec.grid = {p.blocks, 1, 1};
  spec.block = {p.block_threads, 1, 1};
  spec.warps.mode = WarpSelection::Mode::All;
  spec.args = {upload(initial.input, "input"), upload(initial.out, "out"), upload(initial.regs, "regs"),
               upload(initial.counters, "counters")};
  Run run;
  run.buffers = initial;
  const LaunchResult result = gpu.launch(spec);
  auto download = [&](std::vector<std::uint32_t>& words, std::uint64_t address) {
    gpu.read(address, std::as_writable_bytes(std::span(words)));
  };
  download(run.buffers.out, spec.args[1]);
  download(run.buffers.regs, spec.args[2]);
  download(run.buffers.counters, spec.args[3]);
  run.report = report::to_json(result.stats);
  return run;
}

void same_words(const char* what, const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) FAIL(fmt::format("{}[{}] is {:#x}, the reference says {:#x}", what, i, got[i], want[i]));
}

void same_results(const fuzz::Buffers& got, const fuzz::Buffers& want) {
  same_words("out", got.out, want.out);
  same_words("regs", got.regs, want.regs);
  same_words("counters", got.counters, want.counters);
}

// The report without what only the timing model measures.
nlohmann::json functional_figures(nlohmann::json j) {
  for (const char* key : {"timing", "timed", "cycles"}) j.erase(key);
  for (auto& w : j["warps"])
    for (const char* key : {"first_cycle", "last_cycle", "first_issue", "last_issue", "stalls", "sm", "sub_partition"}) w.erase(key);
  return j;
}

// The report without the figures a reconvergence model decides.
nlohmann::json model_independent(nlohmann::json j) {
  j = functional_figures(std::move(j));
  for (const char* key : {"branches", "divergent_warps", "warp_instructions", "idle_lane_slots",
                          "active_lanes_histogram", "simt_efficiency", "lane_slots", "warps", "instruction_mix",
                          "divergent_rounds", "passes", "path_order"})
    j.erase(key);
  return j;
}

// The keys where two reports differ ("warps/*/issued"), each once.
std::string differences(const nlohmann::json& a, const nlohmann::json& b) {
  std::set<std::string> paths;
  for (const auto& d : nlohmann::json::diff(a, b)) {
    std::string path = d["path"].get<std::string>(), out;
    for (std::size_t i = 0; i < path.size();) {
      const std::size_t j = path.find('/', i + 1);
      const std::string part = path.substr(i, j == std::string::npos ? std::string::npos : j - i);
      out += part.find_first_not_of("/0123456789") == std::string::npos ? "/*" : part;
      if (j == std::string::npos) break;
      i = j;
    }
    paths.insert(out);
  }
  std::string text;
  for (const auto& p : paths) text += (text.empty() ? "" : " ") + p;
  return text;
}

std::uint64_t kernel_count() {
  if (const char* n = std::getenv("WARPSIM_FUZZ_KERNELS")) return std::strtoull(n, nullptr, 10);
  return 3000;
}


}  // namespace

namespace {

// Seeds first..last (one of four quarters of kernel_count(), each its own test case so that ctest
// runs them side by side).
void check_generated(std::uint64_t first, std::uint64_t last) {
  const auto models = sim::reconvergence_models();
  REQUIRE(models.size() >= 2);
  if (last < first) return;  // fewer kernels than quarters (WARPSIM_FUZZ_KERNELS < 4)
  const std::uint64_t count = last - first + 1;
  std::uint64_t exchanges = 0, exits = 0;
  for (std::uint64_t seed = first; seed <= last; ++seed) {
    std::mt19937_64 rng(seed);
    const fuzz::Program program = fuzz::generate(rng);
    // Mostly 32-lane warps; every fourth kernel a smaller warp (partial warps, shuffles near the edge).
    const std::uint32_t warp_size = seed % 4 == 0 ? static_cast<std::uint32_t>(1 + rng() % 31) : 32;
    const std::string text = fuzz::to_kir(program);
    exchanges += text.find("bar.sync\n    add.u32 w") != std::string::npos;
    exits += text.find("exit\n") != text.rfind("exit\n") || text.find("@p ret") != std::string::npos;
    INFO(fmt::format("seed {} warp size {} grid {} block {}\n{}", seed, warp_size, program.blocks,
                     program.block_threads, text));
    const auto c = compile(text);
    fuzz::Buffers want = fuzz::initial_buffers(program, seed);
    const fuzz::Buffers initial = want;
    fuzz::run_reference(program, warp_size, want);

    auto config = [&](sim::Mode mode, std::uint32_t threads, sim::ReconvergenceModel model) {
      sim::Config cfg;
      cfg.mode = mode;
      cfg.threads = threads;
      cfg.reconvergence = model;
      cfg.warp_size = warp_size;
      return cfg;
    };
    nlohmann::json first_model;
    for (const auto model : models) {
      INFO("reconvergence " << sim::reconvergence_name(model));
      sim::Gpu one(config(sim::Mode::Functional, 1, model));
      const Run base = run_on(one, *c, program, text, initial);
      same_results(base.buffers, want);

      sim::Gpu two(config(sim::Mode::Functional, 2, model));
      const Run threaded = run_on(two, *c, program, text, initial);
      same_results(threaded.buffers, base.buffers);
      INFO("2 threads against 1: " << differences(base.report, threaded.report));
      CHECK(threaded.report == base.report);

      // The timing model is slower: every eighth kernel (whose block fits on one SM of the h100).
      if (seed % 8 == 0 && (program.block_threads + warp_size - 1) / warp_size <= 32) {
        sim::Gpu timed(config(sim::Mode::Timing, 1, model));
        const Run t = run_on(timed, *c, program, text, initial);
        same_results(t.buffers, base.buffers);
        const auto a = functional_figures(t.report), b = functional_figures(base.report);
        INFO("timing against functional: " << differences(b, a));
        CHECK(a == b);
      }
      const auto figures = model_independent(base.report);
      if (first_model.is_null()) first_model = figures;
      INFO("against " << sim::reconvergence_name(models[0]) << ": " << differences(first_model, figures));
      CHECK(figures == first_model);
    }
  }
  // The generator must reach the interesting shapes, or the comparison proves little.
  CHECK(exchanges > count / 20);
  CHECK(exits > count / 20);
}

// Quarter q (0-3) of the seeds 1..kernel_count().
void check_quarter(std::uint64_t q) {
  const std::uint64_t count = kernel_count();
  check_generated(1 + count * q / 4, count * (q + 1) / 4);
}

}  // namespace

TEST_CASE("generated kernels match the per-thread reference across threads, modes and reconvergence models (first quarter)") {
  check_quarter(0);
}
TEST_CASE("generated kernels match the per-thread reference across threads, modes and reconvergence models (second quarter)") {
  check_quarter(1);
}
TEST_CASE("generated kernels match the per-thread reference across threads, modes and reconvergence models (third quarter)") {
  check_quarter(2);
}
TEST_CASE("generated kernels match the per-thread reference across threads, modes and reconvergence models (fourth quarter)") {
  check_quarter(3);
}
