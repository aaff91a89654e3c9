// Accumulation weights and early stopping.
#include "trainproof/training/training.h"

#include <stdexcept>

#include "trainproof/core/fault.h"

namespace trainproof {

double accumulation_weight(Accumulation rule, int64_t micro_size, int64_t count, int64_t total) {
  const double by_count = 1.0 / static_cast<double>(count);
  const double by_size = static_cast<double>(micro_size) / static_cast<double>(total);
  switch (rule) {  // each fault computes one rule as another (negative controls, fault.h)
    case Accumulation::kSum:
      return fault_injected("accumulation-sum-divided") ? by_count : 1.0;
    case Accumulation::kDivideByCount:
      if (fault_injected("accumulation-not-divided")) return 1.0;
      return fault_injected("accumulation-count-weighs-by-size") ? by_size : by_count;
    case Accumulation::kWeightBySize:
      return fault_injected("accumulation-size-divides-by-count") ? by_count : by_size;
  }
  throw std::invalid_argument("accumulation_weight: unknown rule");
}

std::vector<torch::optim::OptimizerParamGroup> weight_decay_groups(const torch::nn::Module& model,
                                                                   const torch::optim::AdamWOptions& options) {
  std::vector<torch::Tensor> decay, no_decay;
  const bool everything = fault_injected("weight-decay-on-everything");
  for (const auto& p : model.parameters()) {
    if (!p.requires_grad()) continue;
    (p.dim() >= 2 || everything ? decay : no_decay).push_back(p);
  }
  auto off = std::make_unique<torch::optim::AdamWOptions>(options);
  off->weight_decay(0.0);
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(decay, std::make_unique<torch::optim::AdamWOptions>(options));
  groups.emplace_back(no_decay, std::move(off));
  return groups;
}

OverfitResult overfit_one_batch(const std::function<torch::Tensor()>& loss_of_batch, torch::optim::Optimizer& opt,
                                double threshold, int64_t max_steps) {
  OverfitResult r;
  for (r.steps = 0; r.steps < max_steps; ++r.steps) {
    opt.zero_grad();
    const auto loss = loss_of_batch();
    r.losses.push_back(loss.item<double>());
    if (r.losses.back() < threshold || fault_injected("overfit-check-always-passes")) {
      r.reached = true;
      return r;
    }
    loss.backward();
    opt.step();
  }
  bool any_grad = false;
  for (const auto& g : opt.param_groups())
    for (const auto& p : g.params())
      any_grad = any_grad || (p.grad().defined() && p.grad().abs().sum().item<double>() > 0);
  r.diagnosis =
      !any_grad ? "no gradient reached the parameters: is the loss computed on detached outputs?"
      : r.losses.back() > 0.5 * r.losses.front()
          ? "the loss barely moved: are the labels aligned with the inputs? is the loss fed the right outputs?"
          : "the loss fell but not far enough: more steps or a larger learning rate, or a bug in the model";
  return r;
}

double clip_grad_norm_(const std::vector<torch::Tensor>& parameters, double max_norm) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> grads;
  for (const auto& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return 0.0;
  const torch::Tensor total = torch::linalg_vector_norm(torch::stack(at::_foreach_norm(grads, 2.0)), 2.0);
  // Python's `max_norm / tensor` is tensor.reciprocal() * max_norm (Tensor.__rtruediv__);
  // C++'s `max_norm / tensor` is a true division, which rounds differently.
  const torch::Tensor clip_coef = (total + 1e-6).reciprocal() * max_norm;
  const torch::Tensor clip_coef_clamped = torch::clamp(clip_coef, std::nullopt, 1.0);
  at::_foreach_mul_(grads, clip_coef_clamped);
  return total.item<double>();
}

EarlyStopping::Verdict EarlyStopping::step(double loss) {
  if (loss < best_) {
    best_ = loss;
    bad_epochs_ = 0;
    return Verdict::kNewBest;
  }
  bad_epochs_ += 1;
  const int64_t stop_at = fault_injected("early-stop-patience-off-by-one") ? patience_ + 1 : patience_;
  return bad_epochs_ >= stop_at ? Verdict::kStop : Verdict::kNoImprovement;
}

void EarlyStopping::save(Checkpoint& ck, const std::string& prefix) const {
  ck.put(prefix + "/best", best_);
  ck.put(prefix + "/bad_epochs", bad_epochs_);
}

void EarlyStopping::load(const Checkpoint& ck, const std::string& prefix) {
  best_ = ck.real(prefix + "/best");
  bad_epochs_ = ck.integer(prefix + "/bad_epochs");
}

}  // namespace trainproof
