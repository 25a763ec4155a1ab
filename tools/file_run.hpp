// Running any kernel file from the command line: --grid, --block, --arg, --buffer, --dump.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "isa/types.hpp"
#include "kernels/buffer_init.hpp"
#include "kernels/library.hpp"
#include "kernels/scenario.hpp"

namespace warpsim::cli {

using kernels::BufferSpec;
using kernels::parse_buffer_spec;

struct FileRun {
  std::string path;
  std::string kernel;                                       // "" when the file has one kernel
  Dim3 grid, block;
  std::vector<std::pair<std::string, std::string>> args;    // --arg name=value
  std::vector<BufferSpec> buffers;
  std::vector<std::pair<std::string, std::string>> dumps;   // --dump name=path
  std::vector<std::string> nvcc_options;                    // --nvcc-opt, for .cu files
};

// A .kir file, or a .cu or .ptx file imported through the CUDA front end, ready to launch.
std::unique_ptr<kernels::LoadedKernel> load_kernel_file(const std::string& path, const std::string& kernel,
                                                        const std::vector<std::string>& nvcc_options);
// The .kir text of a kernel file (.cu and .ptx imported).
std::string kernel_file_text(const std::string& path, const std::vector<std::string>& nvcc_options);

// Runs the launch; checks that every parameter gets exactly one value of the right type.
kernels::Outcome run_file(Device& device, const FileRun& run, const kernels::RunOptions& options);

}  // namespace warpsim::cli
