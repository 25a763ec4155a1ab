// A shared library opened with dlopen and kept loaded for the process; symbols looked up by name.
#pragma once
#include <string>
#include <vector>

namespace warpsim::cuda {

class SharedLibrary {
 public:
  // Tries each name in turn; loaded() is false when none could be opened (tried() lists them).
  explicit SharedLibrary(const std::vector<std::string>& names);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  const std::string& path() const { return path_; }     // the name that opened
  const std::string& error() const { return error_; }   // dlerror() of the last failed attempt
  // nullptr when absent.
  void* symbol(const char* name) const;

 private:
  void* handle_ = nullptr;
  std::string path_, error_;
};

}  // namespace warpsim::cuda
