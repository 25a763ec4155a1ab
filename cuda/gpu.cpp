#include "cuda/gpu.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <tuple>

#include "cuda/driver.hpp"
#include "cuda/nvrtc.hpp"
#include "cuda/trace_buffer.hpp"
#include "cuda/trace_stats.hpp"
#include "device/errors.hpp"

namespace warpsim::cuda {

namespace {

struct Allocation {
  std::size_t bytes = 0;
  std::string label;
};

struct Compiled {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};

// Device memory freed on scope exit (trace buffers, snapshots).
struct DeviceBuffer {
  const Driver* driver = nullptr;
  CUdeviceptr address = 0;
  DeviceBuffer(const Driver& d, std::size_t bytes, const char* what) : driver(&d) {
    d.check(d.api().MemAlloc(&address, std::max<std::size_t>(bytes, 1)),
            fmt::format("allocating {} bytes for {}", bytes, what));
  }
  ~DeviceBuffer() {
    if (address) driver->api().MemFree(address);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

}  // namespace

struct Gpu::State {
  GpuOptions options;
  Driver driver;
  Nvrtc nvrtc;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string name;
  std::string arch;
  DeviceLimits limits;
  std::map<std::uint64_t, Allocation> allocations;
  std::map<std::string, Compiled> compiled;  // by CUDA source
  std::shared_ptr<spdlog::logger> log;

  int attribute(int which) const {
    int value = 0;
    driver.check(driver.api().DeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
    return value;
  }

  CUfunction function(const isa::Kernel& kernel, const std::string& source, const std::vector<std::string>& extra) {
    auto found = compiled.find(source);
    if (found != compiled.end()) return found->second.function;
    auto nvrtc_options = default_nvrtc_options();
    nvrtc_options.insert(nvrtc_options.end(), extra.begin(), extra.end());
    const CompileResult result = nvrtc.compile(source, arch, nvrtc_options, kernel.name + ".cu");
    if (!result.ok)
      throw Error(fmt::format("NVRTC could not compile the CUDA emitted for kernel '{}' (a warpsim bug):\n{}",
                              kernel.name, result.log),
                  ExitCode::Internal);
    return load(source, result.image.data(), kernel.name, fmt::format("loading kernel '{}'", kernel.name));
  }

  // Loads `image` (a cubin, or PTX the driver compiles) as the module cached under `key` and returns
  // its `entry`; a load the driver refuses is `what` ... "failed" with the driver's log (exit 4).
  CUfunction load(const std::string& key, const void* image, const std::string& entry, const std::string& what) {
    std::string error_log(8192, '\0');
    int options[] = {kCuJitErrorLogBuffer, kCuJitErrorLogBufferSizeBytes};
    void* values[] = {error_log.data(), reinterpret_cast<void*>(static_cast<std::uintptr_t>(error_log.size()))};
    Compiled c;
    const CUresult r = driver.api().ModuleLoadDataEx(&c.module, image, 2, options, values);
    if (r != 0)
      throw Error(fmt::format("{} on {} failed: {} {}", what, name, driver.error_string(r), error_log.c_str()),
                  ExitCode::NoDevice);
    driver.check(driver.api().ModuleGetFunction(&c.function, c.module, entry.c_str()), "cuModuleGetFunction");
    compiled[key] = c;
    return c.function;
  }

  // An imported kernel's own build: its PTX as the importer read it, compiled for this GPU by the
  // driver (as a program that loads NVRTC's PTX does), and the entry `entry` of it.
  CUfunction native_function(const std::string& ptx, const std::string& entry) {
    const std::string key = "ptx\n" + entry + "\n" + ptx;
    auto found = compiled.find(key);
    if (found != compiled.end()) return found->second.function;
    return load(key, ptx.c_str(), entry,
                fmt::format("loading the PTX of kernel '{}' (its own build, --gpu-build source; --gpu-build "
                            "emitted times the CUDA warpsim writes from the IR instead)",
                            entry));
  }

  // Timed launches start with a cold L2 and without the launch overhead: each is queued behind a
  // kernel that reads a scratch buffer three times the L2's size (evicting every line the buffer
  // restore left, writing back the dirty ones), so the start event and the launch are already
  // queued when the GPU reaches them. The same state as Nsight Compute's --cache-control all.
  CUfunction flush_function = nullptr;
  CUdeviceptr flush_buffer = 0, flush_sink = 0;
  std::uint64_t flush_words = 0;

  void flush_l2() {
    const auto& api = driver.api();
    if (flush_function == nullptr) {
      static const char* const kSource = R"(extern "C" __global__ void warpsim_l2_flush(const unsigned long long* p,
    unsigned long long n, unsigned long long* sink) {
  unsigned long long acc = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    acc ^= p[i];
  if (acc == 0x9e3779b97f4a7c15ull) *sink = acc;
})";
      const CompileResult result = nvrtc.compile(kSource, arch, default_nvrtc_options(), "warpsim_l2_flush.cu");
      if (!result.ok)
        throw Error(fmt::format("NVRTC could not compile the L2 flush kernel (a warpsim bug):\n{}", result.log),
                    ExitCode::Internal);
      CUmodule module = nullptr;
      driver.check(api.ModuleLoadDataEx(&module, result.image.data(), 0, nullptr, nullptr), "loading the L2 flush");
      compiled["warpsim_l2_flush"] = Compiled{module, nullptr};
      driver.check(api.ModuleGetFunction(&flush_function, module, "warpsim_l2_flush"), "cuModuleGetFunction");
      const int l2 = attribute(kCuDeviceAttributeL2CacheSize);
      const std::uint64_t bytes = std::max<std::uint64_t>(3ull * static_cast<std::uint64_t>(std::max(l2, 0)), 64ull << 20);
      flush_words = bytes / 8;
      driver.check(api.MemAlloc(&flush_buffer, bytes), fmt::format("allocating {} bytes to flush the L2", bytes));
      driver.check(api.MemsetD8(flush_buffer, 1, bytes), "cuMemsetD8");
      driver.check(api.MemAlloc(&flush_sink, 8), "allocating the L2 flush's sink");
    }
    std::uint64_t n = flush_words;
    void* params[] = {&flush_buffer, &n, &flush_sink};
    driver.check(api.LaunchKernel(flush_function, static_cast<unsigned>(attribute(kCuDeviceAttributeMultiprocessorCount)) * 8,
                                  1, 1, 512, 1, 1, 0, nullptr, params, nullptr),
                 "launching the L2 flush");
  }

