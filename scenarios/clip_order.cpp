// Document: "A Mixed-Precision Training Loop": "unscale_ divides them back so that
// clip_grad_norm_ compares the real norm against max_norm". Clipping before unscale_ clips
// the scaled gradient (65536 times too large), so the update comes out 65536 times too small.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/grad_scaler.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"

namespace trainproof {
namespace {

struct Clipped {
  double norm_seen;     // what clip_grad_norm_ returned: the norm it compared with max_norm
  torch::Tensor grads;  // the gradients the optimizer steps with
};

enum class Order { kTrueGradients, kUnscaleThenClip, kClipThenUnscale };

}  // namespace

TRAINPROOF_SCENARIO(clip_order, "A Mixed-Precision Training Loop: unscale_ before clipping") {
  const auto device = ctx.device();
  constexpr double kMaxNorm = 0.1;
  torch::manual_seed(0);
  const auto X = torch::randn({32, 8}).to(device), y = torch::randint(0, 3, {32}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;

  const auto run = [&](Order order) {
    torch::manual_seed(1);
    auto fc1 = torch::nn::Linear(8, 16);
    auto relu = torch::nn::ReLU();
    auto fc2 = torch::nn::Linear(16, 3);
    torch::nn::Sequential model(fc1, relu, fc2);
    model->to(device);
    torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));
    // The float16 recipe's scaler (enabled; it runs on the CPU too).
    GradScaler scaler(device, GradScalerOptions{.enabled = order != Order::kTrueGradients});
    scaler.scale(loss_fn(model->forward(X), y)).backward();
    const bool clip_first =
        order == Order::kClipThenUnscale || (order == Order::kUnscaleThenClip && fault_injected("clip-before-unscale"));
    double norm = 0;
    if (clip_first) norm = clip_grad_norm_(model->parameters(), kMaxNorm);
    scaler.unscale_(opt);
    if (!clip_first) norm = clip_grad_norm_(model->parameters(), kMaxNorm);
    std::vector<torch::Tensor> grads;
    for (const auto& p : model->parameters()) grads.push_back(p.grad().reshape(-1));
    return Clipped{norm, torch::cat(grads).cpu()};
  };
  const auto truth = run(Order::kTrueGradients);
  const auto correct = run(Order::kUnscaleThenClip);
  const auto mistake = run(Order::kClipThenUnscale);

  const bool equal = bitwise_equal(correct.grads, truth.grads);
  const double factor = (correct.grads.norm() / mistake.grads.norm()).item<double>();
  ctx.print("true gradient norm {:.4f}, clipped to max_norm {}", truth.norm_seen, kMaxNorm);
  ctx.print("unscale_ then clip: norm seen {:.4f}; equals clipping the true gradients: {}", correct.norm_seen,
            equal ? "True" : "False");
  ctx.print("clip then unscale_: norm seen {:.1f}; the update is {:.0f}x too small", mistake.norm_seen, factor);

  Trace t;
  t.add("norm_seen_true_unscaled_first_clipped_first", DType::kFloat64,
        {truth.norm_seen, correct.norm_seen, mistake.norm_seen});
  record(t, "grads_true_clipped", truth.grads);
  record(t, "grads_unscale_then_clip", correct.grads);
  record(t, "grads_clip_then_unscale", mistake.grads);
  t.check("unscale_ then clip: bitwise the clipped true gradients", equal, "");
  t.check("clip then unscale_ (the mistake): the update is 65536x too small", std::abs(factor / 65536 - 1) < 1e-3,
          fmt::format("factor {:.3f}", factor));
  return t;
}

TRAINPROOF_SCENARIO_INFO(clip_order, .document = kBestPractices,
                         .controls = {{"clip-before-unscale", {"unscale_ then clip", "clip then unscale_"}}});

}  // namespace trainproof
