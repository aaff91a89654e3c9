// Document: the training loop, "Train vs Eval Mode" and "Common Mistakes: Forgetting
// model.eval()". eval() disables dropout and makes batch norm use its running statistics;
// validating in train mode gives noisy metrics and moves those statistics.
#include <optional>

#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"

namespace trainproof {
namespace {

// A snapshot of a tensor that training may change in place. (The bug the control plants
// aliases it, so "before" silently follows "after".)
torch::Tensor snapshot(const torch::Tensor& t) {
  return fault_injected("snapshot-aliases") ? t : t.clone();
}

}  // namespace

TRAINPROOF_SCENARIO(eval_mode, "Train vs Eval Mode; Common Mistakes: Forgetting model.eval()") {
  const auto device = ctx.device();
  torch::manual_seed(0);
  auto fc1 = torch::nn::Linear(8, 16);
  auto bn = torch::nn::BatchNorm1d(16);
  auto relu = torch::nn::ReLU();
  auto dropout = torch::nn::Dropout(0.5);
  auto fc2 = torch::nn::Linear(16, 3);
  torch::nn::Sequential model(fc1, bn, relu, dropout, fc2);
  model->to(device);
  const auto X = torch::randn({64, 8}).to(device), y = torch::randint(0, 3, {64}).to(device);
  const auto Xv = torch::randn({32, 8}).to(device), yv = torch::randint(0, 3, {32}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
  model->train();
  for (int step = 0; step < 5; ++step) {  // the running statistics become the data's
    opt.zero_grad();
    loss_fn(model->forward(X), y).backward();
    opt.step();
  }

  Trace t;
  for (const bool eval : {true, false}) {
    // The mistake the control plants: validation that forgets model.eval().
    model->train(!eval || fault_injected("validate-in-train-mode"));
    const auto mean = snapshot(bn->running_mean), var = snapshot(bn->running_var);
    // Mode is independent of gradient tracking: validation also runs under no_grad (the
    // mistake the second control plants: a validation that forgets it).
    std::optional<torch::NoGradGuard> no_grad;
    if (!fault_injected("validate-with-grad")) no_grad.emplace();
    const auto first = model->forward(Xv), second = model->forward(Xv);
    const bool same = bitwise_equal(first, second);
    const bool stats_kept = bitwise_equal(mean, bn->running_mean) && bitwise_equal(var, bn->running_var);
    const double l1 = loss_fn(first, yv).item<double>(), l2 = loss_fn(second, yv).item<double>();
    const std::string tag = eval ? "eval" : "train_mode";
    ctx.print("{:11} validation loss {:.4f}, again {:.4f}; running statistics unchanged: {}",
              eval ? "model.eval():" : "train mode:", l1, l2, stats_kept ? "True" : "False");
    t.add("val_loss_twice_" + tag, DType::kFloat32, {l1, l2});
    record(t, "running_mean_after_" + tag, bn->running_mean);
    if (eval) {
      t.check("eval(): two validation passes are bitwise equal", same, "");
      t.check("eval(): the running statistics are untouched", stats_kept, "");
      t.check("no_grad: validation builds no autograd graph", !first.requires_grad(), "");
      // The variant: model.eval() with gradients tracked. The same values; only a graph
      // nobody backpropagates through is built (its activations kept alive until dropped).
      const torch::AutoGradMode grad_enabled(true);
      const auto with_grad = model->forward(Xv);
      const bool same_values = bitwise_equal(with_grad.detach(), first);
      ctx.print("with grad:   validation loss {:.4f}; the same values: {}; builds a graph: {}",
                loss_fn(with_grad, yv).item<double>(), same_values ? "True" : "False",
                with_grad.requires_grad() ? "True" : "False");
      t.check("with grad enabled (the mistake): the same values, and a graph built for nothing",
              same_values && with_grad.requires_grad(), "");
    } else {
      t.check("train mode (the mistake): passes differ and the running statistics move", !same && !stats_kept,
              fmt::format("passes equal: {}, statistics kept: {}", same, stats_kept));
    }
  }
  t.differ_across_devices(kDeviceDropout);  // trained in train mode, with dropout
  return t;
}

TRAINPROOF_SCENARIO_INFO(eval_mode, .document = kTrainingLoop,
                         .controls = {{"validate-in-train-mode",
                                       {"eval(): two validation", "eval(): the running", "with grad enabled"}},
                                      {"snapshot-aliases", {"train mode (the mistake)"}},
                                      {"validate-with-grad", {"no_grad: validation builds no autograd graph"}}});

}  // namespace trainproof
