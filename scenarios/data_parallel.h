// What the data-parallel scenarios share: the rank counts for a scenario's device. On CUDA
// it skips the scenario where NCCL cannot run, and says so when a single GPU leaves one rank.
#pragma once

#include <torch/cuda.h>

#include <vector>

#include "trainproof/distributed/distributed.h"
#include "trainproof/runner/scenario.h"

namespace trainproof {

inline std::vector<int> data_parallel_worlds(RunContext& ctx) {
  if (!ctx.is_cuda()) return data_parallel_worlds(ctx.device(), 0);
  if (const auto why = nccl_unavailable_reason(); !why.empty()) ctx.skip(why);
  const auto worlds = data_parallel_worlds(ctx.device(), static_cast<int>(torch::cuda::device_count()));
  if (worlds == std::vector<int>{1}) ctx.print("one GPU: the NCCL ranks run with N=1 (NCCL runs one rank per GPU)");
  return worlds;
}

}  // namespace trainproof
