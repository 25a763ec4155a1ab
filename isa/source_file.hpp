// Reading a file the user named, with a reason when it cannot be read. Only regular files are
// read: a directory opens as an empty stream on Linux (which must not pass as an empty, clean
// file), a device such as /dev/zero never ends, and a FIFO blocks until someone writes to it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace warpsim::isa {

// Kernel files and saved runs larger than this are refused rather than read.
constexpr std::uint64_t kMaxSourceBytes = std::uint64_t{256} << 20;

// The size of a regular file (links followed), or nullopt with `why` set.
std::optional<std::uint64_t> regular_file_size(const std::string& path, std::string& why);

// The file's first bytes, at most `limit` of them, or nullopt with `why` set ("is a directory, not
// a file", "is not a regular file (a device, FIFO or socket)", "cannot open file", "cannot read
// file", "is larger than ..."). A file longer than `limit` is refused with `size` set to its
// length, so the caller can say by how much; a shorter one is returned whole.
std::optional<std::string> read_regular_file(const std::string& path, std::uint64_t limit, std::string& why,
                                             std::uint64_t* size = nullptr);

// A kernel file or saved run: the whole file, at most kMaxSourceBytes.
std::optional<std::string> read_source_file(const std::string& path, std::string& why);

}  // namespace warpsim::isa
