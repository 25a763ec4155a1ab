#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "all_opcodes.hpp"
#include "cuda/emitter.hpp"
#include "cuda/nvrtc.hpp"
#include "kir.hpp"

using namespace warpsim;
using cuda::EmitMode;

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Compiles a module's CUDA for sm_90 in both modes (or plain only: calibrate times its
// microbenchmarks uninstrumented) and checks NVRTC accepts it.
void check_compiles(const cuda::Nvrtc& nvrtc, const test::ParsedModule& m, const std::string& what,
                    bool plain_only = false) {
  for (auto mode : {EmitMode::Plain, EmitMode::Instrumented}) {
    if (plain_only && mode != EmitMode::Plain) continue;
    const std::string source = cuda::emit_cuda(m.module, m.analyses, mode);
    const auto result = nvrtc.compile(source, "sm_90", cuda::default_nvrtc_options(), what + ".cu");
    INFO(what << (mode == EmitMode::Plain ? " (plain)" : " (instrumented)") << "\n" << result.log << "\n" << source);
    CHECK(result.ok);
    CHECK(result.image.size() > 0);
  }
}

}  // namespace

TEST_CASE("the CUDA emitted for every kernel in kernels/ compiles with NVRTC for sm_90", "[cuda][nvrtc]") {
  cuda::Nvrtc nvrtc;
  if (auto reason = nvrtc.unavailable_reason()) {
    WARN("skipped: " << *reason);
    return;
  }
  int files = 0;
  // kernels/ and its folders but microbench/ (below).
  for (const auto& entry : std::filesystem::recursive_directory_iterator(WARPSIM_KERNELS_DIR)) {
    if (entry.path().extension() != ".kir" || entry.path().parent_path().filename() == "microbench") continue;
    ++files;
    check_compiles(nvrtc, test::parse_kir(read_file(entry.path()), entry.path().string()), entry.path().stem().string());
  }
  if (files == 0) WARN("no .kir files in " WARPSIM_KERNELS_DIR " yet");
}

TEST_CASE("the CUDA emitted for calibrate's microbenchmarks compiles with NVRTC for sm_90", "[cuda][nvrtc]") {
  // Only the device machine runs them: a kernel that does not compile fails here, not after a
  // device call's start (stop 35).
  cuda::Nvrtc nvrtc;
  if (auto reason = nvrtc.unavailable_reason()) {
    WARN("skipped: " << *reason);
    return;
  }
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(WARPSIM_KERNELS_DIR) + "/microbench")) {
    if (entry.path().extension() != ".kir") continue;
    ++files;
    check_compiles(nvrtc, test::parse_kir(read_file(entry.path()), entry.path().string()), entry.path().stem().string(),
                   true);
  }
  CHECK(files > 20);
}

TEST_CASE("the CUDA emitted for a kernel using every opcode compiles with NVRTC", "[cuda][nvrtc]") {
  cuda::Nvrtc nvrtc;
  if (auto reason = nvrtc.unavailable_reason()) {
    WARN("skipped: " << *reason);
    return;
  }
  check_compiles(nvrtc, test::parse_kir(test::kAllOpcodesKir), "all_opcodes");
}

TEST_CASE("NVRTC's log comes back when a source does not compile", "[cuda][nvrtc]") {
  cuda::Nvrtc nvrtc;
  if (auto reason = nvrtc.unavailable_reason()) {
    WARN("skipped: " << *reason);
    return;
  }
  const auto result = nvrtc.compile("extern \"C\" __global__ void broken() { undeclared = 1; }", "sm_90");
  CHECK_FALSE(result.ok);
  CHECK_THAT(result.log, Catch::Contains("undeclared"));
}

// Not run by default: writes the CUDA of every kernel in kernels/ to $WARPSIM_CUDA_DUMP (or /tmp)
// as NAME_plain.cu and NAME_instrumented.cu, for nvcc/cuobjdump (docs/cuda.md).
TEST_CASE("dump the emitted CUDA of every kernel", "[.dump]") {
  const char* dir = std::getenv("WARPSIM_CUDA_DUMP");
  const std::filesystem::path out_dir = dir ? dir : "/tmp";
  for (const auto& entry : std::filesystem::directory_iterator(WARPSIM_KERNELS_DIR)) {
    if (entry.path().extension() != ".kir") continue;
    auto m = test::parse_kir(read_file(entry.path()), entry.path().string());
    for (auto mode : {EmitMode::Plain, EmitMode::Instrumented}) {
      std::ofstream out(out_dir / (entry.path().stem().string() + (mode == EmitMode::Plain ? "_plain.cu" : "_instrumented.cu")));
      out << cuda::emit_cuda(m.module, m.analyses, mode);
    }
  }
}
