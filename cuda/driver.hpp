// The CUDA driver API, loaded at run time from libcuda.so.1: cuda.h-compatible declarations of
// the few functions cuda::Gpu uses, resolved with dlsym. No CUDA header is needed to build.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "cuda/library.hpp"

namespace warpsim::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

// cuda.h enum values used here.
enum : int {
  kCuDeviceAttributeMaxThreadsPerBlock = 1,
  kCuDeviceAttributeMaxBlockDimX = 2,
  kCuDeviceAttributeMaxGridDimX = 5,
  kCuDeviceAttributeMaxSharedMemoryPerBlock = 8,
  kCuDeviceAttributeWarpSize = 10,
  kCuDeviceAttributeMultiprocessorCount = 16,
  kCuDeviceAttributeL2CacheSize = 38,
  kCuDeviceAttributeComputeCapabilityMajor = 75,
  kCuDeviceAttributeComputeCapabilityMinor = 76,
  kCuJitInfoLogBuffer = 3,
  kCuJitInfoLogBufferSizeBytes = 4,
  kCuJitErrorLogBuffer = 5,
  kCuJitErrorLogBufferSizeBytes = 6,
  kCuFuncAttributeLocalSizeBytes = 3,
  kCuFuncAttributeNumRegs = 4,
};

struct DriverApi {
  CUresult (*Init)(unsigned) = nullptr;
  CUresult (*DriverGetVersion)(int*) = nullptr;
  CUresult (*GetErrorString)(CUresult, const char**) = nullptr;
  CUresult (*DeviceGetCount)(int*) = nullptr;
  CUresult (*DeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*DeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*DeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*DevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*DevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*CtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*CtxSynchronize)() = nullptr;
  CUresult (*MemAlloc)(CUdeviceptr*, std::size_t) = nullptr;
  CUresult (*MemFree)(CUdeviceptr) = nullptr;
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void*, std::size_t) = nullptr;
  CUresult (*MemcpyDtoH)(void*, CUdeviceptr, std::size_t) = nullptr;
  CUresult (*MemcpyDtoD)(CUdeviceptr, CUdeviceptr, std::size_t) = nullptr;
  CUresult (*MemsetD8)(CUdeviceptr, unsigned char, std::size_t) = nullptr;
  CUresult (*ModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;
  CUresult (*ModuleUnload)(CUmodule) = nullptr;
  CUresult (*ModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*FuncGetAttribute)(int*, int, CUfunction) = nullptr;
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                           void**, void**) = nullptr;
  CUresult (*EventCreate)(CUevent*, unsigned) = nullptr;
  CUresult (*EventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*EventSynchronize)(CUevent) = nullptr;
  CUresult (*EventElapsedTime)(float*, CUevent, CUevent) = nullptr;
  CUresult (*EventDestroy)(CUevent) = nullptr;
};

// libcuda.so.1 opened and its functions resolved; reason() says why not when that failed.
class Driver {
 public:
  Driver();
  const std::optional<std::string>& reason() const { return reason_; }
  const DriverApi& api() const { return api_; }
  // Throws Error naming `what` and the driver's message when r is not CUDA_SUCCESS.
  void check(CUresult r, const std::string& what) const;
  std::string error_string(CUresult r) const;

 private:
  std::unique_ptr<SharedLibrary> library_;
  DriverApi api_;
  std::optional<std::string> reason_;
};

}  // namespace warpsim::cuda
