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

double clip_grad_norm_(const std::vector<torch::Tensor>& parameters, double max_norm) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> grads;
  for (const auto& p : parameters)
    if (p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return 0.0;
  const torch::Tensor total = torch::linalg_vector_norm(torch::stack(at::_foreach_norm(grads, 2.0)), 2.0);
  const torch::Tensor clip_coef_clamped = torch::clamp(max_norm / (total + 1e-6), std::nullopt, 1.0);
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
