// Document: the training loop, "Learning Rate Schedules" (linear warmup followed by linear
// decay) and "Common Mistakes: Stepping the Scheduler Incorrectly". The schedule two ways,
// LambdaLR with a function and LinearLR -> LinearLR chained in SequentialLR; both must give
// the intended curve at every step, which a scheduler stepped once per epoch does not.
#include <cmath>

#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/optim.h"

namespace trainproof {

TRAINPROOF_SCENARIO(warmup_linear, "Learning Rate Schedules: warmup then linear decay") {
  constexpr int64_t kWarmup = 100, kTotal = 1000, kBatchesPerEpoch = 10;
  constexpr double kLr = 1e-3;
  AdamW opt_a(torch::nn::Linear(4, 1)->parameters(), torch::optim::AdamWOptions(kLr));
  AdamW opt_b(torch::nn::Linear(4, 1)->parameters(), torch::optim::AdamWOptions(kLr));
  LambdaLR lambda(opt_a, warmup_linear(kWarmup, kTotal));
  const auto sequential = warmup_linear_sequential(opt_b, kWarmup, kTotal);
  // The mistake: a per-step scheduler stepped once per epoch of 10 batches.
  const bool per_epoch = fault_injected("scheduler-stepped-per-epoch");

  std::vector<double> lrs_lambda, lrs_sequential;
  double worst_lambda = 0, worst_sequential = 0;
  for (int64_t step = 0; step < kTotal; ++step) {
    const double intended = kLr * (step < kWarmup ? static_cast<double>(step + 1) / kWarmup
                                                  : static_cast<double>(kTotal - step) / (kTotal - kWarmup));
    lrs_lambda.push_back(lambda.get_last_lr()[0]);
    lrs_sequential.push_back(sequential->get_last_lr()[0]);
    worst_lambda = std::max(worst_lambda, std::abs(lrs_lambda.back() - intended) / intended);
    worst_sequential = std::max(worst_sequential, std::abs(lrs_sequential.back() - intended) / intended);
    opt_a.step();
    opt_b.step();
    if (!per_epoch || (step + 1) % kBatchesPerEpoch == 0) {
      lambda.step();
      sequential->step();
    }
  }
  for (const int64_t s : {0, 49, 99, 100, 325, 550, 775, 999})
    ctx.print("step {:4d}  lr {:.2e}  (SequentialLR {:.2e})", s, lrs_lambda[s], lrs_sequential[s]);

  Trace t;
  t.add("lr_per_step_lambda", DType::kFloat64, lrs_lambda);
  t.add("lr_per_step_sequential", DType::kFloat64, lrs_sequential);
  t.check("LambdaLR(warmup_linear): the intended curve at every step", worst_lambda < 1e-12,
          fmt::format("worst relative error {:.3g}", worst_lambda));
  t.check("SequentialLR(LinearLR, LinearLR): the intended curve at every step", worst_sequential < 1e-12,
          fmt::format("worst relative error {:.3g}", worst_sequential));
  return t;
}

TRAINPROOF_SCENARIO_INFO(warmup_linear, .document = kTrainingLoop,
                         .controls = {{"scheduler-stepped-per-epoch", {"LambdaLR(warmup_linear)", "SequentialLR"}}});

}  // namespace trainproof
