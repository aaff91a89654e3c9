// The two entry points a rank process runs, torch-free so the CLI that parses their options
// does not compile LibTorch: `ddp-worker` (a rank our launcher started) and `ddp-check` (every
// rank of a torchrun or srun job). The machinery is in distributed.h and rank_task.h.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "trainproof/core/progress.h"
#include "trainproof/report/report.h"

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
  ProgressSink progress;         // "rank 1 of 4 joined the gloo group on cpu" (into the rank's log)
};
int ddp_worker_main(const WorkerOptions& o);

// Reads it through `get` (std::getenv in use; a map in tests). nullopt when neither launcher's
// variables are set; BadInput naming the variable when one is missing or malformed.
std::optional<LaunchEnv> launch_env(const std::function<const char*(const char*)>& get);

// `trainproof ddp-check`, run by every rank of a torchrun or srun job: the data-parallel laws
// on this job's ranks (all-reduced gradients = the full batch = N-step accumulation, uneven
// shards weighed by size, the same gradient on every rank, and the goldens' values), and,
// where the launcher restarts a failed group (torchrun --max-restarts >= 1), exact resume
// after a rank is SIGKILLed. Each rank returns its verdict; rank 0 gathers every rank's through
// the store into one report, which the reporters render (--json, --junit, ...). Gloo on the CPU
// only (NCCL ranks under torchrun are not built yet).
struct DdpCheckOptions {
  std::filesystem::path run_dir;  // checkpoints of the resume law; shared by all ranks (one filesystem)
  std::filesystem::path golden;   // ddp_equivalence's golden; empty: no golden comparison
  int64_t steps = 16, ckpt_every = 4, kill_at = 6;
  uint64_t seed = 0;
};
// What ddp-check found on one rank: a law per entry (kind "invariant"; pass is "held", BROKEN,
// or skipped where the launcher cannot show it) and, on rank 0, the golden's series (kind
// "series", as verify and check --golden report them); on rank 0 also every rank's, gathered.
struct DdpCheckReport {
  LaunchEnv env;  // this rank's
  std::string host;
  std::vector<ReportEntry> laws;      // this rank's laws and series
  std::optional<VerifyReport> ranks;  // rank 0 only: every rank's, device "rank R (HOST)"
};
// A row's status as each rank prints it and sends it to rank 0 (its name: ReportEntry::heading()):
// law_status_text()'s (verdict/outcome.h): "held", "BROKEN" or "skipped".
const char* ddp_row_status(const ReportEntry& row);
DdpCheckReport ddp_check(const DdpCheckOptions& o);

}  // namespace trainproof
