// Document: "Gradient Accumulation". Four micro-batches of 16 reproduce one batch of 64
// only if each loss is divided by 4; without it the gradient is exactly 4x too large.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"

namespace trainproof {

TRAINPROOF_SCENARIO(accumulation, "Gradient Accumulation") {
  const auto device = ctx.device();
  torch::manual_seed(0);
  torch::nn::Linear model(8, 3);
  model->to(device);
  const auto X = torch::randn({64, 8}).to(device);
  const auto y = torch::randint(0, 3, {64}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;  // averages over the batch

  loss_fn(model(X), y).backward();  // one batch of 64
  const auto full = model->weight.grad().clone();

  Trace t;
  // Float32 sums of the same products in another order: bitwise here, ulps elsewhere (regen
  // measures how far across execution paths).
  record(t, "grad_full_batch", full);
  for (const bool divide : {true, false}) {
    model->zero_grad();
    const auto xs = X.split(16), ys = y.split(16);  // 4 micro-batches of 16
    for (size_t i = 0; i < xs.size(); ++i) {
      const auto loss = loss_fn(model(xs[i]), ys[i]);
      const auto rule = divide ? Accumulation::kDivideByCount : Accumulation::kSum;
      (loss * accumulation_weight(rule, xs[i].size(0), 4, 64)).backward();  // grads add up across calls
    }
    const auto& grad = model->weight.grad();
    const double ratio = (grad / full).mean().item<double>();
    const bool matches = torch::allclose(grad, full, 1e-5, 1e-6);
    ctx.print("divide by 4={:5}  matches full batch: {}  ratio {:.2f}", divide ? "True" : "False",
              matches ? "True" : "False", ratio);
    const std::string tag = divide ? "divided" : "undivided";
    record(t, "grad_" + tag, grad);
    // The document prints the ratio to two decimals: no machine may move it by half of that.
    t.add("ratio_" + tag, DType::kFloat64, {ratio}).ceiling = Tolerance::abs(0.005);
    if (divide) {
      t.check("divided: matches the full batch", matches, fmt::format("ratio {:.6f}", ratio));
    } else {
      t.check("undivided: does not match the full batch", !matches, "");
      t.check("undivided: ratio is 4", std::abs(ratio - 4.0) < 1e-5, fmt::format("ratio {:.9f}", ratio));
    }
  }
  return t;
}

TRAINPROOF_SCENARIO_INFO(accumulation, .document = kBestPractices,
                         .prints = {"divide by 4=True   matches full batch: True  ratio 1.00",
                                    "divide by 4=False  matches full batch: False  ratio 4.00"},
                         .controls = {
                             {"accumulation-not-divided", {"divided: matches the full batch"}},
                             {"accumulation-sum-divided", {"undivided: does not match", "undivided: ratio is 4"}}});

}  // namespace trainproof
