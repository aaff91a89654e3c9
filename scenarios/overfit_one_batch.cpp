// Document: the training loop, "Best Practices: Overfit a Single Batch First": "confirm the
// model can drive the loss near zero on one small batch. If it can't, there's a bug in the
// model, loss, or data pipeline." The check is a harness function (overfit_one_batch) that
// a user's model can take too; here it passes a correct loop and fails two planted bugs.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/training.h"

namespace trainproof {

TRAINPROOF_SCENARIO(overfit_one_batch, "Best Practices: Overfit a Single Batch First") {
  const auto device = ctx.device();
  constexpr double kThreshold = 0.01;
  constexpr int64_t kMaxSteps = 300;
  torch::manual_seed(0);
  const auto X = torch::randn({8, 16}).to(device), y = torch::randint(0, 4, {8}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;

  Trace t;
  bool correct_reached = false, bugs_reached = false;
  for (const std::string bug : {"none", "labels_misaligned", "detached_outputs"}) {
    torch::manual_seed(1);
    auto fc1 = torch::nn::Linear(16, 32);
    auto relu = torch::nn::ReLU();
    auto fc2 = torch::nn::Linear(32, 4);
    torch::nn::Sequential model(fc1, relu, fc2);
    model->to(device);
    AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-2));
    const bool misaligned = bug == "labels_misaligned" || (bug == "none" && fault_injected("labels-misaligned"));
    const auto r = overfit_one_batch(
        [&] {
          auto out = model->forward(X);
          // Detaching cuts the graph; requires_grad_() silences backward()'s complaint about it.
          if (bug == "detached_outputs") out = out.detach().requires_grad_();
          // Inputs and labels shuffled separately: each step pairs the inputs with other labels.
          const auto labels = misaligned ? y.index_select(0, torch::randperm(8).to(device)) : y;
          return loss_fn(out, labels);
        },
        opt, kThreshold, kMaxSteps);
    if (r.reached)
      ctx.print("{:18} loss {:.4f} -> {:.4f} in {} steps", bug + ":", r.losses.front(), r.losses.back(), r.steps);
    else
      ctx.print("{:18} loss {:.4f} -> {:.4f}, not below {} in {} steps: {}", bug + ":", r.losses.front(),
                r.losses.back(), kThreshold, kMaxSteps, r.diagnosis);
    (bug == "none" ? correct_reached : bugs_reached) |= r.reached;
    t.add("loss_per_step_" + bug, DType::kFloat32, r.losses);
  }
  t.check(fmt::format("correct loop: the loss falls below {} within {} steps", kThreshold, kMaxSteps), correct_reached,
          "");
  t.check("planted bugs (misaligned labels, detached outputs) never get there", !bugs_reached, "");
  return t;
}

TRAINPROOF_SCENARIO_INFO(overfit_one_batch, .document = kTrainingLoop,
                         .controls = {{"labels-misaligned", {"correct loop: the loss falls"}},
                                      {"overfit-check-always-passes", {"planted bugs"}}});

}  // namespace trainproof
