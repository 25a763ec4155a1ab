// Typed errors at the isa/sim/cuda boundaries and the process exit codes they map to.
#pragma once
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
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, ExitCode code = ExitCode::InvalidInput)
      : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// A fault raised while a kernel runs; the message names kernel, block, warp, lane, pc, line, address.
class KernelFault : public Error {
 public:
  using Error::Error;
};

}  // namespace warpsim
