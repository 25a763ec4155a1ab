#include "cuda/nvrtc.hpp"

#include <fmt/format.h>

#include "device/errors.hpp"

namespace warpsim::cuda {

namespace {
// nvrtc.h compatible declarations of what warpsim uses.
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;
constexpr nvrtcResult kNvrtcSuccess = 0;
}  // namespace

struct Nvrtc::Api {
  const char* (*GetErrorString)(nvrtcResult) = nullptr;
  nvrtcResult (*Version)(int*, int*) = nullptr;
  nvrtcResult (*CreateProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                               const char* const*) = nullptr;
  nvrtcResult (*CompileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
  nvrtcResult (*GetProgramLogSize)(nvrtcProgram, std::size_t*) = nullptr;
  nvrtcResult (*GetProgramLog)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*GetCUBINSize)(nvrtcProgram, std::size_t*) = nullptr;
  nvrtcResult (*GetCUBIN)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*GetPTXSize)(nvrtcProgram, std::size_t*) = nullptr;
  nvrtcResult (*GetPTX)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*DestroyProgram)(nvrtcProgram*) = nullptr;
};

Nvrtc::Nvrtc() : api_(std::make_unique<Api>()) {
  // CUDA_CACHE_DISABLE=1 is set by tools/main.cpp before anything loads: a compile served from the
  // driver's compute cache has no ptxas register counts (stop 36).
  library_ = std::make_unique<SharedLibrary>(std::vector<std::string>{
      "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so",
      "/usr/local/cuda/lib64/libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.12"});
  if (!library_->loaded()) {
    reason_ = fmt::format("NVRTC not found (libnvrtc.so could not be loaded: {})", library_->error());
    return;
  }
  bool missing = false;
  std::string missing_name;
  auto bind = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(library_->symbol(name));
    if (!fn && !missing) {
      missing = true;
      missing_name = name;
    }
  };
  bind(api_->GetErrorString, "nvrtcGetErrorString");
  bind(api_->Version, "nvrtcVersion");
  bind(api_->CreateProgram, "nvrtcCreateProgram");
  bind(api_->CompileProgram, "nvrtcCompileProgram");
  bind(api_->GetProgramLogSize, "nvrtcGetProgramLogSize");
  bind(api_->GetProgramLog, "nvrtcGetProgramLog");
  bind(api_->GetCUBINSize, "nvrtcGetCUBINSize");
  bind(api_->GetCUBIN, "nvrtcGetCUBIN");
  bind(api_->GetPTXSize, "nvrtcGetPTXSize");
  bind(api_->GetPTX, "nvrtcGetPTX");
  bind(api_->DestroyProgram, "nvrtcDestroyProgram");
  if (missing) reason_ = fmt::format("NVRTC at {} lacks {} (too old; CUDA 11.1 or newer is needed)", library_->path(), missing_name);
}

Nvrtc::~Nvrtc() = default;

std::string Nvrtc::version() const {
  int major = 0, minor = 0;
  if (reason_ || api_->Version(&major, &minor) != kNvrtcSuccess) return "";
  return fmt::format("{}.{}", major, minor);
}

CompileResult Nvrtc::compile(const std::string& source, const std::string& arch,
                             const std::vector<std::string>& options, const std::string& name) const {
  return compile_to(false, source, arch, options, name);
}

CompileResult Nvrtc::compile_ptx(const std::string& source, const std::string& arch,
                                 const std::vector<std::string>& options, const std::string& name) const {
  return compile_to(true, source, arch, options, name);
}

CompileResult Nvrtc::compile_to(bool ptx, const std::string& source, const std::string& arch,
                                const std::vector<std::string>& options, const std::string& name) const {
  if (reason_) throw Error(*reason_, ExitCode::NoDevice);
  nvrtcProgram program = nullptr;
  auto check = [&](nvrtcResult r, const char* what) {
    if (r != kNvrtcSuccess) throw Error(fmt::format("NVRTC {} failed: {}", what, api_->GetErrorString(r)), ExitCode::Internal);
  };
  check(api_->CreateProgram(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
  struct Destroy {
    const Api* api;
    nvrtcProgram* program;
    ~Destroy() { api->DestroyProgram(program); }
  } destroy{api_.get(), &program};

  std::vector<std::string> all = {"--gpu-architecture=" + arch};
  all.insert(all.end(), options.begin(), options.end());
  std::vector<const char*> argv;
  for (const auto& o : all) argv.push_back(o.c_str());

  CompileResult result;
  const nvrtcResult compiled = api_->CompileProgram(program, static_cast<int>(argv.size()), argv.data());
  std::size_t log_size = 0;
  check(api_->GetProgramLogSize(program, &log_size), "nvrtcGetProgramLogSize");
  result.log.resize(log_size);
  if (log_size) check(api_->GetProgramLog(program, result.log.data()), "nvrtcGetProgramLog");
  while (!result.log.empty() && (result.log.back() == '\0' || result.log.back() == '\n')) result.log.pop_back();
  if (compiled != kNvrtcSuccess) {
    if (result.log.empty()) result.log = api_->GetErrorString(compiled);
    return result;
  }
  std::size_t size = 0;
  if (ptx) {
    check(api_->GetPTXSize(program, &size), "nvrtcGetPTXSize");
    result.image.resize(size);
    if (size) check(api_->GetPTX(program, result.image.data()), "nvrtcGetPTX");
    while (!result.image.empty() && result.image.back() == '\0') result.image.pop_back();
  } else {
    check(api_->GetCUBINSize(program, &size), "nvrtcGetCUBINSize");
    result.image.resize(size);
    if (size) check(api_->GetCUBIN(program, result.image.data()), "nvrtcGetCUBIN");
  }
  result.ok = true;
  return result;
}

std::vector<std::string> default_nvrtc_options() {
  return {"--std=c++17", "--fmad=false", "--prec-div=true", "--prec-sqrt=true", "--ftz=false"};
}

CompileResult nvrtc_compile(const std::string& source, const std::string& arch, const std::vector<std::string>& options) {
  return Nvrtc().compile(source, arch, options);
}

}  // namespace warpsim::cuda
