// PTX to .kir text: one IR instruction per PTX instruction wherever the IR has it, each preceded by
// the CUDA line it came from (`loc F L`). Anything the IR cannot express exactly is refused with
// the PTX line, never approximated.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "frontend/ptx_reader.hpp"

namespace warpsim::frontend {

// A kernel parameter as the CUDA source declares it (names and C types PTX does not keep).
struct CudaParam {
  std::string name;
  std::string type;  // "const float*", "int"
};

struct KirText {
  std::string text;
  std::vector<std::uint32_t> ptx_line;  // per .kir line (index = line - 1): the PTX line it came from
};

// Translates `kernels` (indices into module.kernels); `names[i]` holds the CUDA parameters of
// kernels[i] (empty: parameters are named param_0, param_1, ... and 64-bit ones are pointers to
// u32 when they are used as global addresses).
// A PTX name as an IR name ([A-Za-z_][A-Za-z0-9_]*): what a kernel's .entry name becomes.
std::string ir_name(std::string_view ptx);

KirText translate_ptx(const PtxModule& module, const std::vector<std::size_t>& kernels,
                      const std::vector<std::vector<CudaParam>>& names, const std::string& origin);

}  // namespace warpsim::frontend
