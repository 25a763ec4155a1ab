// The command line against hostile input: files that never end, huge kernels, huge lines.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <sys/stat.h>

#include "tests/tools/cli_helpers.hpp"

namespace {

using warpsim::test::cli;

std::string temp_path(const std::string& name) { return "/tmp/warpsim-robust-" + name; }

std::string robust_file(const std::string& name, const std::string& text) {
  const std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A fresh link at `name` to `target`.
std::string link_to(const std::string& name, const std::string& target) {
  const auto path = temp_path(name);
  std::filesystem::remove(path);
  std::filesystem::create_symlink(target, path);
  return path;
}

std::string fifo(const std::string& name) {
  const auto path = temp_path(name);
  std::filesystem::remove(path);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  return path;
}

const char* kCopy =
    "kernel copy(ptr.u32 a, ptr.u32 b) {\n"
    "    reg u64 off, pa, pb\n"
    "    reg u32 x\n"
    "    mul.wide.u32 off, %tid.x, 4\n"
    "    add.u64 pa, a, off\n"
    "    ld.global.u32 x, [pa]\n"
    "    add.u64 pb, b, off\n"
    "    st.global.u32 [pb], x\n"
    "    exit\n"
    "}\n";

}  // namespace

TEST_CASE("a device, a link to one or a FIFO is refused as a kernel file, not read without end") {
  for (const auto& path : {link_to("zero.kir", "/dev/zero"), std::string("/dev/zero"), fifo("fifo.kir")}) {
    INFO(path);
    const auto r = cli({"check", path});
    CHECK(r.code == 1);
    CHECK(r.err.find("is not a regular file") != std::string::npos);
    CHECK(cli({"print", path}).code == 1);
    if (path.ends_with(".kir")) CHECK(cli({"run", path, "--grid", "1", "--block", "32"}).code == 1);
  }
}

TEST_CASE("a buffer file is read for its declared elements only, and must hold exactly those") {
  const auto kernel = robust_file("copy.kir", kCopy);
  auto run = [&](const std::string& a) {
    return cli({"run", kernel, "--grid", "1", "--block", "8", "--buffer", a, "--buffer", "b=u32[8]:zeros"});
  };
  SECTION("a device or a FIFO is not a file") {
    for (const auto& path : {std::string("/dev/zero"), link_to("zero.bin", "/dev/zero"), fifo("fifo.bin")}) {
      INFO(path);
      const auto r = run("a=u32[8]:file:" + path);
      CHECK(r.code == 1);
      CHECK(r.err.find("--buffer a: '" + path + "' is not a regular file") != std::string::npos);
    }
  }
  SECTION("shorter and longer files say which") {
    const auto shorter = run("a=u32[8]:file:" + robust_file("short.bin", std::string(12, '\1')));
    CHECK(shorter.code == 1);
    CHECK(shorter.err.find("holds 3 u32 elements, fewer than the 8 declared") != std::string::npos);
    const auto longer = run("a=u32[8]:file:" + robust_file("long.bin", std::string(40, '\1')));
    CHECK(longer.code == 1);
    CHECK(longer.err.find("holds 10 u32 elements, more than the 8 declared") != std::string::npos);
    CHECK(run("a=u32[8]:file:" + robust_file("exact.bin", std::string(32, '\1'))).code == 0);
    CHECK(run("a=u32:file:" + robust_file("exact.bin", std::string(32, '\1'))).code == 0);
  }
}

TEST_CASE("a diagnostic on a 10 MB line shows a window around the caret, not the whole line") {
  // The error at the end of a long line: the window ends there, with the caret under it.
  const auto far = robust_file("far.kir", "kernel k() {\n" + std::string(10'000'000, ' ') + "bogus.u32 x\n    exit\n}\n");
  const auto r = cli({"check", far});
  CHECK(r.code == 1);
  CHECK(r.err.size() < 1000);
  CHECK(r.err.find(":2:10000001: error:") != std::string::npos);
  const auto shown = r.err.find("    ...");
  REQUIRE(shown != std::string::npos);
  const auto caret_line = r.err.find('\n', shown) + 1;
  CHECK(r.err.find('^', caret_line) - caret_line == r.err.find("bogus", shown) - shown);
  // A 10 MB name in the message: its beginning and end, and how much was left out.
  const auto name = robust_file("name.kir", "kernel k() {\n    reg u32 x\n    add.u32 x, x, " + std::string(10'000'000, 'q') +
                                               "\n    exit\n}\n");
  const auto n = cli({"check", name});
  CHECK(n.code == 1);
  CHECK(n.err.size() < 2000);
  CHECK(n.err.find("bytes left out") != std::string::npos);
}
