// Runs a scheduler over a one-parameter AdamW and collects its rates.
#include "trainproof/training/lr_curve.h"

#include <stdexcept>

#include <fmt/format.h>

#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/optim.h"

namespace trainproof {
namespace {

template <class Scheduler>
std::vector<double> per_step(torch::optim::Optimizer& opt, Scheduler& sched, int64_t steps) {
  std::vector<double> lrs;
  for (int64_t i = 0; i < steps; ++i) {
    lrs.push_back(sched.get_last_lr()[0]);
    opt.step();
    sched.step();
  }
  return lrs;
}

}  // namespace

std::vector<double> lr_curve(const LrCurveSpec& s) {
  torch::nn::Linear model(4, 1);
  AdamW opt(model->parameters(), torch::optim::AdamWOptions(s.lr));
  if (s.kind == "warmup-cosine") {
    if (s.warmup <= 0 || s.total <= s.warmup)
      throw std::invalid_argument(
          fmt::format("warmup-cosine: need 0 < --warmup < --total, got {} and {}", s.warmup, s.total));
    LambdaLR sched(opt, warmup_cosine(s.warmup, s.total));
    return per_step(opt, sched, s.total);
  }
  if (s.kind == "warmup-linear") {
    const auto sched = warmup_linear_sequential(opt, s.warmup, s.total);
    return per_step(opt, *sched, s.total);
  }
  if (s.kind == "onecycle") {
    OneCycleLR sched(opt, s.onecycle);
    return per_step(opt, sched, s.onecycle.total_steps);
  }
  if (s.kind == "cosine") {
    CosineAnnealingLR sched(opt, s.t_max, s.eta_min);
    return per_step(opt, sched, s.steps);
  }
  if (s.kind == "step") {
    StepLR sched(opt, s.step_size, s.gamma);
    return per_step(opt, sched, s.steps);
  }
  if (s.kind == "plateau") {
    ReduceLROnPlateau sched(opt, s.plateau);
    std::vector<double> lrs;
    for (double m : s.metrics) {
      sched.step(m);
      lrs.push_back(sched.get_last_lr()[0]);
    }
    return lrs;
  }
  throw std::invalid_argument(fmt::format("unknown scheduler kind '{}'", s.kind));
}

}  // namespace trainproof
