// Python's single-tensor AdamW step, line for line.
#include "trainproof/training/optim.h"

#include <cmath>

#include "trainproof/core/fault.h"

namespace trainproof {

torch::Tensor AdamW::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  const bool ignore_decay = fault_injected("adamw-ignores-weight-decay");
  for (auto& group : param_groups_) {
    auto& options = static_cast<torch::optim::AdamWOptions&>(group.options());
    const double lr = options.lr(), weight_decay = options.weight_decay(), eps = options.eps();
    const auto [beta1, beta2] = options.betas();
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      const auto& grad = p.grad();
      TORCH_CHECK(!grad.is_sparse(), "AdamW does not support sparse gradients");
      auto it = state_.find(p.unsafeGetTensorImpl());
      if (it == state_.end()) {
        auto s = std::make_unique<torch::optim::AdamWParamState>();
        s->step(0);
        s->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        s->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        if (options.amsgrad()) s->max_exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        it = state_.emplace(p.unsafeGetTensorImpl(), std::move(s)).first;
      }
      auto& state = static_cast<torch::optim::AdamWParamState&>(*it->second);
      state.step(state.step() + 1);
      auto& exp_avg = state.exp_avg();
      auto& exp_avg_sq = state.exp_avg_sq();

      if (weight_decay != 0 && !ignore_decay) p.mul_(1 - lr * weight_decay);  // decoupled weight decay
      exp_avg.lerp_(grad, 1 - beta1);
      exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2);

      // Python keeps the step count in a float32 tensor and reads it back as a float.
      const double step = static_cast<double>(static_cast<float>(state.step()));
      const double bias_correction1 = 1 - std::pow(beta1, step);
      const double bias_correction2 = 1 - std::pow(beta2, step);
      const double step_size = lr / bias_correction1;
      const double bias_correction2_sqrt = std::pow(bias_correction2, 0.5);
      torch::Tensor denom;
      if (options.amsgrad()) {
        auto& max_exp_avg_sq = state.max_exp_avg_sq();
        torch::maximum_out(max_exp_avg_sq, max_exp_avg_sq, exp_avg_sq);
        denom = (max_exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps);
      } else {
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps);
      }
      p.addcdiv_(exp_avg, denom, -step_size);
    }
  }
  return loss;
}

}  // namespace trainproof
