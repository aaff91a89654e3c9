// Data-parallel runs on PyTorch's own distributed engine (c10d process groups: Gloo on
// CPU, NCCL on CUDA): a launcher that starts N rank processes of this executable, rendezvousing through a
// c10d FileStore, with a timeout and an error naming any rank that dies or hangs; and the
// rank side, which all-reduces gradients.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <torch/torch.h>

namespace trainproof {

struct RankRun {
  int rank = 0;
  int exit_code = 0;
  std::string output;  // stdout+stderr, every line prefixed "[rank r] "
};

// Runs `trainproof ddp-worker --rank r --world N --store DIR/store <args...>` for every rank
// (trainproof: cli_executable() of process.h, so a test binary sets TRAINPROOF_BIN).
// Throws BadInput naming the rank when one exits non-zero, is killed, or outlives `timeout`
// (then every rank is killed). Returns the ranks' outputs.
// The default timeout is 120 s, or $TRAINPROOF_RANK_TIMEOUT_S. With `kill_when_all_print`,
// every rank is SIGKILLed as soon as all of them have printed that line (a preemption).
std::vector<RankRun> launch_ranks(int world, const std::vector<std::string>& args, const std::filesystem::path& dir,
                                  const std::string& kill_when_all_print = "");

// The rank side of `ddp-worker`: joins the process group and runs TASK, writing its results
// to OUT/rank<r>.tpck. Tasks: "grad" (one data-parallel gradient of the shared test model),
// "train" (data-parallel SGD with dropout, checkpointing to OUT every ckpt_every steps:
// parameters and optimizer once, by rank 0; each rank its RNG state and data position; it
// resumes from the newest complete checkpoint and writes OUT/final-rank<r>.tpck).
struct WorkerOptions {
  int rank = 0, world = 1;
  std::string store, task = "grad", rule = "mean", out;
  std::string backend = "gloo";        // gloo (CPU tensors) | nccl (rank r on GPU r)
  int64_t steps = 16, ckpt_every = 4;  // task "train"
  std::string sabotage = "none";       // task "train": none | drop-rng
  int64_t total = 64;                  // global batch
  bool uneven = false;                 // shard sizes differ between ranks
  uint64_t seed = 0;
};
int ddp_worker_main(const WorkerOptions& o);

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

}  // namespace trainproof
