// Reading a file the user named, with a reason when it cannot be read (a directory opens as an
// empty stream on Linux, which must not pass as an empty, clean file).
#pragma once
#include <optional>
#include <string>

namespace warpsim::isa {

// The whole file, or nullopt with `why` set ("is a directory", "cannot open", "cannot read").
std::optional<std::string> read_source_file(const std::string& path, std::string& why);

}  // namespace warpsim::isa
