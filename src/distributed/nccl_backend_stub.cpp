// This build has no NCCL (see src/CMakeLists.txt): data-parallel ranks run on Gloo only.
#include <fmt/format.h>

#include "src/distributed/nccl_backend.h"
#include "trainproof/core/errors.h"
#include "trainproof/distributed/distributed.h"

#ifndef TRAINPROOF_NCCL_MISSING
#define TRAINPROOF_NCCL_MISSING "this build has no NCCL"
#endif

namespace trainproof {

std::string nccl_unavailable_reason() {
  return fmt::format("the NCCL backend is not compiled in ({}); the Gloo ranks run on CPU", TRAINPROOF_NCCL_MISSING);
}

c10::intrusive_ptr<c10d::Backend> make_nccl_backend(const c10::intrusive_ptr<c10d::Store>&, int, int,
                                                    std::chrono::milliseconds) {
  throw BadInput(nccl_unavailable_reason());
}

}  // namespace trainproof
