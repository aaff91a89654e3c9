// Beyond one process: an exact resume for every rank. N ranks (Gloo on CPU, NCCL with one
// GPU a rank on CUDA) train data-parallel SGD with
// dropout and checkpoint (parameters once; each rank its RNG state and data position); all
// of them are SIGKILLed together, restarted, and resumed: the final parameters on every
// rank are bitwise those of the uninterrupted N-rank run. Without the ranks' RNG state the
// dropout masks repeat and the run diverges (the negative control).
#include <torch/torch.h>

#include "scenarios/data_parallel.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/distributed/distributed.h"
#include "trainproof/runner/scenario.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/tensors.h"

namespace trainproof {
namespace {

std::vector<torch::Tensor> finals(int world, const std::filesystem::path& dir) {
  std::vector<torch::Tensor> out;
  for (int r = 0; r < world; ++r) out.push_back(final_parameters(dir / fmt::format("final-rank{}.tpck", r)));
  return out;
}

std::vector<std::string> train_args(const c10::Device& device, const std::filesystem::path& out, const char* sabotage) {
  return {"--backend", backend_for(device), "--task",     "train", "--steps", "24", "--ckpt-every", "4",
          "--out",     out.string(),        "--sabotage", sabotage};
}

struct Run {
  std::vector<torch::Tensor> params;  // final parameters, one per rank
  bool resumed_mid_run = false;       // every rank restarted from a checkpoint before the end
};

// Train uninterrupted; or kill every rank once all have saved the step-12 checkpoint, then
// restart them all and let them resume.
Run run(const c10::Device& device, int world, bool preempt, const char* sabotage) {
  TempDir dir("ddp-resume");
  const auto out = dir.path() / "ckpt";
  std::filesystem::create_directories(out);
  Run r;
  if (preempt)
    launch_ranks(world, train_args(device, out, sabotage), dir.path() / "first", "saved checkpoint at step 12");
  const auto second = launch_ranks(world, train_args(device, out, sabotage), dir.path() / "second");
  r.resumed_mid_run = preempt;
  for (const auto& rank : second) {
    const auto at = rank.output.find("resumed at step ");
    r.resumed_mid_run = r.resumed_mid_run && at != std::string::npos && std::stoll(rank.output.substr(at + 16)) < 24;
  }
  r.params = finals(world, out);
  return r;
}

bool all_equal(const std::vector<torch::Tensor>& got, const torch::Tensor& want) {
  for (const auto& g : got)
    if (!bitwise_equal(g, want)) return false;
  return true;
}

}  // namespace

TRAINPROOF_SCENARIO(ddp_resume, "Beyond one process: exact resume on every rank (Gloo; NCCL on GPUs)") {
  const auto device = ctx.device();
  const auto worlds = data_parallel_worlds(ctx);
  Trace t;
  for (const int world : worlds) {
    const auto uninterrupted = run(device, world, false, "none").params;
    const Run resumed_run = run(device, world, true, "none");
    const auto& resumed = resumed_run.params;
    const bool ranks_agree = all_equal(uninterrupted, uninterrupted[0]);
    const bool exact = all_equal(resumed, uninterrupted[0]);
    ctx.print("world {}: killed after step 12 and resumed == uninterrupted, bitwise on every rank: {}", world,
              exact ? "True" : "False");
    // Float32 SGD on 16 x 8 shards: bitwise here; another CPU may round the matmuls differently.
    record(t, fmt::format("params_world{}", world), uninterrupted[0]);
    t.check(fmt::format("world {}: every rank holds the same parameters", world), ranks_agree, "");
    t.check(fmt::format("world {}: the kill landed mid-run (every rank resumed before the last step)", world),
            resumed_run.resumed_mid_run, "");
    t.check(fmt::format("world {}: resumed == uninterrupted on every rank (bitwise)", world), exact, "");
    if (world == worlds.front()) {
      const bool without_rng = all_equal(run(device, world, true, "drop-rng").params, uninterrupted[0]);
      ctx.print("world {}: resumed without the ranks' RNG state == uninterrupted: {}", world,
                without_rng ? "True" : "False");
      t.check("negative control: a resume without the ranks' RNG state diverges", !without_rng, "");
    }
  }
  return t;
}

TRAINPROOF_SCENARIO_INFO(ddp_resume, .document = kBeyondTheDocuments, .multi_process = true,
                         .controls = {{"rank1-skips-allreduce", {"every rank holds the same parameters"}},
                                      {"resume-ignores-checkpoints", {"the kill landed mid-run"}},
                                      {"resume-drops-optimizer-state", {"resumed == uninterrupted on every rank"}},
                                      {"dropout-left-in-eval-mode", {"without the ranks' RNG state diverges"}}});

}  // namespace trainproof
