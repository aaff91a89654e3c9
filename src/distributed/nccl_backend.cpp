// The NCCL process group (see nccl_backend.h); compiled only where CMake found a CUDA
// LibTorch, its ProcessGroupNCCL header and nccl.h.
#define USE_C10D_NCCL 1
#include "src/distributed/nccl_backend.h"

#include <c10/cuda/CUDAFunctions.h>
#include <fmt/format.h>
#include <torch/cuda.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include "trainproof/core/errors.h"
#include "trainproof/distributed/distributed.h"

namespace trainproof {

std::string nccl_unavailable_reason() {
  if (!torch::cuda::is_available()) return "NCCL ranks need a CUDA device, and this machine has none";
  return "";
}

void make_nccl_backend(const c10::intrusive_ptr<c10d::Store>& store, int rank, int world,
                       std::chrono::milliseconds timeout, c10::intrusive_ptr<c10d::Backend>& group) {
  if (const auto why = nccl_unavailable_reason(); !why.empty()) throw BadInput(why);
  const int gpus = static_cast<int>(torch::cuda::device_count());
  if (rank >= gpus)
    throw BadInput(fmt::format("NCCL rank {} of {} needs GPU {}, and this machine has {} (NCCL runs one rank per GPU)",
                               rank, world, rank, gpus));
  c10::cuda::set_device(static_cast<c10::DeviceIndex>(rank));
  auto opts = c10d::ProcessGroupNCCL::Options::create();
  opts->timeout = timeout;
  group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world, opts);
}

}  // namespace trainproof
