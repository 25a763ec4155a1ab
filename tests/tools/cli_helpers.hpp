// Runs the command line in-process, as the tests of tools/ do.
#pragma once
#include <string>
#include <vector>

#include "tools/cli.hpp"

namespace warpsim::test {

struct CliResult {
  int code;
  std::string out, err;
};

inline CliResult cli(std::vector<std::string> args) {
  cli::Io io;
  const int code = cli::run_cli(args, io);
  return {code, io.out, io.err};
}

}  // namespace warpsim::test
