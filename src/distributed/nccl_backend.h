// The NCCL process group of the data-parallel ranks on GPUs. It lives in a translation unit
// of its own (nccl_backend.cpp) because it needs the CUDA and NCCL headers, which only a CUDA
// LibTorch with NCCL provides; other builds, and trainproof-cpu, compile nccl_backend_stub.cpp,
// which says why not. c10d's types are only named here, so that the stub compiles in a second
// rather than in twenty (c10d's headers); hence the group is handed back through `group`.
#pragma once

#include <chrono>
#include <string>

#include <c10/util/intrusive_ptr.h>

namespace c10d {
class Backend;
class Store;
}  // namespace c10d

namespace trainproof {

// Sets `group` to the NCCL group of `rank` in a world of `world`, rendezvousing through
// `store`, on GPU `rank`, which becomes this process's current device. Throws BadInput with
// the reason (nccl_unavailable_reason()) where NCCL cannot run.
void make_nccl_backend(const c10::intrusive_ptr<c10d::Store>& store, int rank, int world,
                       std::chrono::milliseconds timeout, c10::intrusive_ptr<c10d::Backend>& group);

// Empty where NCCL ranks can run (declared for the scenarios in trainproof/distributed/distributed.h).
std::string nccl_unavailable_reason();

}  // namespace trainproof
