// The host fingerprint's LibTorch fields (fingerprint.cpp): LibTorch's version, ATen's CPU kernel
// family, its thread count and the determinism flags. They are this process's LibTorch's, so a
// program gives them only where it links LibTorch (runner/fingerprint.cpp provides them before
// main); one built without it (the wheel's trainproof, the suite's trainproof-replay) has none.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace trainproof {

using LibtorchFields = void (*)(nlohmann::json&);

// Called once, before main, by the LibTorch layer: what add_libtorch_fields adds.
void provide_libtorch_fields(LibtorchFields add);

// Adds libtorch_version, cpu_capability, threads, deterministic_algorithms, cudnn_deterministic
// and cudnn_benchmark to `j`, where a program provides them; otherwise nothing.
void add_libtorch_fields(nlohmann::json& j);

}  // namespace trainproof
