#include "cuda/library.hpp"

#include <dlfcn.h>

namespace warpsim::cuda {

SharedLibrary::SharedLibrary(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_) {
      path_ = name;
      return;
    }
    const char* message = dlerror();
    error_ = message ? message : "unknown dlopen error";
  }
}

// Never dlclose: libcuda and libnvrtc keep process-wide state (their own C++ runtime's pools,
// atexit handlers) that must outlive the handle; unloading them is unsafe and shows as leaks.
SharedLibrary::~SharedLibrary() = default;

void* SharedLibrary::symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

}  // namespace warpsim::cuda
