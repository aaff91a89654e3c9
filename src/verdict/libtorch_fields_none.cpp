// The host fingerprint's LibTorch fields (libtorch_fields.h) in a trainproof built without
// LibTorch: this process has no LibTorch whose version, kernels or threads it could name.
// (A check golden made by the LibTorch build holds these fields; held here, they differ as
// absent, and the golden's cross-machine tolerances apply.)
#include "src/verdict/libtorch_fields.h"

#include <nlohmann/json.hpp>

namespace trainproof {

void add_libtorch_fields(nlohmann::json&) {}

}  // namespace trainproof
