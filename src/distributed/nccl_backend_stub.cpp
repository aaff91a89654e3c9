// This build has no NCCL (see src/CMakeLists.txt), or this is trainproof-cpu (the top
// CMakeLists.txt): data-parallel ranks run on Gloo only.
#include <fmt/format.h>

#include "src/distributed/nccl_backend.h"
#include "trainproof/core/errors.h"

#ifndef TRAINPROOF_NCCL_MISSING
#define TRAINPROOF_NCCL_MISSING "this build has no NCCL"
#endif

namespace trainproof {

std::string nccl_unavailable_reason() {
#ifdef TRAINPROOF_CPU_PROGRAM
  // trainproof-cpu, which the launcher starts where no GPU driver is found: no CUDA device,
  // said as the NCCL backend of trainproof-cuda says it on such a machine.
  return "NCCL ranks need a CUDA device, and this machine has none";
#else
  return fmt::format("the NCCL backend is not compiled in ({}); the Gloo ranks run on CPU", TRAINPROOF_NCCL_MISSING);
#endif
}

void make_nccl_backend(const c10::intrusive_ptr<c10d::Store>&, int, int, std::chrono::milliseconds,
                       c10::intrusive_ptr<c10d::Backend>&) {
  throw BadInput(nccl_unavailable_reason());
}

}  // namespace trainproof
