// What the ranks of a data-parallel run execute: tasks registered by name, each with a typed
// options struct. The launcher (launch_task) writes the options as JSON; every rank
// (`trainproof ddp-worker`, or ddp-check under torchrun) joins its process group, reads them
// into the task's options type, runs the task, and saves the Checkpoint it returns as
// OUT/rank<r>.tpck. The workloads live in their scenarios (scenarios/ddp_*.cpp); their
// options are declared here, so that the launcher side, ddp-check and the tests share the types.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include "trainproof/training/checkpoint.h"

namespace c10d {
class Backend;
}

namespace trainproof {

// A rank's place in its run.
struct RankContext {
  int rank = 0, world = 1;
  c10d::Backend* group = nullptr;      // joined; every rank calls the same collectives
  torch::Device device = torch::kCPU;  // CPU (Gloo) or the rank's GPU (NCCL)
  std::filesystem::path out;           // the run's folder, shared by every rank
};

using RankTaskFn = std::function<Checkpoint(const RankContext&, const nlohmann::json& options)>;
// Registers `fn` under `name` (TRAINPROOF_RANK_TASK does it at static initialization).
bool register_rank_task(const std::string& name, RankTaskFn fn);
// The task, or BadInput naming the registered ones.
const RankTaskFn& rank_task(const std::string& name);
std::vector<std::string> rank_task_names();

// Runs a registered task in this process, as one rank: options in, the result Checkpoint out.
template <class Options>
Checkpoint run_rank_task(const std::string& name, const RankContext& ctx, const Options& o) {
  return rank_task(name)(ctx, nlohmann::json(o));
}

// How ranks are started by launch_task.
struct LaunchOptions {
  std::string backend = "gloo";  // gloo (CPU) | nccl (rank r on GPU r)
  // Polled while the ranks run: when it returns true, every rank is SIGKILLed at once (a
  // preemption of the whole job) and launch_task returns their outputs.
  std::function<bool()> preempt_when = {};
};

struct RankRun {
  int rank = 0;
  int exit_code = 0;
  std::string output;  // stdout+stderr, every line prefixed "[rank r] "
};

// Starts `trainproof ddp-worker` for every rank of `world` on task `task` with `options`
// (written to DIR/options.json), meeting through a c10d FileStore in DIR; their output folder
// is `out`. Throws BadInput naming the rank when one exits non-zero, is killed, or outlives
// rank_timeout() (then every rank is killed). The CLI is cli_executable() of process.h, so a
// test binary sets TRAINPROOF_BIN.
std::vector<RankRun> launch_task(int world, const std::string& task, const nlohmann::json& options,
                                 const std::filesystem::path& dir, const std::filesystem::path& out,
                                 const LaunchOptions& lo = {});

// How long ranks may take to join, or to finish: $TRAINPROOF_RANK_TIMEOUT_S, default 120 s.
std::chrono::seconds rank_timeout();

// ---- the data-parallel workloads' options (bodies in scenarios/ddp_equivalence.cpp and ddp_resume.cpp)

// Task "grad": one all-reduced gradient (float64 and float32) of the shared test model
// (make_grad_problem) on this rank's shard. Returns grad64 and grad32.
struct GradTaskOptions {
  std::string rule = "mean";  // mean: divide by the world; size: weight by the shard's size (Practice p3)
  bool uneven = false;        // shard sizes 1:2:...:N instead of equal
  int64_t total = 64;         // the global batch
  uint64_t seed = 0;
  NLOHMANN_DEFINE_TYPE_INTRUSIVE_WITH_DEFAULT(GradTaskOptions, rule, uneven, total, seed)
};

// Task "train": data-parallel SGD with dropout, checkpointing to OUT every ckpt_every steps
// (parameters and optimizer once, by rank 0; each rank its RNG state and data position), and
// resuming from the newest complete checkpoint there. Returns the final parameters under
// model/ and resumed_from (the step it resumed at, -1 for none).
struct TrainTaskOptions {
  int64_t steps = 16, ckpt_every = 4;
  std::string sabotage = "none";  // none | drop-rng (the resume forgets the ranks' RNG state)
  int64_t kill_at = -1;           // this rank SIGKILLs itself after that step (a preemption)
  uint64_t seed = 0;
  NLOHMANN_DEFINE_TYPE_INTRUSIVE_WITH_DEFAULT(TrainTaskOptions, steps, ckpt_every, sabotage, kill_at, seed)
};

}  // namespace trainproof

// Defines and registers a rank task: TRAINPROOF_RANK_TASK(train, TrainTaskOptions) { ... }
// with `ctx` (RankContext) and `o` (the options) in scope, returning a Checkpoint.
#define TRAINPROOF_RANK_TASK(name, Options)                                                                            \
  static ::trainproof::Checkpoint trainproof_rank_task_##name(const ::trainproof::RankContext& ctx, const Options& o); \
  [[maybe_unused]] static const bool trainproof_rank_task_registered_##name =                                          \
      ::trainproof::register_rank_task(#name, [](const ::trainproof::RankContext& c, const nlohmann::json& j) {        \
        return trainproof_rank_task_##name(c, j.get<Options>());                                                       \
      });                                                                                                              \
  static ::trainproof::Checkpoint trainproof_rank_task_##name(const ::trainproof::RankContext& ctx, const Options& o)
