#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuda/emitter.hpp"
#include "kir.hpp"

using namespace warpsim;

namespace {
std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("dump emitted kernels", "[.dump]") {
  for (const auto& entry : std::filesystem::directory_iterator(WARPSIM_KERNELS_DIR)) {
    if (entry.path().extension() != ".kir") continue;
    auto m = test::parse_kir(read_file(entry.path()), entry.path().string());
    for (auto mode : {cuda::EmitMode::Plain, cuda::EmitMode::Instrumented}) {
      std::ofstream out("/tmp/ws_" + entry.path().stem().string() + (mode == cuda::EmitMode::Plain ? "_plain" : "_instr") + ".cu");
      out << cuda::emit_cuda(m.module, m.analyses, mode);
    }
  }
}
