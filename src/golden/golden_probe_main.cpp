// trainproof-golden-probe FILE: reads a golden with libhdf5 in a process of its own and
// prints "OK", "E" + the bad-input message, or "X" + any other error. read_golden() execs it
// first: libhdf5 is not safe on hostile files (fuzzing found heap overflows in H5Aexists), so
// a crash, hang or runaway allocation takes down only this small program, which links no
// LibTorch and starts in milliseconds.
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "trainproof/core/errors.h"
#include "trainproof/golden/golden_store.h"

#if defined(__SANITIZE_ADDRESS__)
#define TRAINPROOF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TRAINPROOF_ASAN 1
#endif
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: trainproof-golden-probe FILE\n");
    return 2;
  }
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(argv[1], ec);
  const uint64_t bytes = ec ? 0 : size;  // unreadable: the read below says why
  // A backstop for an orphan: read_golden kills a probe past its wall-time limit, but a probe
  // whose parent died first would spin on; CPU time twice that limit ends it.
  const auto cpu_s = static_cast<rlim_t>(2 * trainproof::golden_probe_seconds(bytes)) + 1;
  const rlimit cpu{cpu_s, cpu_s + 1};
  setrlimit(RLIMIT_CPU, &cpu);
#ifndef TRAINPROOF_ASAN  // ASan reserves terabytes of address space: no RLIMIT_AS under it
  // A corrupt length then fails its allocation at once, where a limit of gigabytes let libhdf5
  // zero gigabytes first, for seconds.
  const rlim_t memory = trainproof::golden_probe_memory(bytes);
  const rlimit mem{memory, memory};
  setrlimit(RLIMIT_AS, &mem);
#endif
  std::string reply = "OK";
  try {
    trainproof::read_golden_in_process(argv[1]);
  } catch (const trainproof::BadInput& e) {
    reply = std::string("E") + e.what();
  } catch (const std::exception& e) {
    reply = std::string("X") + e.what();
  }
  std::fwrite(reply.data(), 1, reply.size(), stdout);
  return 0;
}
