// `trainproof`: starts the program this machine can use, from the same folder, with the same
// arguments. trainproof-cuda carries LibTorch's CUDA half; trainproof-cpu is the same CLI
// without it, so that on a machine with no GPU a start does not load the CUDA libraries
// (about 0.2 s and 400 MB of a start that would never use them). A machine with an NVIDIA
// driver (/proc/driver/nvidia, /dev/nvidiactl, or WSL's /dev/dxg) gets trainproof-cuda;
// TRAINPROOF_PROGRAM=cpu|cuda chooses either. A replay of kept runs (`check --replay DIR`, and
// none of --golden, --regen, --expect-lr, which hold this program's LibTorch to the runs) runs
// nothing and judges what was recorded: it gets trainproof-lite, the CLI without LibTorch, whose
// start skips LibTorch's static initialisation. This file links nothing of LibTorch.
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

// `check --replay ...`, with nothing among check's own options (those before `--`) that needs LibTorch.
bool replay_only(char** argv) {
  if (!argv[1] || std::strcmp(argv[1], "check") != 0) return false;
  bool replay = false;
  for (char** a = argv + 2; *a && std::strcmp(*a, "--") != 0; ++a) {
    const std::string arg = *a;
    const auto is = [&](const char* option) { return arg == option || arg.rfind(std::string(option) + "=", 0) == 0; };
    if (is("--golden") || is("--regen") || is("--expect-lr")) return false;
    replay = replay || is("--replay");
  }
  return replay;
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
  if (!forced && replay_only(argv) && fs::exists(dir / "trainproof-lite")) path = dir / "trainproof-lite";
  // A LibTorch without CUDA builds trainproof-cpu alone.
  if (program == "cuda" && !forced && !fs::exists(path)) path = dir / "trainproof-cpu";
  execv(path.c_str(), argv);
  std::fprintf(stderr, "trainproof: cannot start %s: %s\n", path.c_str(), std::strerror(errno));
  return 3;
}
