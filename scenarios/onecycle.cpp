// Document: "Learning Rate Warmup" (OneCycleLR). Starts at max_lr / 25, rises to max_lr
// over the first 30% of steps, then anneals far below the start; beta1 cycles inversely.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/lr_scheduler.h"

namespace trainproof {

TRAINPROOF_SCENARIO(onecycle, "Learning Rate Warmup: OneCycleLR") {
  torch::nn::Linear model(4, 1);
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-3));
  OneCycleLR sched(opt, OneCycleOptions{.max_lr = 1e-2, .total_steps = 100, .pct_start = 0.3});

  std::vector<double> lr, beta1;
  for (int64_t step = 0; step < 100; ++step) {
    lr.push_back(sched.get_last_lr()[0]);
    auto& o = static_cast<torch::optim::AdamWOptions&>(opt.param_groups()[0].options());
    beta1.push_back(std::get<0>(o.betas()));
    if (step % 15 == 0 || step == 99) ctx.print("step {:3d}  lr {:.2e}", step, sched.get_last_lr()[0]);
    opt.step();
    sched.step();
  }
  Trace t;
  t.add("lr_per_step", DType::kFloat64, lr);
  t.add("beta1_per_step", DType::kFloat64, beta1);
  t.check("starts at max_lr / 25 (ignores the optimizer's lr)", std::abs(lr[0] - 1e-2 / 25) < 1e-15,
          fmt::format("{:.17g}", lr[0]));
  t.check("ends far below the start", lr[99] < lr[0] / 1000, fmt::format("{:.3g}", lr[99]));
  return t;
}

TRAINPROOF_SCENARIO_INFO(onecycle, .document = kBestPractices,
                         .prints = {"step   0  lr 4.00e-04", "step  15  lr 5.46e-03", "step  30  lr 9.99e-03",
                                    "step  45  lr 8.77e-03", "step  60  lr 5.89e-03", "step  75  lr 2.63e-03",
                                    "step  90  lr 4.02e-04", "step  99  lr 4.00e-08"},
                         .controls = {{"onecycle-starts-at-optimizer-lr", {"starts at max_lr / 25"}},
                                      {"onecycle-no-annihilation", {"ends far below the start"}}});

}  // namespace trainproof
