// Beyond one process: an exact resume for every rank. N ranks (Gloo on CPU, NCCL with one
// GPU a rank on CUDA) train data-parallel SGD with
// dropout and checkpoint (parameters once; each rank its RNG state and data position); all
// of them are SIGKILLed together, restarted, and resumed: the final parameters on every
// rank are bitwise those of the uninterrupted N-rank run. Without the ranks' RNG state the
// dropout masks repeat and the run diverges (the negative control).
#include <csignal>
#include <filesystem>

#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/Backend.hpp>

#include "scenarios/data_parallel.h"
#include "trainproof/core/fault.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/distributed/distributed.h"
#include "trainproof/distributed/rank_task.h"
#include "trainproof/runner/scenario.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training_state.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

// The checkpoint files of step `step` in the run folder: the parameters once, and each rank's own.
fs::path params_file(const fs::path& dir, int64_t step) {
  return dir / fmt::format("params-{:08d}.tpck", step);
}
fs::path rank_file(const fs::path& dir, int rank, int64_t step) {
  return dir / fmt::format("rank{}-{:08d}.tpck", rank, step);
}

}  // namespace

// Every rank: data-parallel SGD with dropout that checkpoints and resumes, as a preemptible job does.
TRAINPROOF_RANK_TASK(train, TrainTaskOptions) {
  const fs::path dir = ctx.out;
  const auto device = ctx.device;
  auto gen = at::detail::createCPUGenerator(o.seed);
  const auto X = torch::randn({256, 8}, gen).to(device), y = torch::randint(0, 3, {256}, gen).to(device);
  torch::manual_seed(static_cast<int64_t>(o.seed));  // the same initial weights on every rank
  auto fc1 = torch::nn::Linear(8, 16);
  auto relu = torch::nn::ReLU();
  auto drop = torch::nn::Dropout(0.2);
  auto fc2 = torch::nn::Linear(16, 3);
  torch::nn::Sequential model(fc1, relu, drop, fc2);
  model->to(device);
  if (fault_injected("dropout-left-in-eval-mode")) model->eval();  // the masks stop mattering
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  torch::manual_seed(static_cast<int64_t>(o.seed * 1000 + ctx.rank + 1));  // each rank its own dropout masks
  const int64_t batch = 32, per_epoch = 256 / batch;
  int64_t step = 0, resumed_from = -1;
  // The parameters and the optimizer once (rank 0 writes them); each rank its RNG state and
  // its data position.
  const TrainingState shared{.model = model.get(), .optimizer = &opt, .rng = false};
  const TrainingState own{.rng = true, .position = {{"step", &step}}};

  // Resume from the newest step whose files are all present: parameters once, and every rank's own.
  std::vector<int64_t> saved;
  if (fs::exists(dir) && !fault_injected("resume-ignores-checkpoints"))
    for (const auto& e : fs::directory_iterator(dir)) {
      const auto n = e.path().filename().string();
      if (n.rfind("params-", 0) == 0 && e.path().extension() == ".tpck") saved.push_back(std::stoll(n.substr(7, 8)));
    }
  std::sort(saved.rbegin(), saved.rend());
  for (int64_t s : saved) {
    bool complete = true;
    for (int r = 0; r < ctx.world; ++r) complete = complete && fs::exists(rank_file(dir, r, s));
    if (!complete) continue;
    shared.load(Checkpoint::load(params_file(dir, s)));
    own.load(Checkpoint::load(rank_file(dir, ctx.rank, s)), o.sabotage == "drop-rng" ? TrainingState::kRng : 0u);
    resumed_from = step;
    fmt::print("rank {} resumed at step {}\n", ctx.rank, step);
    break;
  }

  const auto shard = shard_bounds(batch, ctx.world, false);
  for (; step < o.steps;) {
    const int64_t epoch = step / per_epoch, within = step % per_epoch;
    auto order_gen = at::detail::createCPUGenerator(o.seed + 7919 * static_cast<uint64_t>(epoch + 1));
    const auto perm = torch::randperm(256, order_gen, torch::kLong);
    const auto idx = perm.slice(0, within * batch + shard[ctx.rank], within * batch + shard[ctx.rank + 1]).to(device);
    opt.zero_grad();
    (torch::nn::functional::cross_entropy(model->forward(X.index_select(0, idx)), y.index_select(0, idx)) /
     static_cast<double>(ctx.world))
        .backward();
    const bool skip = fault_injected(fmt::format("rank{}-skips-allreduce", ctx.rank));
    for (auto& p : model->parameters()) {  // average the gradients across ranks
      std::vector<at::Tensor> one = {skip ? p.grad().clone() : p.grad()};
      ctx.group->allreduce(one)->wait();
    }
    opt.step();
    ++step;
    if (step == o.kill_at) {  // a preemption: this rank dies mid-run, without a checkpoint
      fmt::print("rank {} SIGKILLs itself at step {}\n", ctx.rank, step);
      std::fflush(stdout);
      std::raise(SIGKILL);
    }
    if (step % o.ckpt_every == 0) {
      Checkpoint mine;
      own.save(mine);
      mine.save(rank_file(dir, ctx.rank, step));
      if (ctx.rank == 0) {
        Checkpoint params;
        shared.save(params);
        params.save(params_file(dir, step));
      }
      ctx.group->barrier()->wait();  // a checkpoint counts once every rank has written its part
      fmt::print("saved checkpoint at step {}\n", step);
      std::fflush(stdout);
    }
  }
  Checkpoint result;
  save_module(result, "model", *model);
  result.put("resumed_from", resumed_from);
  fmt::print("rank {} finished {} steps\n", ctx.rank, step);
  return result;
}

