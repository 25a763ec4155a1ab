// NVRTC, loaded at run time: CUDA C++ source -> CUBIN for one GPU architecture. No CUDA header is
// included; the few prototypes used are declared here (cuda.h/nvrtc.h compatible).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuda/library.hpp"

namespace warpsim::cuda {

struct CompileResult {
  bool ok = false;
  std::string image;  // CUBIN when ok
  std::string log;    // NVRTC's log (warnings; the errors when !ok)
};

class Nvrtc {
 public:
  // Opens libnvrtc (libnvrtc.so, .so.13, .so.12, then under /usr/local/cuda/lib64); check
  // unavailable_reason() before compiling.
  Nvrtc();
  ~Nvrtc();
  std::optional<std::string> unavailable_reason() const { return reason_; }
  std::string version() const;  // "13.0"

  // arch: "sm_90"; options: extra NVRTC options. Throws Error when NVRTC is unavailable.
  CompileResult compile(const std::string& source, const std::string& arch,
                        const std::vector<std::string>& options = {},
                        const std::string& name = "warpsim.cu") const;
  // The same, giving PTX text in `image` instead of CUBIN (the CUDA front end reads it).
  CompileResult compile_ptx(const std::string& source, const std::string& arch, const std::vector<std::string>& options,
                            const std::string& name) const;

 private:
  CompileResult compile_to(bool ptx, const std::string& source, const std::string& arch,
                           const std::vector<std::string>& options, const std::string& name) const;
  struct Api;
  std::unique_ptr<SharedLibrary> library_;
  std::unique_ptr<Api> api_;
  std::optional<std::string> reason_;
};

// The options every warpsim compile uses: exact IEEE f32 (no fused multiply-add contraction,
// IEEE division and square root, no flush to zero) and C++17.
std::vector<std::string> default_nvrtc_options();

// One-call form: opens NVRTC, compiles, returns the CUBIN or the log.
CompileResult nvrtc_compile(const std::string& source, const std::string& arch,
                            const std::vector<std::string>& options = default_nvrtc_options());

}  // namespace warpsim::cuda
