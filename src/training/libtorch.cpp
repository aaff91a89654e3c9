#include "trainproof/training/libtorch.h"

#include <dlfcn.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include <ATen/Parallel.h>

namespace trainproof {

void load_whole_libtorch() {
  if (dlopen("libtorch.so", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD)) return;
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&at::get_num_threads), &info) || !info.dli_fname)
    throw std::runtime_error("cannot find the folder libtorch_cpu was loaded from");
  const std::string path = (std::filesystem::path(info.dli_fname).parent_path() / "libtorch.so").string();
  if (!dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL)) throw std::runtime_error(path + ": " + dlerror());
}

}  // namespace trainproof
