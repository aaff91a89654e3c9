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

namespace c10d {
class Backend;
}

namespace trainproof {

// A rank's place in a job started the standard way: torchrun's environment (RANK,
// WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_*), or SLURM's (SLURM_PROCID,
// SLURM_NTASKS, SLURM_LOCALID, with MASTER_ADDR and MASTER_PORT from the job script).
struct LaunchEnv {
  int rank = 0, world = 1, local_rank = 0;
  std::string master_addr;
  int master_port = 0;
  std::string launcher;      // "torchrun" or "slurm"
  bool agent_store = false;  // torchrun's agent hosts the TCPStore (TORCHELASTIC_USE_AGENT_STORE)
  int restart_count = 0;     // TORCHELASTIC_RESTART_COUNT: how often the group was restarted
  int max_restarts = 0;      // TORCHELASTIC_MAX_RESTARTS
};
// The rank side of `ddp-worker`: joins the process group and runs the registered task
// (rank_task.h) with its options, saving what it returns as OUT/rank<r>.tpck.
struct WorkerOptions {
  int rank = 0, world = 1;
  std::string store;  // our launcher's FileStore; empty: torchrun's or srun's environment names a TCPStore
  std::string task = "grad";
  std::string options = "{}";    // the task's options as JSON, or @FILE holding them
  std::string out;               // the run's folder
  std::string backend = "gloo";  // gloo (CPU tensors) | nccl (rank r on GPU r)
  std::optional<LaunchEnv> env;  // set by ddp_worker_main from the environment when `store` is empty
};
int ddp_worker_main(const WorkerOptions& o);

// Reads it through `get` (std::getenv in use; a map in tests). nullopt when neither launcher's
// variables are set; BadInput naming the variable when one is missing or malformed.
std::optional<LaunchEnv> launch_env(const std::function<const char*(const char*)>& get);

// `trainproof ddp-check`, run by every rank of a torchrun or srun job: the data-parallel laws
// on this job's ranks (all-reduced gradients = the full batch = N-step accumulation, uneven
// shards weighed by size, the same gradient on every rank, and the goldens' values), and,
// where the launcher restarts a failed group (torchrun --max-restarts >= 1), exact resume
// after a rank is SIGKILLed. Each rank prints its verdict; rank 0 gathers every rank's through
// the store and writes the combined result. Exit 0 all laws hold, 1 one is broken, 2 bad input.
// Gloo on the CPU only (NCCL ranks under torchrun are not built yet).
struct DdpCheckOptions {
  std::filesystem::path run_dir;  // checkpoints of the resume law; shared by all ranks (one filesystem)
  std::filesystem::path out;      // the combined result (JSON), written by rank 0; may be empty
  std::filesystem::path golden;   // ddp_equivalence's golden; empty: no golden comparison
  int64_t steps = 16, ckpt_every = 4, kill_at = 6;
  uint64_t seed = 0;
};
int ddp_check_main(const DdpCheckOptions& o);

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
