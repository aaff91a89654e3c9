// trainproof-golden-probe FILE: reads a golden with libhdf5 in a process of its own and
// prints "OK", "E" + the bad-input message, or "X" + any other error. read_golden() execs it
// first: libhdf5 is not safe on hostile files (fuzzing found heap overflows in H5Aexists), so
// a crash, hang or runaway allocation takes down only this small program, which links no
// LibTorch and starts in milliseconds.
#include <sys/resource.h>

#include <algorithm>
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
#ifndef TRAINPROOF_ASAN  // ASan reserves terabytes of address space: no RLIMIT_AS under it
  // A valid file's values fit in a few times its size (a float32 series is read as float and
  // then double); 256 MiB is the program and libhdf5 (a valid golden reads in under 30 MiB). A
  // corrupt length then fails its allocation at once, where a limit of gigabytes let libhdf5
  // zero gigabytes first, for seconds.
  std::error_code ec;
  const uint64_t bytes = std::filesystem::file_size(argv[1], ec);
  const uint64_t limit =
      std::min<uint64_t>((uint64_t{256} << 20) + 8 * (ec ? 0 : bytes), trainproof::kMaxGoldenFileBytes * 4);
  const rlimit mem{limit, limit};
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
