// The host fingerprint's LibTorch fields (fingerprint.cpp): LibTorch's version, ATen's CPU kernel
// family, its thread count and the determinism flags. They are this process's LibTorch's, so a
// trainproof built without LibTorch (TRAINPROOF_WITH_LIBTORCH=OFF) has none to record.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace trainproof {

// Adds libtorch_version, cpu_capability, threads, deterministic_algorithms, cudnn_deterministic
// and cudnn_benchmark to `j`; without LibTorch, nothing.
void add_libtorch_fields(nlohmann::json& j);

}  // namespace trainproof
