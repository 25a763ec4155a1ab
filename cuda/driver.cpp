#include "cuda/driver.hpp"

#include <fmt/format.h>

#include <type_traits>

#include "device/errors.hpp"

namespace warpsim::cuda {

Driver::Driver() {
  library_ = std::make_unique<SharedLibrary>(std::vector<std::string>{"libcuda.so.1", "libcuda.so"});
  if (!library_->loaded()) {
    reason_ = "no CUDA driver found (libcuda.so.1 could not be loaded)";
    return;
  }
  std::string missing;
  // The first name that resolves wins: versioned names (cuMemAlloc_v2) are what cuda.h's macros
  // select; a plain name is the fallback for drivers older than the versioned entry point.
  auto bind = [&](auto& fn, std::initializer_list<const char*> names) {
    for (const char* name : names)
      if (void* p = library_->symbol(name)) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
        return;
      }
    if (missing.empty()) missing = *names.begin();
  };
  bind(api_.Init, {"cuInit"});
  bind(api_.DriverGetVersion, {"cuDriverGetVersion"});
  bind(api_.GetErrorString, {"cuGetErrorString"});
  bind(api_.DeviceGetCount, {"cuDeviceGetCount"});
  bind(api_.DeviceGet, {"cuDeviceGet"});
  bind(api_.DeviceGetName, {"cuDeviceGetName"});
  bind(api_.DeviceGetAttribute, {"cuDeviceGetAttribute"});
  bind(api_.DevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  bind(api_.DevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
  bind(api_.CtxSetCurrent, {"cuCtxSetCurrent"});
  bind(api_.CtxSynchronize, {"cuCtxSynchronize"});
  bind(api_.MemAlloc, {"cuMemAlloc_v2"});
  bind(api_.MemFree, {"cuMemFree_v2"});
  bind(api_.MemcpyHtoD, {"cuMemcpyHtoD_v2"});
  bind(api_.MemcpyDtoH, {"cuMemcpyDtoH_v2"});
  bind(api_.MemcpyDtoD, {"cuMemcpyDtoD_v2"});
  bind(api_.MemsetD8, {"cuMemsetD8_v2"});
  bind(api_.ModuleLoadDataEx, {"cuModuleLoadDataEx"});
  bind(api_.ModuleUnload, {"cuModuleUnload"});
  bind(api_.ModuleGetFunction, {"cuModuleGetFunction"});
  bind(api_.FuncGetAttribute, {"cuFuncGetAttribute"});
  bind(api_.LaunchKernel, {"cuLaunchKernel"});
  bind(api_.EventCreate, {"cuEventCreate"});
  bind(api_.EventRecord, {"cuEventRecord"});
  bind(api_.EventSynchronize, {"cuEventSynchronize"});
  bind(api_.EventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  bind(api_.EventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  if (!missing.empty()) {
    reason_ = fmt::format("the CUDA driver at {} lacks {} (driver too old)", library_->path(), missing);
    return;
  }
  if (const CUresult r = api_.Init(0); r != 0) {
    reason_ = fmt::format("the CUDA driver did not initialise ({}): no usable GPU", error_string(r));
    return;
  }
  int count = 0;
  if (api_.DeviceGetCount(&count) != 0 || count == 0) reason_ = "the CUDA driver found no GPU";
}

std::string Driver::error_string(CUresult r) const {
  const char* text = nullptr;
  if (api_.GetErrorString && api_.GetErrorString(r, &text) == 0 && text) return fmt::format("{} (error {})", text, r);
  return fmt::format("CUDA error {}", r);
}

void Driver::check(CUresult r, const std::string& what) const {
  if (r != 0) throw Error(fmt::format("{}: {}", what, error_string(r)), ExitCode::NoDevice);
}

}  // namespace warpsim::cuda
