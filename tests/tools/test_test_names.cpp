// ctest learns the test cases from Catch2 (catch_discover_tests) and passes each name back as a
// filter: a ';' in a name splits it into CMake list items that match no test, and an unclosed '['
// opens a tag pattern, so such a test silently never ran under ctest (it happened: a failing test
// hid that way). Names may hold neither.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <cctype>
#include <vector>
#include <sstream>
#include <string>

namespace {
// The name of each test case in `source`: the adjacent string literals after the macro and its parenthesis.
std::vector<std::string> test_names(const std::string& source) {
  std::vector<std::string> names;
  const std::string opening = std::string("TEST_CASE") + "(";
  for (std::size_t at = source.find(opening); at != std::string::npos; at = source.find(opening, at + 1)) {
    std::size_t i = at + opening.size();
    std::string name;
    bool any = false;
    for (;;) {
      while (i < source.size() && std::isspace(static_cast<unsigned char>(source[i]))) ++i;
      if (i >= source.size() || source[i] != '"') break;
      any = true;
      for (++i; i < source.size() && source[i] != '"'; ++i) {
        if (source[i] == '\\' && i + 1 < source.size()) ++i;
        name += source[i];
      }
      ++i;
    }
    if (any) names.push_back(name);
  }
  return names;
}
}  // namespace

TEST_CASE("no test case name holds a semicolon or an opening square bracket, which would hide it from ctest") {
  const std::filesystem::path tests = std::filesystem::path(WARPSIM_TEST_DATA_DIR).parent_path();
  std::size_t names = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(tests)) {
    if (entry.path().extension() != ".cpp") continue;
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    for (const auto& name : test_names(text.str())) {
      ++names;
      INFO(entry.path().filename().string() << ": " << name);
      CHECK(name.find(';') == std::string::npos);
      CHECK(name.find('[') == std::string::npos);
    }
  }
  CHECK(names > 200);  // the scan finds the suite's test cases
  // ... and would see a bad one.
  CHECK(test_names(std::string("TEST_CASE") + "(\"a; b\" \"c\", \"[tag]\")") == std::vector<std::string>{"a; bc"});
}
