// .cu and .ptx files as kernel files: CUDA C through NVRTC to PTX, PTX to .kir text (the existing
// parser and verifier then read it like any kernel file).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpsim::frontend {

struct ImportOptions {
  std::string kernel;                     // --kernel: the PTX name or the demangled C++ name ("" = all)
  std::vector<std::string> nvrtc_options; // --nvcc-opt, passed to NVRTC after warpsim's own
};

struct Imported {
  std::string kir;     // the .kir text
  std::string kernel;  // the IR name of the chosen kernel ("" when all were imported)
  std::string ptx;     // the PTX that was read
  // A .cu file's kernels by IR name: the registers per thread ptxas allocates for sm_90 (NVRTC
  // compiles the source a second time, to SASS, with ptxas's -v). Empty for a .ptx file.
  std::map<std::string, std::uint32_t> ptxas_registers;
  // Each imported kernel's entry name in `ptx`, by IR name (a C++ kernel's is mangled).
  std::map<std::string, std::string> ptx_entries;
};

// ptxas's "Used N registers" per kernel (PTX names) from a log of `--ptxas-options=-v`.
std::map<std::string, std::uint32_t> parse_ptxas_registers(const std::string& log);

bool is_imported_file(const std::string& path);  // .cu, .ptx

// CUDA C to PTX for sm_90 with line information. Throws Error: NVRTC's log (exit 1), NVRTC
// missing (exit 4).
std::string compile_cuda(const std::string& source, const std::string& name, const std::vector<std::string>& options);

// Imports a .ptx or .cu file. Throws Error: unsupported PTX names the PTX line and construct;
// a --kernel not there lists the kernels that are.
Imported import_file(const std::string& path, const ImportOptions& options);
// The same for PTX text; `cuda_source` (may be empty) gives the parameter names.
Imported import_ptx(const std::string& ptx, const std::string& ptx_name, const std::string& cuda_source,
                    const ImportOptions& options);

// "_Z4addkIfEvPT_S0_" -> "void addk<float>(float*, float)"; the name itself when not mangled.
std::string demangle(const std::string& name);

}  // namespace warpsim::frontend
