// Document: the training loop, "Loss Functions and Optimizers": "Exclude biases and
// normalization weights from weight decay via parameter groups for best results." AdamW
// decays decoupled from the gradient, so with a zero gradient a decayed weight shrinks by
// exactly lr * weight_decay and a parameter in the no-decay group does not move at all.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"

namespace trainproof {
namespace {

torch::nn::Sequential make_model(c10::Device device) {
  torch::manual_seed(1);
  auto fc1 = torch::nn::Linear(8, 16);
  auto norm = torch::nn::LayerNorm(torch::nn::LayerNormOptions({16}));
  auto relu = torch::nn::ReLU();
  auto fc2 = torch::nn::Linear(16, 3);
  torch::nn::Sequential model(fc1, norm, relu, fc2);
  model->to(device);
  return model;
}

std::vector<torch::Tensor> clones(const std::vector<torch::Tensor>& ps) {
  std::vector<torch::Tensor> out;
  for (const auto& p : ps) out.push_back(p.detach().clone());
  return out;
}

}  // namespace

TRAINPROOF_SCENARIO(weight_decay_groups, "Loss Functions and Optimizers: no weight decay on biases and norms") {
  const auto device = ctx.device();
  const double lr = 0.1, wd = 0.1;
  const auto options = torch::optim::AdamWOptions(lr).weight_decay(wd);
  Trace t;
  for (const bool grouped : {true, false}) {
    auto model = make_model(device);
    AdamW opt = grouped ? AdamW(weight_decay_groups(*model, options)) : AdamW(model->parameters(), options);
    const auto params = model->parameters();
    const auto before = clones(params);
    for (auto& p : params) p.mutable_grad() = torch::zeros_like(p);  // a zero gradient: decay alone moves
    opt.step();
    bool vectors_kept = true, matrices_shrunk = true;
    for (size_t i = 0; i < params.size(); ++i) {
      if (params[i].dim() >= 2)
        matrices_shrunk = matrices_shrunk && bitwise_equal(params[i], before[i].mul(1 - lr * wd));
      else
        vectors_kept = vectors_kept && bitwise_equal(params[i], before[i]);
    }
    const auto& norm_weight = params[2];  // LayerNorm's weight, 1.0 at initialization
    ctx.print("{:16} weights x{:.2f}; biases and LayerNorm weights moved: {} (LayerNorm weight {:.2f})",
              grouped ? "decay groups:" : "decay everything:", 1 - lr * wd, vectors_kept ? "False" : "True",
              norm_weight.mean().item<double>());
    record(t, grouped ? "params_zero_grad_step_grouped" : "params_zero_grad_step_decay_all", flat_parameters(*model));
    if (grouped) {
      t.check("decay groups: biases and norm weights do not move under a zero gradient", vectors_kept, "");
      t.check("decay groups: weights shrink by exactly lr * weight_decay", matrices_shrunk, "");
    } else {
      t.check("decay everything (the mistake): biases and norm weights shrink too", !vectors_kept, "");
    }
  }

  // Twenty steps of real training each way, recorded.
  torch::manual_seed(0);
  const auto X = torch::randn({64, 8}).to(device), y = torch::randint(0, 3, {64}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;
  for (const bool grouped : {true, false}) {
    auto model = make_model(device);
    AdamW opt = grouped ? AdamW(weight_decay_groups(*model, options)) : AdamW(model->parameters(), options);
    std::vector<double> losses;
    for (int step = 0; step < 20; ++step) {
      opt.zero_grad();
      const auto loss = loss_fn(model->forward(X), y);
      loss.backward();
      opt.step();
      losses.push_back(loss.item<double>());
    }
    t.add(grouped ? "loss_per_step_grouped" : "loss_per_step_decay_all", DType::kFloat32, losses);
  }
  return t;
}

TRAINPROOF_SCENARIO_INFO(weight_decay_groups, .document = kTrainingLoop,
                         .controls = {{"weight-decay-on-everything", {"decay groups: biases and norm weights"}},
                                      {"adamw-ignores-weight-decay",
                                       {"decay groups: weights shrink", "decay everything (the mistake)"}}});

}  // namespace trainproof
