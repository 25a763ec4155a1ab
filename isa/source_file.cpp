#include "isa/source_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace warpsim::isa {

namespace {

// Why a file of this mode is not read; "" for a regular file.
std::string refuse(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "is a directory, not a file";
  return "is not a regular file (a device, FIFO or socket); give a file";
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::optional<std::uint64_t> regular_file_size(const std::string& path, std::string& why) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) {
    why = "cannot open file";
    return std::nullopt;
  }
  why = refuse(st.st_mode);
  if (!why.empty()) return std::nullopt;
  return static_cast<std::uint64_t>(st.st_size);
}

std::optional<std::string> read_regular_file(const std::string& path, std::uint64_t limit, std::string& why,
                                             std::uint64_t* size) {
  // Non-blocking, so that opening a FIFO returns at once; the mode is checked on what was opened.
  Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  struct stat st{};
  if (file.fd < 0 || ::fstat(file.fd, &st) != 0) {
    why = errno == EISDIR ? "is a directory, not a file" : "cannot open file";
    return std::nullopt;
  }
  why = refuse(st.st_mode);
  if (!why.empty()) return std::nullopt;
  const auto length = static_cast<std::uint64_t>(st.st_size);
  if (size != nullptr) *size = length;
  if (length > limit) {
    why = fmt::format("is larger than {} bytes ({} bytes)", limit, length);
    return std::nullopt;
  }
  // Read at most limit + 1 bytes: a file that grew since fstat is still caught as too long.
  std::string bytes(static_cast<std::size_t>(length), '\0');
  std::size_t done = 0;
  while (true) {
    if (done == bytes.size()) {
      if (done > limit) break;
      const std::uint64_t cap = limit < UINT64_MAX ? limit + 1 : limit;
      bytes.resize(static_cast<std::size_t>(std::min<std::uint64_t>(cap, done + 65536)));
      if (done == bytes.size()) break;
    }
    const ssize_t got = ::read(file.fd, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      why = "cannot read file";
      return std::nullopt;
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  if (done > limit) {
    if (size != nullptr) *size = done;
    why = fmt::format("is larger than {} bytes", limit);
    return std::nullopt;
  }
  return bytes;
}

std::optional<std::string> read_source_file(const std::string& path, std::string& why) {
  return read_regular_file(path, kMaxSourceBytes, why);
}

}  // namespace warpsim::isa
