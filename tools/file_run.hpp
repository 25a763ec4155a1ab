// Running any kernel file from the command line: --grid, --block, --arg, --buffer, --dump.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "isa/types.hpp"
#include "kernels/library.hpp"
#include "kernels/scenario.hpp"

namespace warpsim::cli {

struct BufferSpec {
  enum class Init { Zeros, Constant, Iota, Random, File };
  std::string name;
  isa::Type type = isa::Type::None;
  std::uint64_t count = 0;      // 0 with Init::File: as many elements as the file holds
  Init init = Init::Zeros;
  std::string value;            // Constant: the value; Iota: the start; Random: the bound (ints)
  std::string path;             // File
};

// "a=f32[1003]:random", "c=u32[64]:zeros", "x=f32[8]:const:1.5", "i=u32[10]:iota", "d=f32:file:in.bin"
BufferSpec parse_buffer_spec(const std::string& text);

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
