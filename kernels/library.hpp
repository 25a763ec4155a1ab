// The textbook kernels compiled into the binary, and loading a kernel ready to launch.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/analysis.hpp"
#include "isa/module.hpp"

namespace warpsim::kernels {

struct EmbeddedFile {
  std::string_view name;  // "vecadd.kir"
  std::string_view text;
};
std::span<const EmbeddedFile> embedded_files();

// A parsed, verified and analysed kernel. Addresses stay valid while the object lives.
struct LoadedKernel {
  std::string file;
  std::string text;
  isa::Module module;
  const isa::Kernel* kernel = nullptr;
  isa::KernelAnalysis analysis;
  // An imported kernel as its author builds it: the PTX it was imported from (NVRTC's from the
  // source, for a .cu file) and its entry's name there. A GPU times this build, not the CUDA the
  // emitter writes from the IR (docs/cuda-frontend.md, "On a GPU"). Empty for a .kir kernel.
  std::string native_ptx;
  std::string native_entry;
};

// Parses, verifies and analyses `text`; picks `kernel_name` (or the only kernel when empty).
// Throws warpsim::Error with every diagnostic when the text has errors.
std::unique_ptr<LoadedKernel> load_kernel(std::string text, std::string file, std::string_view kernel_name = {});
// The same for a kernel file on disk: .kir, or .cu and .ptx through the CUDA front end
// (frontend/; `nvrtc_options` after warpsim's own for a .cu file).
std::unique_ptr<LoadedKernel> load_kernel_file(const std::string& path, std::string_view kernel_name = {},
                                               const std::vector<std::string>& nvrtc_options = {});
std::unique_ptr<LoadedKernel> load_embedded(std::string_view name, std::string_view kernel_name = {});

}  // namespace warpsim::kernels
