// Runs the command line in-process, as the tests of tools/ do.
#pragma once
#include <fstream>
#include <iterator>
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

// A file's whole text ("" when it cannot be read).
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Writes `text` to /tmp/warpsim-test-NAME and returns that path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/warpsim-test-" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace warpsim::test
