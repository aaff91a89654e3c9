// Data-parallel runs on PyTorch's own distributed engine (c10d process groups: Gloo on
// CPU, NCCL on CUDA): the rank side of a run (ddp-worker, ddp-check under torchrun or srun),
// the shared test problem, and the launch environment. The launcher and the tasks ranks run
// are in rank_task.h.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "trainproof/distributed/ddp_main.h"

namespace c10d {
class Backend;
}

namespace trainproof {

// The process-group backend of ranks on `device`: "gloo" on CPU, "nccl" on CUDA.
std::string backend_for(const c10::Device& device);

// Empty where NCCL ranks can run (a build with NCCL on a machine with a GPU); otherwise why
// not, the reason a data-parallel scenario on CUDA skips with.
std::string nccl_unavailable_reason();

// The rank counts a data-parallel scenario runs: 2 and 4 rank processes on CPU; on CUDA one
// rank per GPU, so those of 2 and 4 that fit in `gpus`, or 1 on a single-GPU machine.
std::vector<int> data_parallel_worlds(const c10::Device& device, int gpus);

// Shard boundaries of a global batch of `total` over `world` ranks: equal sizes, or (uneven)
// sizes that differ on purpose (rank r gets a share proportional to r + 1).
std::vector<int64_t> shard_bounds(int64_t total, int world, bool uneven);

// The shared test model and data: a float64 and a float32 linear classifier and a global
// batch, all from `seed`, so every rank and the single-process reference see the same;
// placed on `device`.
struct GradProblem {
  torch::Tensor X, y;
  torch::nn::Linear model64{nullptr}, model32{nullptr};
};
GradProblem make_grad_problem(int64_t total, uint64_t seed, const c10::Device& device = torch::kCPU);

// The same gradients in one process on `device`: the full batch, or `world`-step accumulation
// over the shards of shard_bounds (divided by the count). Float64 and float32, on the CPU.
std::pair<torch::Tensor, torch::Tensor> reference_gradients(const c10::Device& device, int64_t total, uint64_t seed,
                                                            int world, bool uneven, bool accumulate);

// The final parameters in a rank's result of task "train" (rank<r>.tpck, keys model/...),
// flattened into one, in key order: what an exact resume must reproduce bit for bit.
torch::Tensor final_parameters(const std::filesystem::path& file);

}  // namespace trainproof
