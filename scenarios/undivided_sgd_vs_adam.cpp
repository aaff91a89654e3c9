// Document: "Gradient Accumulation": "For SGD that is the same as silently multiplying the
// learning rate by four; Adam and AdamW partly cancel a constant factor, which hides the
// bug rather than fixing it." Four micro-batches of 16, three optimizer steps each way.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"

namespace trainproof {

TRAINPROOF_SCENARIO(undivided_sgd_vs_adam, "Gradient Accumulation: SGD shows the bug, Adam hides it") {
  const auto device = ctx.device();
  constexpr int64_t kMicro = 4, kSteps = 3;
  torch::manual_seed(0);
  const auto X = torch::randn({64, 8}).to(device), y = torch::randint(0, 3, {64}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;

  // The update of the first optimizer step and of all kSteps, each step over four micro-batches.
  const auto train = [&](bool adam, double lr, Accumulation rule) {
    torch::manual_seed(1);
    torch::nn::Linear model(8, 3);
    model->to(device);
    std::unique_ptr<torch::optim::Optimizer> opt;
    if (adam)
      opt = std::make_unique<AdamW>(model->parameters(), torch::optim::AdamWOptions(lr));
    else
      opt = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(lr));
    const auto start = flat_parameters(*model);
    const auto xs = X.split(16), ys = y.split(16);
    torch::Tensor first;
    for (int64_t step = 0; step < kSteps; ++step) {
      opt->zero_grad();
      for (int64_t i = 0; i < kMicro; ++i)
        (loss_fn(model(xs[i]), ys[i]) * accumulation_weight(rule, 16, kMicro, 64)).backward();
      opt->step();
      if (step == 0) first = flat_parameters(*model) - start;
    }
    return std::pair{first, flat_parameters(*model) - start};
  };
  const auto [sgd_undivided_1, sgd_undivided] = train(false, 0.1, Accumulation::kSum);
  const auto [sgd_divided_1, sgd_divided] = train(false, 0.1, Accumulation::kDivideByCount);
  const auto [sgd_4x_lr_1, sgd_divided_4x_lr] = train(false, 0.4, Accumulation::kDivideByCount);
  const auto [adam_undivided_1, adam_undivided] = train(true, 1e-3, Accumulation::kSum);
  const auto [adam_divided_1, adam_divided] = train(true, 1e-3, Accumulation::kDivideByCount);

  // The first step's updates: the same gradient direction, so the ratio is the whole story.
  const double sgd_ratio = (sgd_undivided_1.norm() / sgd_divided_1.norm()).item<double>();
  const double adam_ratio = (adam_undivided_1.norm() / adam_divided_1.norm()).item<double>();
  const bool sgd_is_4x_lr = torch::allclose(sgd_undivided, sgd_divided_4x_lr, 1e-5, 1e-7);
  ctx.print("SGD:   first update, undivided / divided = {:.4f}", sgd_ratio);
  ctx.print("SGD:   {} steps undivided == divided with 4x the learning rate: {}", kSteps,
            sgd_is_4x_lr ? "True" : "False");
  ctx.print("AdamW: first update, undivided / divided = {:.4f}", adam_ratio);

  Trace t;
  record(t, "update_sgd_undivided", sgd_undivided);
  record(t, "update_sgd_divided", sgd_divided);
  record(t, "update_sgd_divided_4x_lr", sgd_divided_4x_lr);
  record(t, "update_adamw_undivided", adam_undivided);
  record(t, "update_adamw_divided", adam_divided);
  t.add("first_update_ratio_sgd_adamw", DType::kFloat64, {sgd_ratio, adam_ratio}).ceiling = Tolerance::abs(5e-5);
  t.check("SGD: the undivided loss is SGD with 4x the learning rate", sgd_is_4x_lr, "");
  t.check("SGD's update grows 4x while AdamW's barely moves (it hides the bug)",
          std::abs(sgd_ratio - 4) < 1e-4 && std::abs(adam_ratio - 1) < 1e-3,
          fmt::format("SGD {:.6f}, AdamW {:.6f}", sgd_ratio, adam_ratio));
  return t;
}

TRAINPROOF_SCENARIO_INFO(undivided_sgd_vs_adam, .document = kBestPractices,
                         .controls = {{"accumulation-not-divided", {"SGD: the undivided loss", "SGD's update grows"}}});

}  // namespace trainproof
