// libFuzzer target: arbitrary bytes as a golden file. read_golden must either return a
// validated GoldenFile or throw BadInput; anything else (crash, hang, sanitizer report,
// another exception) is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "trainproof/core/errors.h"
#include "trainproof/golden/golden_store.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/trainproof-fuzz-golden-" + std::to_string(::getpid()) + ".h5";
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const trainproof::GoldenFile g = trainproof::read_golden(path);
    for (const auto& [device, dg] : g.devices)
      for (const auto& s : dg.trace.series) (void)s.size();
  } catch (const trainproof::BadInput&) {
  }
  return 0;
}
