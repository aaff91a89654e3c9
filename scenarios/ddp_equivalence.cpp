// Beyond one process: the accumulation laws across ranks. N ranks (each a process; Gloo on
// CPU, NCCL with one GPU a rank on CUDA) compute gradients on their shards of one global batch and all-reduce them; the
// result equals the single-process full-batch gradient and N-step accumulation for even shards, and for uneven shards
// only with Practice p3's weighting by shard size.
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
#include "trainproof/training/training.h"

namespace trainproof {

// Every rank: the gradient of its shard of one global batch, weighted by `o.rule`, all-reduced.
TRAINPROOF_RANK_TASK(grad, GradTaskOptions) {
  GradProblem p = make_grad_problem(o.total, o.seed, ctx.device);
  const auto b = shard_bounds(o.total, ctx.world, o.uneven);
  // The classic mistake, as a negative control: no DistributedSampler, every rank reads shard 0.
  const int shard = fault_injected("ranks-read-the-same-shard") ? 0 : ctx.rank;
  const int64_t lo = b[shard], hi = b[shard + 1];
  const auto rule = o.rule == "size" ? Accumulation::kWeightBySize : Accumulation::kDivideByCount;
  const double w = accumulation_weight(rule, hi - lo, ctx.world, o.total);
  Checkpoint result;
  for (auto* m : {&p.model64, &p.model32}) {
    auto& model = *m;
    const bool f64 = model->weight.scalar_type() == torch::kDouble;
    const auto X = f64 ? p.X : p.X.to(torch::kFloat);
    (torch::nn::functional::cross_entropy(model(X.slice(0, lo, hi)), p.y.slice(0, lo, hi)) * w).backward();
    // The negative control: a rank that skips the all-reduce keeps its local gradient (it
    // still joins the collective with a copy, so the other ranks are not left waiting).
    const bool skip = fault_injected(fmt::format("rank{}-skips-allreduce", ctx.rank));
    std::vector<at::Tensor> grads = {skip ? model->weight.grad().clone() : model->weight.grad()};
    ctx.group->allreduce(grads)->wait();
    result.put(f64 ? "grad64" : "grad32", model->weight.grad().cpu());
  }
  fmt::print("rank {} of {}: shard [{}, {}), gradient all-reduced\n", ctx.rank, ctx.world, lo, hi);
  return result;
}

namespace {

constexpr int64_t kTotal = 64;
constexpr uint64_t kSeed = 0;

// The data-parallel gradients (float64 and float32) of `world` ranks under `rule`.
std::pair<torch::Tensor, torch::Tensor> data_parallel(const c10::Device& device, int world, bool uneven,
                                                      const char* rule) {
  TempDir dir("ddp");
  launch_task(world, "grad", GradTaskOptions{.rule = rule, .uneven = uneven, .total = kTotal, .seed = kSeed},
              dir.path(), dir.path(), {.backend = backend_for(device)});
  const Checkpoint r0 = Checkpoint::load(dir.path() / "rank0.tpck");
  for (int r = 1; r < world; ++r) {  // every rank holds the same all-reduced gradient
    const Checkpoint rr = Checkpoint::load(dir.path() / fmt::format("rank{}.tpck", r));
    if (!bitwise_equal(rr.tensor("grad64"), r0.tensor("grad64")) ||
        !bitwise_equal(rr.tensor("grad32"), r0.tensor("grad32")))
      throw std::runtime_error(fmt::format("rank {} holds a different all-reduced gradient than rank 0", r));
  }
  return {r0.tensor("grad64"), r0.tensor("grad32")};
}

}  // namespace

TRAINPROOF_SCENARIO(ddp_equivalence, "Beyond one process: accumulation laws across ranks (Gloo; NCCL on GPUs)") {
  const auto device = ctx.device();
  const auto worlds = data_parallel_worlds(ctx);
  Trace t;
  const auto [full64, full32] = reference_gradients(device, kTotal, kSeed, 1, false, false);
  record(t, "grad_full_batch_float64", full64);
  for (const int world : worlds) {
    const auto [dp64, dp32] = data_parallel(device, world, false, "mean");
    const auto [acc64, acc32] = reference_gradients(device, kTotal, kSeed, world, false, true);
    const bool f32 = torch::allclose(dp32, full32, 1e-5, 1e-6), f64 = torch::allclose(dp64, full64, 1e-12, 1e-14);
    const bool acc = torch::allclose(dp64, acc64, 1e-12, 1e-14);
    ctx.print(
        "world {}, even shards:   all-reduced gradient matches the full batch: {} (float32 max abs diff {:.2g}, "
        "float64 {:.2g}); "
        "equals {}-step accumulation: {}",
        world, f32 && f64 ? "True" : "False", (dp32 - full32).abs().max().item<double>(),
        (dp64 - full64).abs().max().item<double>(), world, acc ? "True" : "False");
    // Summation order differs between ranks and one process: float64 to ~1e-16, not bitwise.
    record(t, fmt::format("grad_world{}_even_float64", world), dp64);
    t.check(fmt::format("world {} even: matches the full batch (float32 allclose, float64 to 1e-12)", world),
            f32 && f64, "");
    t.check(fmt::format("world {} even: equals {}-step accumulation", world, world), acc, "");

    if (world == 1) {
      ctx.print("world 1: one shard, so no uneven shards to weigh");
      continue;
    }
    const auto [mean64, mean32] = data_parallel(device, world, true, "mean");
    const auto [size64, size32] = data_parallel(device, world, true, "size");
    const bool mean_ok = torch::allclose(mean64, full64, 1e-12, 1e-14),
               size_ok = torch::allclose(size64, full64, 1e-12, 1e-14);
    ctx.print("world {}, uneven shards: divide by world matches: {}  weight by size matches: {}", world,
              mean_ok ? "True" : "False", size_ok ? "True" : "False");
    record(t, fmt::format("grad_world{}_uneven_by_size_float64", world), size64);
    t.check(fmt::format("world {} uneven: dividing by the world size does not match", world), !mean_ok, "");
    t.check(fmt::format("world {} uneven: weighting by shard size matches", world), size_ok, "");
  }
  return t;
}

TRAINPROOF_SCENARIO_INFO(ddp_equivalence, .document = kBeyondTheDocuments, .multi_process = true,
                         .controls = {
                             {"ranks-read-the-same-shard",
                              {"even: matches the full batch", "even: equals", "weighting by shard size matches"}},
                             {"accumulation-count-weighs-by-size", {"dividing by the world size does not match"}}});

}  // namespace trainproof
