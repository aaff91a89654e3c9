// Document: the training loop, "Common Mistakes: Softmax Before CrossEntropyLoss".
// CrossEntropyLoss takes logits and applies log-softmax itself. Fed probabilities, it
// squashes them again: the loss cannot fall below log(e + C - 1) - 1 for C classes, and the
// gradient is much smaller, so the loop learns slowly and never fits.
#include <cmath>

#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/tensors.h"

namespace trainproof {

TRAINPROOF_SCENARIO(softmax_before_ce, "Common Mistakes: Softmax Before CrossEntropyLoss") {
  const auto device = ctx.device();
  constexpr int64_t kClasses = 5, kSteps = 200;
  constexpr double kThreshold = 0.05;
  const double floor = std::log(std::exp(1.0) + kClasses - 1) - 1;  // all probability on the right class
  torch::manual_seed(0);
  const auto X = torch::randn({64, 20}).to(device), y = torch::randint(0, kClasses, {64}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;

  Trace t;
  std::vector<double> final_loss, first_norm;
  for (const bool softmax_first : {false, true}) {
    torch::manual_seed(1);
    auto fc1 = torch::nn::Linear(20, 64);
    auto relu = torch::nn::ReLU();
    auto fc2 = torch::nn::Linear(64, kClasses);
    torch::nn::Sequential model(fc1, relu, fc2);
    model->to(device);
    AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-2));
    std::vector<double> losses;
    for (int64_t step = 0; step < kSteps; ++step) {
      opt.zero_grad();
      const auto logits = model->forward(X);
      const bool mistake = softmax_first || fault_injected("softmax-before-cross-entropy");
      const auto loss = loss_fn(mistake ? torch::softmax(logits, 1) : logits, y);
      loss.backward();
      if (step == 0) {
        double sq = 0;
        for (const auto& p : model->parameters()) sq += p.grad().pow(2).sum().item<double>();
        first_norm.push_back(std::sqrt(sq));
      }
      opt.step();
      losses.push_back(loss.item<double>());
    }
    final_loss.push_back(losses.back());
    t.add(softmax_first ? "loss_per_step_softmax_first" : "loss_per_step_logits", DType::kFloat32, losses);
  }
  ctx.print("logits into CrossEntropyLoss:  loss after {} steps {:.4f}", kSteps, final_loss[0]);
  ctx.print("softmax before CrossEntropyLoss: loss after {} steps {:.4f} (floor log(e + 4) - 1 = {:.4f})", kSteps,
            final_loss[1], floor);
  ctx.print("gradient norm at step 0: {:.4f} vs {:.4f} ({:.1f}x smaller)", first_norm[0], first_norm[1],
            first_norm[0] / first_norm[1]);
  t.add("grad_norm_step0_logits_softmax_first", DType::kFloat64, first_norm).ceiling = Tolerance::rel(1e-3);
  t.check(fmt::format("logits: the loss falls below {} within {} steps", kThreshold, kSteps),
          final_loss[0] < kThreshold, fmt::format("{:.6f}", final_loss[0]));
  t.check("softmax first (the mistake): stuck above its floor, far above the correct loop",
          final_loss[1] > floor && final_loss[1] > final_loss[0] + 0.5,
          fmt::format("{:.6f} vs {:.6f}", final_loss[1], final_loss[0]));
  return t;
}

TRAINPROOF_SCENARIO_INFO(softmax_before_ce, .document = kTrainingLoop,
                         .controls = {{"softmax-before-cross-entropy", {"logits: the loss falls", "softmax first"}}});

}  // namespace trainproof
