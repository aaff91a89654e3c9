// `trainproof`: starts the program this machine can use, from the same folder, with the same
// arguments. trainproof-cuda carries LibTorch's CUDA half; trainproof-cpu is the same CLI
// without it, so that on a machine with no GPU a start does not load the CUDA libraries
// (about 0.2 s and 400 MB of a start that would never use them). A machine with an NVIDIA
// driver (/proc/driver/nvidia, /dev/nvidiactl, or WSL's /dev/dxg) gets trainproof-cuda;
// TRAINPROOF_PROGRAM=cpu|cuda chooses either. This file links nothing of LibTorch.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace {

bool gpu_driver_present() {
  for (const char* p : {"/proc/driver/nvidia/version", "/dev/nvidiactl", "/dev/dxg"})
    if (access(p, F_OK) == 0) return true;
  return false;
}

}  // namespace

int main(int, char** argv) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  const char* chosen = std::getenv("TRAINPROOF_PROGRAM");
  const bool forced = chosen && *chosen;
  const std::string program = forced ? chosen : (gpu_driver_present() ? "cuda" : "cpu");
  if (program != "cpu" && program != "cuda") {
    std::fprintf(stderr, "trainproof: TRAINPROOF_PROGRAM='%s': expected cpu or cuda\n", program.c_str());
    return 2;
  }
  fs::path path = dir / ("trainproof-" + program);
  // A LibTorch without CUDA builds trainproof-cpu alone.
  if (program == "cuda" && !forced && !fs::exists(path)) path = dir / "trainproof-cpu";
  execv(path.c_str(), argv);
  std::fprintf(stderr, "trainproof: cannot start %s: %s\n", path.c_str(), std::strerror(errno));
  return 3;
}
