// warpsim: the command line. Everything happens in run_cli so tests can drive it in-process.
#include <cstdio>
#include <string>
#include <vector>

#include "tools/cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  warpsim::cli::Io io;
  const int code = warpsim::cli::run_cli(args, io);
  std::fwrite(io.out.data(), 1, io.out.size(), stdout);
  std::fwrite(io.err.data(), 1, io.err.size(), stderr);
  return code;
}
