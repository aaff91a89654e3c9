// The NCCL process group of the data-parallel ranks on GPUs. It lives in a translation unit
// of its own (nccl_backend.cpp) because it needs the CUDA and NCCL headers, which only a CUDA
// LibTorch with NCCL provides; other builds compile nccl_backend_stub.cpp, which says why not.
#pragma once

#include <string>

#include <torch/csrc/distributed/c10d/Backend.hpp>
#include <torch/csrc/distributed/c10d/Store.hpp>

namespace trainproof {

// The NCCL group of `rank` in a world of `world`, rendezvousing through `store`, on GPU
// `rank`, which becomes this process's current device. Throws BadInput with the reason
// (nccl_unavailable_reason()) where NCCL cannot run.
c10::intrusive_ptr<c10d::Backend> make_nccl_backend(const c10::intrusive_ptr<c10d::Store>& store, int rank, int world,
                                                    std::chrono::milliseconds timeout);

}  // namespace trainproof