namespace {

constexpr int64_t kSteps = 24, kKillAfter = 12;

struct Run {
  std::vector<torch::Tensor> params;  // final parameters, one per rank
  bool resumed_mid_run = false;       // every rank restarted from a checkpoint before the end
};

// Train uninterrupted; or kill every rank once all have saved the step-12 checkpoint, then
// restart them all and let them resume.
Run run(const c10::Device& device, int world, bool preempt, const char* sabotage) {
  TempDir dir("ddp-resume");
  const auto out = dir.path() / "ckpt";
  const TrainTaskOptions o{.steps = kSteps, .ckpt_every = 4, .sabotage = sabotage};
  const auto all_saved = [&] {  // every rank's part of the step-12 checkpoint is on disk
    if (!fs::exists(params_file(out, kKillAfter))) return false;
    for (int r = 0; r < world; ++r)
      if (!fs::exists(rank_file(out, r, kKillAfter))) return false;
    return true;
  };
  if (preempt)
    launch_task(world, "train", o, dir.path() / "first", out,
                {.backend = backend_for(device), .preempt_when = all_saved});
  launch_task(world, "train", o, dir.path() / "second", out, {.backend = backend_for(device)});
  Run r;
  r.resumed_mid_run = preempt;
  for (int rank = 0; rank < world; ++rank) {
    const fs::path result = out / fmt::format("rank{}.tpck", rank);
    const int64_t from = Checkpoint::load(result).integer("resumed_from");
    r.resumed_mid_run = r.resumed_mid_run && from >= 0 && from < kSteps;
    r.params.push_back(final_parameters(result));
  }
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
  t.differ_across_devices(kDeviceDropout);  // the model trains with dropout
  return t;
}

TRAINPROOF_SCENARIO_INFO(ddp_resume, .document = kBeyondTheDocuments, .multi_process = true,
                         .controls = {{"rank1-skips-allreduce", {"every rank holds the same parameters"}},
                                      {"resume-ignores-checkpoints", {"the kill landed mid-run"}},
                                      {"resume-drops-optimizer-state", {"resumed == uninterrupted on every rank"}},
                                      {"dropout-left-in-eval-mode", {"without the ranks' RNG state diverges"}}});

}  // namespace trainproof
