// The host fingerprint's LibTorch fields (libtorch_fields.h), as far as this process has a
// LibTorch that provided them.
#include "src/verdict/libtorch_fields.h"

#include <nlohmann/json.hpp>

namespace trainproof {

namespace {

constinit LibtorchFields provided = nullptr;  // constant-initialised: set safely by another static initialiser

}  // namespace

void provide_libtorch_fields(LibtorchFields add) {
  provided = add;
}

void add_libtorch_fields(nlohmann::json& j) {
  if (provided) provided(j);
}

}  // namespace trainproof
