// warpsim: the command line. Everything happens in run_cli so tests can drive it in-process.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tools/cli.hpp"

int main(int argc, char** argv) {
  // Where a CUDA driver is installed, NVRTC keeps what ptxas compiled in the driver's compute cache
  // (~/.nv/ComputeCache) and a second compile of the same program is served from it without running
  // ptxas, so its log has no `-v` register counts: the importer then fell back to the IR's own count,
  // and a kernel's occupancy, and its predicted time, depended on what the machine had compiled
  // before (stop 36: set28's stencil3d on 512x512x64, 32 registers from ptxas and 100% occupancy on
  // a fresh device machine, the IR's 36+ and 75% on any later compile; 48.8 against 64.7 us). Set
  // here, before any thread starts or CUDA library loads, so every compile is fresh on every machine.
  if (setenv("CUDA_CACHE_DISABLE", "1", 1) != 0)
    std::fputs("warpsim: warning: could not set CUDA_CACHE_DISABLE=1; register counts of a kernel compiled "
               "before on this machine may come from the IR instead of ptxas\n",
               stderr);
  std::vector<std::string> args(argv + 1, argv + argc);
  warpsim::cli::Io io;
  const int code = warpsim::cli::run_cli(args, io);
  std::fwrite(io.out.data(), 1, io.out.size(), stdout);
  std::fwrite(io.err.data(), 1, io.err.size(), stderr);
  return code;
}