  const Allocation& allocation_of(std::uint64_t address, std::size_t bytes, const char* what) const {
    auto it = allocations.upper_bound(address);
    if (it != allocations.begin()) {
      --it;
      if (address >= it->first && address + bytes <= it->first + it->second.bytes) return it->second;
    }
    throw Error(fmt::format("{} of {} bytes at 0x{:x} is outside every allocation", what, bytes, address));
  }

  void run(CUfunction f, const LaunchSpec& spec, std::vector<void*>& params) {
    const CUresult r = driver.api().LaunchKernel(f, spec.grid.x, spec.grid.y, spec.grid.z, spec.block.x, spec.block.y,
                                                 spec.block.z, 0, nullptr, params.data(), nullptr);
    if (r != 0)
      throw KernelFault(
          fmt::format("launch of '{}' on {} failed: {}", spec.kernel->name, name, driver.error_string(r)));
  }

  void synchronize(const LaunchSpec& spec) {
    const CUresult r = driver.api().CtxSynchronize();
    if (r != 0)
      throw KernelFault(
          fmt::format("kernel '{}' faulted on {}: {} (run it on the simulator to see the block, warp, "
                      "lane and address)",
                      spec.kernel->name, name, driver.error_string(r)));
  }
};

std::optional<std::string> Gpu::unavailable_reason(int device) {
  Driver driver;
  if (driver.reason()) return driver.reason();
  int count = 0;
  driver.api().DeviceGetCount(&count);
  if (device < 0 || device >= count) return fmt::format("CUDA device {} does not exist ({} found)", device, count);
  Nvrtc nvrtc;
  if (auto reason = nvrtc.unavailable_reason()) return reason;
  return std::nullopt;
}

Gpu::Gpu(GpuOptions options) : state_(std::make_unique<State>()) {
  if (auto reason = unavailable_reason(options.device)) throw Error(*reason, ExitCode::NoDevice);
  auto& s = *state_;
  s.options = std::move(options);
  s.log = spdlog::get("cuda");
  if (!s.log) s.log = spdlog::default_logger()->clone("cuda");
  const auto& api = s.driver.api();
  s.driver.check(api.DeviceGet(&s.device, s.options.device), "cuDeviceGet");
  char name[256] = {};
  s.driver.check(api.DeviceGetName(name, sizeof name, s.device), "cuDeviceGetName");
  s.name = name;
  s.driver.check(api.DevicePrimaryCtxRetain(&s.context, s.device), "cuDevicePrimaryCtxRetain");
  s.driver.check(api.CtxSetCurrent(s.context), "cuCtxSetCurrent");
  s.arch = fmt::format("sm_{}{}", s.attribute(kCuDeviceAttributeComputeCapabilityMajor),
                       s.attribute(kCuDeviceAttributeComputeCapabilityMinor));
  s.limits.warp_size = static_cast<std::uint32_t>(s.attribute(kCuDeviceAttributeWarpSize));
  s.limits.max_threads_per_block = static_cast<std::uint32_t>(s.attribute(kCuDeviceAttributeMaxThreadsPerBlock));
  for (int i = 0; i < 3; ++i) {
    s.limits.max_block_dim[i] = static_cast<std::uint32_t>(s.attribute(kCuDeviceAttributeMaxBlockDimX + i));
    s.limits.max_grid_dim[i] = static_cast<std::uint32_t>(s.attribute(kCuDeviceAttributeMaxGridDimX + i));
  }
  s.limits.max_shared_bytes_per_block =
      static_cast<std::uint32_t>(s.attribute(kCuDeviceAttributeMaxSharedMemoryPerBlock));
  s.log->info("{} ({}), NVRTC {}", s.name, s.arch, s.nvrtc.version());
}

Gpu::~Gpu() {
  auto& s = *state_;
  s.driver.api().CtxSetCurrent(s.context);
  for (auto& [source, c] : s.compiled) s.driver.api().ModuleUnload(c.module);
  for (auto& [address, a] : s.allocations) s.driver.api().MemFree(address);
  if (s.flush_buffer) s.driver.api().MemFree(s.flush_buffer);
  if (s.flush_sink) s.driver.api().MemFree(s.flush_sink);
  s.driver.api().DevicePrimaryCtxRelease(s.device);
}

std::string Gpu::name() const {
  return fmt::format("{} ({})", state_->name, state_->arch);
}
const DeviceLimits& Gpu::limits() const {
  return state_->limits;
}
std::string Gpu::arch() const {
  return state_->arch;
}

std::uint64_t Gpu::allocate(std::size_t bytes, const std::string& label) {
  auto& s = *state_;
  CUdeviceptr address = 0;
  s.driver.check(s.driver.api().MemAlloc(&address, std::max<std::size_t>(bytes, 1)),
                 fmt::format("allocating {} bytes for '{}'", bytes, label));
  s.driver.check(s.driver.api().MemsetD8(address, 0, std::max<std::size_t>(bytes, 1)), "cuMemsetD8");
  s.allocations[address] = Allocation{bytes, label};
  return address;
}

void Gpu::write(std::uint64_t address, std::span<const std::byte> data) {
  auto& s = *state_;
  const auto& a = s.allocation_of(address, data.size(), "write");
  s.driver.check(s.driver.api().MemcpyHtoD(address, data.data(), data.size()), "writing '" + a.label + "'");
}

void Gpu::read(std::uint64_t address, std::span<std::byte> out) {
  auto& s = *state_;
  const auto& a = s.allocation_of(address, out.size(), "read");
  s.driver.check(s.driver.api().MemcpyDtoH(out.data(), address, out.size()), "reading '" + a.label + "'");
}

namespace {
// What a launch without its trace still knows: its shape.
void launch_shape(LaunchStats& s, const LaunchSpec& spec) {
  s.kernel = spec.kernel->name;
  s.backend = "cuda";
  s.traced = false;
  s.grid = spec.grid;
  s.block = spec.block;
  s.warp_size = 32;
  s.blocks = spec.grid.count();
  s.warps_per_block = warps_per_block(spec.block);
  s.warps_launched = s.blocks * s.warps_per_block;
  const std::uint64_t tail = spec.block.count() % 32;
  s.partial_warps = tail ? s.blocks : 0;
  s.padding_lanes = tail ? s.blocks * (32 - tail) : 0;
}
}  // namespace

LaunchResult Gpu::launch(const LaunchSpec& spec) {
  auto& s = *state_;
  validate_launch(spec, s.limits);
  if (spec.analysis == nullptr)
    throw Error(fmt::format("launch of '{}': no analysis", spec.kernel->name), ExitCode::Internal);
  const auto& kernel = *spec.kernel;
  const auto& api = s.driver.api();
  s.driver.check(api.CtxSetCurrent(s.context), "cuCtxSetCurrent");

  // Kernel arguments: each points at 8 bytes whose low bytes hold the value (little endian).
  std::vector<std::uint64_t> storage(spec.args.begin(), spec.args.end());
  storage.resize(storage.size() + 2);
  std::vector<void*> params;
  for (std::size_t i = 0; i < spec.args.size(); ++i) params.push_back(&storage[i]);

  // A snapshot of every allocation, so each run starts from the memory the caller wrote.
  std::vector<std::unique_ptr<DeviceBuffer>> snapshot;
  for (const auto& [address, a] : s.allocations) {
    snapshot.push_back(std::make_unique<DeviceBuffer>(s.driver, a.bytes, "the memory snapshot"));
    s.driver.check(api.MemcpyDtoD(snapshot.back()->address, address, a.bytes), "snapshot");
  }
  auto restore = [&] {
    std::size_t i = 0;
    for (const auto& [address, a] : s.allocations)
      s.driver.check(api.MemcpyDtoD(address, snapshot[i++]->address, a.bytes), "restoring memory");
  };

  double kernel_ms = 0.0;
  std::pair<double, double> kernel_ms_range{0.0, 0.0};
  std::uint32_t compiled_registers = 0, compiled_local_bytes = 0;
  // The plain build, and what the GPU's compiler allocated for it: an imported kernel's own (its
  // PTX) unless --gpu-build emitted, else the CUDA emitted from the IR. Both take the IR's
  // parameters in order (the importer keeps PTX's), so the same argument buffer serves either.
  const bool native = s.options.native_build && spec.native_ptx != nullptr && !spec.native_entry.empty();
  auto plain_build = [&] {
    const CUfunction f = native ? s.native_function(*spec.native_ptx, spec.native_entry)
                                : s.function(kernel, emit_cuda(kernel, *spec.analysis, EmitMode::Plain), {});
    int registers = 0, local = 0;
    s.driver.check(api.FuncGetAttribute(&registers, kCuFuncAttributeNumRegs, f), "cuFuncGetAttribute");
    s.driver.check(api.FuncGetAttribute(&local, kCuFuncAttributeLocalSizeBytes, f), "cuFuncGetAttribute");
    compiled_registers = static_cast<std::uint32_t>(std::max(registers, 0));
    compiled_local_bytes = static_cast<std::uint32_t>(std::max(local, 0));
    return f;
  };
  if (s.options.repeats > 0) {
    const CUfunction plain = plain_build();
    CUevent start = nullptr, stop = nullptr;
    s.driver.check(api.EventCreate(&start, 0), "cuEventCreate");
    s.driver.check(api.EventCreate(&stop, 0), "cuEventCreate");
    std::vector<double> times;
    for (unsigned i = 0; i < s.options.warmups + s.options.repeats; ++i) {
      restore();
      s.flush_l2();
      api.EventRecord(start, nullptr);
      s.run(plain, spec, params);
      api.EventRecord(stop, nullptr);
      s.synchronize(spec);
      float ms = 0;
      s.driver.check(api.EventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
      if (i >= s.options.warmups) times.push_back(ms);
    }
    api.EventDestroy(start);
    api.EventDestroy(stop);
    std::sort(times.begin(), times.end());
    kernel_ms =
        times.size() % 2 ? times[times.size() / 2] : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
    kernel_ms_range = {times.front(), times.back()};
  }
  auto set_measured = [&](LaunchStats& stats) {
    stats.kernel_ms = kernel_ms;
    std::tie(stats.kernel_ms_min, stats.kernel_ms_max) = kernel_ms_range;
    stats.compiled_registers = compiled_registers;
    stats.compiled_local_bytes = compiled_local_bytes;
    if (s.options.repeats > 0) stats.timed_build = native ? "source" : "emitted";
  };

  if (!s.options.instrumented) {
    if (s.options.repeats == 0) {
      restore();
      const CUfunction plain = plain_build();
      s.run(plain, spec, params);
      s.synchronize(spec);
    }
    LaunchResult result;
    set_measured(result.stats);
    launch_shape(result.stats, spec);
    return result;
  }

  // The instrumented run; rerun with room for every record when a warp's buffer overflowed.
  const CUfunction instrumented =
      s.function(kernel, emit_cuda(kernel, *spec.analysis, EmitMode::Instrumented), s.options.instrumented_options);
  const std::uint64_t warps = spec.grid.count() * warps_per_block(spec.block);
  // The first guess shrinks for big grids so the trace fits the budget; an overflow reruns with
  // the room the largest warp asked for.
  const std::uint64_t per_warp = s.options.max_trace_bytes / std::max<std::uint64_t>(warps, 1);
  const std::uint64_t fits = per_warp > kTraceHeaderBytes ? (per_warp - kTraceHeaderBytes) / kTraceRecordBytes : 1;
  std::uint32_t capacity = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(std::min<std::uint64_t>(s.options.trace_capacity, fits), 1, 0xffffffffu));
  for (;;) {
    const std::uint64_t bytes = warps * trace_warp_stride(capacity);
    if (bytes > s.options.max_trace_bytes)
      throw Error(
          fmt::format("launch of '{}': its trace needs {} bytes ({} warps x {} records), more than the {} allowed "
                      "(GpuOptions::max_trace_bytes); --gpu-trace off measures its time without a trace",
                      kernel.name, bytes, warps, capacity, s.options.max_trace_bytes));
    DeviceBuffer buffer(s.driver, bytes, "the trace");
    s.driver.check(api.MemsetD8(buffer.address, 0, bytes), "clearing the trace");
    restore();
    storage[spec.args.size()] = buffer.address;
    storage[spec.args.size() + 1] = capacity;
    std::vector<void*> with_trace = params;
    with_trace.push_back(&storage[spec.args.size()]);
    with_trace.push_back(&storage[spec.args.size() + 1]);
    s.run(instrumented, spec, with_trace);
    s.synchronize(spec);
    std::vector<std::byte> host(bytes);
    s.driver.check(api.MemcpyDtoH(host.data(), buffer.address, bytes), "reading the trace");
    const auto appended = trace_appended(host, warps, capacity);
    const std::uint32_t most = appended.empty() ? 0 : *std::max_element(appended.begin(), appended.end());
    if (most > capacity) {
      s.log->info("'{}': a warp appended {} trace records, room was {}; running again", kernel.name, most, capacity);
      capacity = most;
      continue;
    }
    Trace trace = decode_trace(host, kernel.name, spec.grid, spec.block, capacity);
    LaunchResult result;
    result.stats = stats_from_trace(trace, kernel, *spec.analysis, spec.warps);
    set_measured(result.stats);
    if (spec.record_trace) result.trace = std::move(trace);
    return result;
  }
}

}  // namespace warpsim::cuda
