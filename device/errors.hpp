// Typed errors at the isa/sim/cuda boundaries and the process exit codes they map to.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace warpsim {

// Documented in README.md ("Exit codes"); tools/cli.cpp (run_cli) maps errors to them.
enum class ExitCode : int {
  Ok = 0,
  InvalidInput = 1,   // bad kernel, bad launch, or the kernel faulted (out-of-bounds, divergent barrier, ...)
  Usage = 2,          // bad command line
  CheckFailed = 3,    // the scenario's host reference disagrees with the device's output
  NoDevice = 4,       // --backend cuda without a usable GPU, driver or NVRTC
  Internal = 5,       // a bug in warpsim
  Mismatch = 6,       // validate: prediction and hardware differ
  Differs = 7,        // rerun: the figures differ from the report's
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, ExitCode code = ExitCode::InvalidInput)
      : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// Where a fault happened, when one lane of one warp caused it (reports print it as the FAULT line).
struct FaultSite {
  std::uint32_t block_x = 0, block_y = 0, block_z = 0;
  std::uint32_t warp = 0;  // in its block
  std::uint32_t lane = 0;
  std::uint32_t pc = 0;
  std::uint32_t line = 0;  // source line of the instruction
  std::string source;      // that line's text ("" when unknown)
  std::string cause;       // what went wrong, without the place ("global load of 4 bytes at ...")
};

// A fault raised while a kernel runs; the message names kernel, block, warp, lane, pc, line, address.
class KernelFault : public Error {
 public:
  using Error::Error;
  KernelFault(const std::string& message, const FaultSite& where) : Error(message), site(where) {}
  std::optional<FaultSite> site;  // absent for faults of the whole launch (deadlock, instruction limit)
};

}  // namespace warpsim
