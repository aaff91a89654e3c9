// Document: "Learning Rate Warmup". LambdaLR with a linear warmup over 100 steps, then a
// cosine down to 0 at step 1000, stepped once per batch.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/lr_scheduler.h"

namespace trainproof {

TRAINPROOF_SCENARIO(warmup_cosine, "Learning Rate Warmup") {
  torch::nn::Linear model(4, 1);
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-3));
  const int64_t kWarmup = 100, kTotal = 1000;
  LambdaLR sched(opt, warmup_cosine(kWarmup, kTotal));

  std::vector<double> lr;
  for (int64_t step = 0; step < kTotal; ++step) {
    lr.push_back(sched.get_last_lr()[0]);
    for (int64_t shown : {0, 49, 99, 100, 325, 550, 775, 999})
      if (step == shown) ctx.print("step {:4d}  lr {:.2e}", step, sched.get_last_lr()[0]);
    opt.step();
    sched.step();  // once per batch
  }
  Trace t;
  // Plain double arithmetic and libm's cos: bitwise, except that another libm may round
  // cos differently in the last place.
  t.add("lr_per_step", DType::kFloat64, lr);
  t.check("peak 1e-3 at the end of warmup", lr[99] == 1e-3, fmt::format("{:.17g}", lr[99]));
  t.check("half the peak at step 550", std::abs(lr[550] - 5e-4) < 1e-15, fmt::format("{:.17g}", lr[550]));
  return t;
}

TRAINPROOF_SCENARIO_INFO(warmup_cosine, .document = kBestPractices,
                         .prints = {"step    0  lr 1.00e-05", "step   49  lr 5.00e-04", "step   99  lr 1.00e-03",
                                    "step  100  lr 1.00e-03", "step  325  lr 8.54e-04", "step  550  lr 5.00e-04",
                                    "step  775  lr 1.46e-04", "step  999  lr 3.05e-09"},
                         .controls = {{"warmup-ramp-starts-at-zero", {"peak 1e-3 at the end of warmup"}},
                                      {"lambda-off-by-one", {"half the peak at step 550"}}});

}  // namespace trainproof
