#include "isa/source_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace warpsim::isa {

std::optional<std::string> read_source_file(const std::string& path, std::string& why) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    why = "is a directory, not a file";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot open file";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    why = "cannot read file";
    return std::nullopt;
  }
  return text.str();
}

}  // namespace warpsim::isa
