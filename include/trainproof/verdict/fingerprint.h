// The environment fingerprint stored in every golden (LibTorch, compiler, CPU model and ISA,
// threads, GPU/CUDA/cuDNN, determinism flags), and what it says when a golden fails: whether
// the environment moved, the code, or both. verify prints the fields that differ.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace trainproof {

extern const char* const kTrainproofVersion;
// Now, as goldens record their creation: "2026-12-01T19:59:24Z".
std::string utc_now();

// A fingerprint's fields, each with its value as JSON text ("\"gcc 12.2.0\"", "4", "true"); a
// golden stores the object as JSON text (json()). Unreadable text reads as no fields and
// `readable` false: every field then differs.
struct Fingerprint {
  std::map<std::string, std::string> fields;
  bool readable = true;
  static Fingerprint parse(const std::string& json);
  std::string json() const;
};

// This process's host: LibTorch, the compiler, the CPU (model, ISA flags, ATen's kernel family,
// MKL's and oneDNN's limits), the thread count and the determinism flags. A GPU run adds its
// device's fields (runner/fingerprint.h). Built without LibTorch (TRAINPROOF_WITH_LIBTORCH=OFF),
// it has no LibTorch fields: no LibTorch version, kernel family, threads or determinism flags.
Fingerprint host_fingerprint();

struct FingerprintDiff {
  std::string field, golden, current;
};
// Fields whose values differ (missing on one side counts as different).
std::vector<FingerprintDiff> fingerprint_diff(const Fingerprint& golden, const Fingerprint& current);
// A golden made in another environment is compared with the cross-environment
// tolerance. Every field can change kernel choice or summation order except these.
bool is_cross_environment(const std::vector<FingerprintDiff>& diffs);

// Why a golden failed, or held only by its cross-machine envelope, given what differs from
// its fingerprint and whether the values lie beyond its exact tolerances and beyond its
// cross-machine envelope: "environment drift: ..." (the environment differs, the values stay
// within the envelope), "code change: ..." (the environment is the golden's, the values
// moved), "both: ..." (the environment differs and the values moved beyond the envelope), or
// empty (nothing moved beyond the exact tolerances).
std::string environment_verdict(const std::vector<FingerprintDiff>& diffs, bool beyond_exact, bool beyond_envelope);

}  // namespace trainproof
