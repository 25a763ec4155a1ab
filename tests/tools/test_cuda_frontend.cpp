// The CUDA front end: .cu and .ptx files imported, run on the simulator and checked against host
// references; names, lines and errors as docs/cuda-frontend.md describes them.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cuda/nvrtc.hpp"
#include "device/errors.hpp"
#include "frontend/import.hpp"
#include "sim/gpu.hpp"
#include "tests/tools/cli_helpers.hpp"
#include "tests/tools/file_run_helpers.hpp"
#include "tools/file_run.hpp"

namespace {

using warpsim::test::cuda_data;
using warpsim::test::run_file;


bool nvrtc_available() { return !warpsim::cuda::Nvrtc().unavailable_reason(); }

// A C++ template kernel's PTX: its entry is the mangled name of addk<float>.
const char* const kAddkPtx =
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry _Z4addkIfEvPT_S0_(\n .param .u64 p0,\n"
      " .param .f32 p1\n)\n{\n ret;\n}\n";

std::vector<float> floats(const warpsim::kernels::OutputBuffer& b) {
  std::vector<float> v(b.bytes.size() / 4);
  std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
  return v;
}

const warpsim::kernels::OutputBuffer& output(const warpsim::kernels::Outcome& o, const std::string& name) {
  for (const auto& b : o.outputs)
    if (b.label == name) return b;
  FAIL("no output " << name);
  return o.outputs.front();
}


}  // namespace

TEST_CASE("an imported kernel keeps its CUDA parameter names and the CUDA line of each instruction") {
  const auto imported = warpsim::frontend::import_file(cuda_data("saxpy.ptx"), {});
  CHECK(imported.kernel == "saxpy");
  CHECK(imported.kir.find("kernel saxpy(s32 n, f32 a, ptr.f32 x, ptr.f32 y) {") != std::string::npos);
  CHECK(imported.kir.find("file 1 \"saxpy.cu\"") != std::string::npos);
  CHECK(imported.kir.find("loc 1 5") != std::string::npos);  // y[i] = a * x[i] + y[i];
}

TEST_CASE("saxpy.ptx runs on the simulator and matches the host reference, and branch rows name saxpy.cu") {
  const int n = 1000;
  const auto out = run_file(cuda_data("saxpy.ptx"), {4, 1, 1}, {256, 1, 1}, {{"n", "1000"}, {"a", "2.5"}},
                       {"x=f32[1024]:iota", "y=f32[1024]:const:1.5"});
  const auto y = floats(output(out, "y"));
  for (int i = 0; i < 1024; ++i) {
    const float expected = i < n ? 2.5f * float(i) + 1.5f : 1.5f;
    REQUIRE(y[static_cast<std::size_t>(i)] == expected);
  }
  const auto& branches = out.launches.at(0).result.stats.branches;
  REQUIRE(branches.size() == 1);
  CHECK(branches[0].source == "saxpy.cu:4");
  CHECK(branches[0].divergent_executions == 1);  // the warp holding i = 999 and 1000
}

TEST_CASE("the textbook kernels in CUDA C give the .kir scenarios' results and divergence") {
  SECTION("vector add: one warp of 32 diverges at n = 1003") {
    const auto out = run_file(cuda_data("vecadd.ptx"), {16, 1, 1}, {64, 1, 1}, {{"n", "1003"}},
                         {"a=f32[1024]:iota", "b=f32[1024]:const:0.5", "c=f32[1024]:zeros"});
    const auto c = floats(output(out, "c"));
    for (std::size_t i = 0; i < 1024; ++i) REQUIRE(c[i] == (i < 1003 ? float(i) + 0.5f : 0.0f));
    const auto& b = out.launches.at(0).result.stats.branches;
    REQUIRE(b.size() == 1);
    CHECK(b[0].executions == 32);
    CHECK(b[0].divergent_executions == 1);
  }
  SECTION("divergent loop: trips 6 + t % 3") {
    const auto out = run_file(cuda_data("divergent_loop.ptx"), {2, 1, 1}, {64, 1, 1}, {}, {"out=u32[128]:zeros"});
    const auto& bytes = output(out, "out").bytes;
    for (std::uint32_t t = 0; t < 128; ++t) {
      std::uint32_t v = 0;
      std::memcpy(&v, bytes.data() + 4 * t, 4);
      const std::uint32_t trips = t % 3 + 6;
      REQUIRE(v == trips * (trips - 1) / 2);
    }
  }
  SECTION("reductions: one block sums 512 values") {
    for (const char* file : {"reduce_fig5_13.ptx", "reduce_fig5_15.ptx"}) {
      const auto out = run_file(cuda_data(file), {1, 1, 1}, {256, 1, 1}, {}, {"input=f32[512]:const:1", "output=f32[1]:zeros"});
      CHECK(floats(output(out, "output"))[0] == 512.0f);
    }
  }
}

TEST_CASE("everyday kernels: a warp-shuffle sum") {
  const auto out = run_file(cuda_data("warp_sum.ptx"), {4, 1, 1}, {128, 1, 1}, {{"n", "500"}},
                       {"in=f32[512]:const:0.5", "total=f32[1]:zeros"});
  CHECK(floats(output(out, "total"))[0] == 250.0f);
}

TEST_CASE("a scenario file's launch may name a .ptx or .cu kernel: run, sweep and bench take it") {
  // vecadd.ptx needs no NVRTC; its parameters have the CUDA names of vecadd.cu beside it.
  nlohmann::json scenario;
  scenario["name"] = "vecadd-ptx";
  scenario["params"]["n"] = {{"default", 1003}, {"min", 1}, {"max", 4096}, {"help", "elements"}};
  for (const char* name : {"a", "b"}) scenario["buffers"][name] = {{"type", "f32"}, {"count", "n"}, {"init", "iota"}};
  scenario["buffers"]["c"] = {{"type", "f32"}, {"count", "n"}};
  scenario["launches"] = {{{"kernel", cuda_data("vecadd.ptx")},
                           {"grid", "cdiv(n, 64)"},
                           {"block", 64},
                           {"args", {{"a", "a"}, {"b", "b"}, {"c", "c"}, {"n", "n"}}}}};
  scenario["expect"] = {{{"buffer", "c"}, {"index", 99}, {"equals", {{"value", 198}}}}};
  const auto json = warpsim::test::write_temp("vecadd-ptx.json", scenario.dump());
  const auto run = warpsim::test::cli({"run", json, "--mode", "functional", "--format", "json"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  const auto report = nlohmann::json::parse(run.out);
  CHECK(report.dump().find("\"source\":\"vecadd.cu:4\"") != std::string::npos);
  const auto sweep = warpsim::test::cli({"sweep", json, "--set", "n=100,1003", "--mode", "functional"});
  INFO(sweep.out << sweep.err);
  CHECK(sweep.code == 0);
  CHECK(sweep.out.find("2 point(s)") != std::string::npos);
  const auto bench = warpsim::test::cli({"bench", json, "--mode", "functional", "--format", "json"});
  INFO(bench.err);
  CHECK(bench.code == 0);
  CHECK(nlohmann::json::parse(bench.out).at(0).at("thread_instructions").get<std::uint64_t>() > 0);
}

TEST_CASE("emit-cuda, check and print read a .ptx file through the front end") {
  const auto emitted = warpsim::test::cli({"emit-cuda", cuda_data("vecadd.ptx")});
  CHECK(emitted.code == 0);
  CHECK(emitted.out.find("__global__") != std::string::npos);
  const auto checked = warpsim::test::cli({"check", cuda_data("vecadd.ptx")});
  CHECK(checked.code == 0);
  CHECK(checked.out == "1 file(s), 1 kernel(s): no errors\n");
  const auto printed = warpsim::test::cli({"print", cuda_data("vecadd.ptx")});
  CHECK(printed.code == 0);
  CHECK(printed.out.find("kernel vecadd(ptr.f32 a, ptr.f32 b, ptr.f32 c, u32 n) {") != std::string::npos);
}

TEST_CASE("unsupported PTX is refused with its line and construct, never run") {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n .param .u64 k_param_0\n)\n{\n"
      " .reg .b32 %r<3>;\n mov.u32 %r1, %tid.x;\n mul24.lo.u32 %r2, %r1, %r1;\n ret;\n}\n";
  try {
    warpsim::frontend::import_ptx(ptx, "k.ptx", "", {});
    FAIL("imported");
  } catch (const warpsim::Error& e) {
    CHECK(std::string(e.what()).find("k.ptx:10: error: unsupported PTX") != std::string::npos);
    CHECK(std::string(e.what()).find("mul24.lo.u32") != std::string::npos);
  }
}

TEST_CASE("a --kernel that is not there lists the kernels that are, by their C++ names") {
  const std::string ptx = kAddkPtx;
  warpsim::frontend::ImportOptions options;
  options.kernel = "addk<float>";
  CHECK(warpsim::frontend::import_ptx(ptx, "t.ptx", "", options).kernel == "_Z4addkIfEvPT_S0_");
  options.kernel = "addk";
  CHECK(warpsim::frontend::import_ptx(ptx, "t.ptx", "", options).kernel == "_Z4addkIfEvPT_S0_");
  options.kernel = "nope";
  try {
    warpsim::frontend::import_ptx(ptx, "t.ptx", "", options);
    FAIL("found");
  } catch (const warpsim::Error& e) {
    CHECK(e.code() == warpsim::ExitCode::Usage);
    CHECK(std::string(e.what()).find("addk<float> (_Z4addkIfEvPT_S0_)") != std::string::npos);
  }
}

TEST_CASE("each committed .ptx is what NVRTC makes of its .cu, and imports (where NVRTC is installed)") {
  if (!nvrtc_available()) {
    WARN("NVRTC not installed: the .cu files are not compiled here");
    return;
  }
  // Each committed .ptx, by the name of its .cu.
  const char* const kernels[] = {"saxpy",
                                 "vecadd",
                                 "divergent_loop",
                                 "reduce_fig5_13",
                                 "reduce_fig5_15",
                                 "warp_sum",
                                 "grey",
                                 "reduce_ece408_naive",
                                 "reduce_ece408_improved",
                                 "report_clocks",
                                 "matmul_tiled",
                                 "matmul_coarsened",
                                 "histogram",
                                 "transpose",
                                 "stencil1d",
                                 "scan_kogge_stone",
                                 "scan_brent_kung",
                                 "daxpy",
                                 "bitonic_step",
                                 "spmv_csr",
                                 "softmax_row",
                                 "bfs_frontier",
                                 "vecadd4",
                                 "local_sort",
                                 "warp_masked",
                                 "reduce_coarsened",
                                 "reduce_last_block",
                                 "matmul_naive"};
  for (const char* name : kernels) {
    const auto from_cu = warpsim::frontend::import_file(cuda_data(std::string(name) + ".cu"), {});
    std::ifstream committed(cuda_data(std::string(name) + ".ptx"));
    const std::string ptx((std::istreambuf_iterator<char>(committed)), std::istreambuf_iterator<char>());
    CHECK(from_cu.ptx == ptx);
  }
}

TEST_CASE("a .cu file that does not compile gives NVRTC's log with the line, exit 1") {
  if (!nvrtc_available()) return;
  const auto path = std::filesystem::temp_directory_path() / "warpsim-bad.cu";
  std::ofstream(path) << "extern \"C\" __global__ void k(int* p) {\n  p[0] = undeclared;\n}\n";
  const auto r = warpsim::test::cli({"import", path.string()});
  CHECK(r.code == 1);
  CHECK(r.err.find("warpsim-bad.cu(2)") != std::string::npos);
}

TEST_CASE("softmax_row recorded on an H100 replays with the 18 differing block entries of docs/validation/reconvergence.md") {
  if (!nvrtc_available()) {
    WARN("NVRTC not installed: the recording of softmax_row.cu is not replayed here");
    return;
  }
  // Recorded by docs/validation/h100/reconvergence/yield_probe.sh; its target names the .cu as the
  // repository root sees it, so the replay is pointed at this checkout's copy.
  const std::string cu = cuda_data("softmax_row.cu");
  auto saved = nlohmann::json::parse(warpsim::test::read_text(std::string(WARPSIM_TEST_DATA_DIR) +
                                                               "/h100/cuda/softmax_row-g3b128.json"));
  saved["target"] = cu;
  const auto replay = warpsim::test::write_temp("softmax-replay.json", saved.dump());
  for (const char* model : {"volta", "ipdom"}) {
    const auto r = warpsim::test::cli({"validate", cu, "--grid", "3", "--block", "128", "--arg", "cols=300", "--buffer",
                                       "in=f32[900]:random:8", "--buffer", "out=f32[900]:zeros", "--mode",
                                       "functional", "--reconvergence", std::string(model), "--replay", replay});
    INFO(model << "\n" << r.out << r.err);
    CHECK(r.code == 6);
    CHECK(r.out.find("output out: 900 elements equal") != std::string::npos);
    CHECK(r.out.find("active masks: 597 of 615 block entries equal; 9 of 12 warps identical") != std::string::npos);
  }
}

TEST_CASE("ptxas's register counts are read per kernel from its -v log") {
  const std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'saxpy' for 'sm_90'\n"
      "ptxas info    : Function properties for saxpy\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 10 registers, used 0 barriers, 380 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z4addkIfEvPT_S0_' for 'sm_90'\n"
      "ptxas info    : Used 1 register, used 0 barriers, 368 bytes cmem[0]\n";
  const auto counts = warpsim::frontend::parse_ptxas_registers(log);
  CHECK(counts.size() == 2);
  CHECK(counts.at("saxpy") == 10);
  CHECK(counts.at("_Z4addkIfEvPT_S0_") == 1);
  CHECK(warpsim::frontend::parse_ptxas_registers("no ptxas here\n").empty());
}

TEST_CASE("a .cu kernel is timed with ptxas's register count, a .ptx kernel with the IR's (where NVRTC is installed)") {
  if (!nvrtc_available()) {
    WARN("NVRTC not installed: no ptxas register count here");
    return;
  }
  const auto imported = warpsim::frontend::import_file(cuda_data("local_sort.cu"), {});
  REQUIRE(imported.ptxas_registers.count("local_sort") == 1);
  const std::uint32_t ptxas = imported.ptxas_registers.at("local_sort");
  CHECK(ptxas > 0);
  const auto from_cu = warpsim::cli::load_kernel_file(cuda_data("local_sort.cu"), "", {});
  const auto from_ptx = warpsim::cli::load_kernel_file(cuda_data("local_sort.ptx"), "", {});
  CHECK(from_cu->analysis.registers_per_thread == ptxas);
  CHECK(from_ptx->analysis.registers_per_thread == warpsim::isa::analyze(*from_ptx->kernel).registers_per_thread);
  // The two differ for this kernel (ptxas allocates 30, the IR's liveness peak is 20 at this stop),
  // so the test can tell which one was used.
  CHECK(from_cu->analysis.registers_per_thread != from_ptx->analysis.registers_per_thread);
}

namespace {

// The simulator, keeping the build a GPU backend would time for each launch.
class BuildRecordingDevice final : public warpsim::test::SimDevice {
 public:
  warpsim::LaunchResult launch(const warpsim::LaunchSpec& spec) override {
    ptx.push_back(spec.native_ptx != nullptr ? *spec.native_ptx : std::string());
    entries.push_back(spec.native_entry);
    return SimDevice::launch(spec);
  }
  std::vector<std::string> ptx, entries;
};

}  // namespace

TEST_CASE("an imported kernel's launch carries its own PTX and entry for a GPU to time, and a .kir kernel's carries none") {
  // A C++ kernel: its PTX entry is the mangled name.
  const std::string ptx = kAddkPtx;
  warpsim::frontend::ImportOptions options;
  options.kernel = "addk";
  const auto imported = warpsim::frontend::import_ptx(ptx, "t.ptx", "", options);
  REQUIRE(imported.ptx_entries.count(imported.kernel) == 1);
  CHECK(imported.ptx_entries.at(imported.kernel) == "_Z4addkIfEvPT_S0_");
  CHECK(imported.ptx == ptx);

  // A .ptx file: the launch's build is the file itself, entry saxpy.
  warpsim::cli::FileRun run;
  run.path = cuda_data("saxpy.ptx");
  run.grid = {1, 1, 1};
  run.block = {32, 1, 1};
  const auto loaded = warpsim::cli::load_kernel_file(run.path, "", {});
  CHECK(loaded->native_ptx == warpsim::test::read_text(run.path));
  CHECK(loaded->native_entry == "saxpy");
  run.args = {{"n", "32"}, {"a", "2"}};
  for (const char* b : {"x=f32[32]:iota", "y=f32[32]:zeros"}) run.buffers.push_back(warpsim::cli::parse_buffer_spec(b));
  BuildRecordingDevice device;
  warpsim::cli::run_file(device, run, {});
  REQUIRE(device.ptx.size() == 1);
  CHECK(device.ptx[0] == warpsim::test::read_text(run.path));
  CHECK(device.entries[0] == "saxpy");

  // A .kir kernel has no build but the emitted one.
  const auto kir = warpsim::kernels::load_embedded("gray.kir");
  CHECK(kir->native_ptx.empty());
  CHECK(kir->native_entry.empty());
}

TEST_CASE("the option --gpu-build takes source or emitted, and only with --backend cuda") {
  using warpsim::test::cli;
  auto refused = [](const warpsim::test::CliResult& r, const char* why) {
    CHECK(r.code == 2);
    CHECK(r.err.find(why) != std::string::npos);
  };
  refused(cli({"run", "vecadd", "--gpu-build", "emitted"}), "--gpu-build: a setting of --backend cuda");
  refused(cli({"run", "vecadd", "--gpu-build", "source"}), "--gpu-build: a setting of --backend cuda");  // given
  refused(cli({"run", "vecadd", "--backend", "cuda", "--gpu-build", "nvcc"}), "--gpu-build: unknown value 'nvcc'");
  refused(cli({"validate", "vecadd", "--gpu-build", "nvcc", "--replay", "/nonexistent"}),
          "--gpu-build: unknown value 'nvcc'");
  // Accepted values get past the option: the replay file is what fails (1), or the GPU is absent (4).
  CHECK(cli({"validate", "vecadd", "--gpu-build", "emitted", "--replay", "/nonexistent"}).code == 1);
  for (const char* build : {"source", "emitted"}) {
    const auto r = cli({"run", "vecadd", "--backend", "cuda", "--gpu-build", build});
    if (r.code == 0) {
      WARN("a GPU is present: the cuda backend ran");
      CHECK(r.out.find("compiled for the GPU (the emitted build, timed)") != std::string::npos);  // a .kir kernel
      continue;
    }
    CHECK(r.code == 4);
  }
}
