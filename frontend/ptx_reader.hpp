// Reads the PTX that NVRTC and `nvcc -ptx` emit into a small syntax tree: the module's source files,
// and per kernel its parameters, registers, shared arrays and statements with their PTX line and
// CUDA origin (.loc). It knows PTX's shape, not what instructions mean (ptx_translate.cpp does).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::frontend {

// PTX the importer cannot read or translate: the PTX line and what is wrong.
class PtxError : public std::runtime_error {
 public:
  PtxError(std::uint32_t line, const std::string& message) : std::runtime_error(message), line_(line) {}
  std::uint32_t line() const { return line_; }

 private:
  std::uint32_t line_;
};

struct PtxParam {
  std::string name;  // as in PTX: saxpy_param_0
  std::string type;  // "u32", "f32", "u64", ...
  std::uint32_t line = 0;
};

struct PtxRegister {
  std::string name;  // "%r1"
  std::string type;  // "b32", "pred", ...
};

struct PtxShared {
  std::string name;
  std::string type;   // element type as declared (b8, f32, ...)
  std::uint32_t align = 0;
  std::uint64_t count = 0;
  std::uint32_t line = 0;
};

// One instruction: `@%p opcode.mod.mod a, b, [c+4];`, or a label.
struct PtxStatement {
  std::string label;                  // a label statement when not empty
  std::string guard;                  // "%p1" ("" when unguarded)
  bool guard_negated = false;
  std::vector<std::string> opcode;    // "ld", "global", "f32"
  std::vector<std::string> operands;  // as written, spaces removed: "%r1", "[%rd1+4]", "%r2|%p1", "-1"
  std::uint32_t line = 0;             // PTX line
  std::uint32_t file = 0;             // CUDA origin from .loc (file 0: none)
  std::uint32_t source_line = 0;
};

struct PtxKernel {
  std::string name;
  std::uint32_t line = 0;
  std::uint32_t source_file = 0, source_line = 0;  // the first .loc: where the kernel is defined
  std::vector<PtxParam> params;
  std::vector<PtxRegister> registers;
  std::vector<PtxShared> shared;
  std::vector<PtxShared> local;  // .local arrays (NVRTC's __local_depotN): per-thread memory
  std::vector<PtxStatement> body;
};

struct PtxFile {
  std::uint32_t index = 0;
  std::string path;
};

// A module-scope variable (__device__, __constant__, a texture, or one a CUDA header declares):
// read past, so a module whose kernels never name one imports; the translator refuses a kernel
// that does name one, with this line.
struct PtxModuleVariable {
  std::string name;
  std::string space;  // ".global", ".const", ...
  std::uint32_t line = 0;
};

struct PtxModule {
  std::vector<PtxFile> files;
  std::vector<PtxKernel> kernels;
  std::vector<PtxModuleVariable> variables;
};

// Throws PtxError naming the line for what it cannot read (device functions, a kernel using a
// module-scope variable, textures, ...).
PtxModule read_ptx(std::string_view text);

}  // namespace warpsim::frontend
