// IR -> readable CUDA C++: one `extern "C" __global__` function per kernel, registers as locals,
// labels and goto for branches, shared arrays as one byte array at the IR's offsets. Plain mode is
// the kernel as a CUDA programmer would write it; instrumented mode also appends a trace record at
// every basic-block entry and exit (docs/cuda.md says how the control flow is kept as written).
#pragma once
#include <string>
#include <vector>

#include "isa/analysis.hpp"
#include "isa/module.hpp"

namespace warpsim::cuda {

enum class EmitMode { Plain, Instrumented };

// Instrumented kernels take these two parameters after the IR's own: the trace buffer's device
// address (u64) and the per-warp record capacity (u32); layout in cuda/trace_buffer.hpp.
constexpr const char* kTraceBufferParam = "ws_trace";
constexpr const char* kTraceCapacityParam = "ws_trace_capacity";

// The helper functions every emitted module starts with.
std::string cuda_prelude(EmitMode mode);

// The kernel alone (no prelude). Throws Error when the kernel cannot be expressed in CUDA C++
// (its name is a C++ keyword or reserved by the prelude).
std::string emit_kernel(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, EmitMode mode);

// A complete translation unit for NVRTC: the prelude and the kernel.
std::string emit_cuda(const isa::Kernel& kernel, const isa::KernelAnalysis& analysis, EmitMode mode);

// A complete translation unit holding every kernel of a module; analyses[i] belongs to kernels[i].
std::string emit_cuda(const isa::Module& module, const std::vector<isa::KernelAnalysis>& analyses,
                      EmitMode mode);

}  // namespace warpsim::cuda
