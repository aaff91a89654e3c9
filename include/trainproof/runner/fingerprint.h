// The environment fingerprint stored in every golden: LibTorch, compiler, CPU model and
// ISA, threads, GPU/CUDA/cuDNN, determinism flags. verify prints the fields that differ.
#pragma once

#include <string>
#include <vector>

#include <c10/core/Device.h>

namespace trainproof {

extern const char* const kTrainproofVersion;
// Now, as goldens record their creation: "2026-12-01T19:59:24Z".
std::string utc_now();

// JSON object text describing this process's environment for `device`.
std::string current_fingerprint(c10::Device device);

struct FingerprintDiff {
  std::string field, golden, current;
};
// Fields whose values differ (missing on one side counts as different).
std::vector<FingerprintDiff> fingerprint_diff(const std::string& golden_json, const std::string& current_json);
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
