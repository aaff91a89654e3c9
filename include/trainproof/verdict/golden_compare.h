// `trainproof compare`: the traces of two golden files, or of two folders of them, one held to
// the other. Judging only (the golden store, the tolerances): no LibTorch, so the trainproof built
// without it (TRAINPROOF_WITH_LIBTORCH=OFF) has it too.
#pragma once

#include <filesystem>
#include <string>

#include "trainproof/verdict/outcome.h"

namespace trainproof {

// Compares the traces in two golden files, `observed` against `reference`, for one device:
// with `tolerance`, that policy for every series; otherwise the reference's own (the same
// environment's unless `cross`). `tolerance` "ceiling" compares each series within the most
// its scenario lets any machine move it (the ceiling regen records); with `observed_device`
// another device's group is the observed one (CPU against CUDA), and a series only one
// device records is noted, not failed. Two folders: each golden against the other folder's of
// the same name (one only one folder holds is MISSING or NEW).
struct CompareOptions {
  std::filesystem::path reference, observed;
  std::string device = "cpu", observed_device;  // observed_device: empty = device
  std::string tolerance;
  bool cross = false;
};
VerifyReport compare(const CompareOptions& o);

}  // namespace trainproof
