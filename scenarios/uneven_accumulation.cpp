// Document: "Practice" p3. With micro-batches of 16,16,16,16,6, dividing each loss by 5
// no longer reproduces the full batch; weighting each by its size (n / 70) does.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"

namespace trainproof {

TRAINPROOF_SCENARIO(uneven_accumulation, "Practice p3: uneven micro-batches") {
  const auto device = ctx.device();
  torch::manual_seed(0);
  torch::nn::Linear model(8, 3);
  model->to(device);
  const auto X = torch::randn({70, 8}).to(device);  // 70 = 16+16+16+16+6
  const auto y = torch::randint(0, 3, {70}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;

  loss_fn(model(X), y).backward();
  const auto full = model->weight.grad().clone();

  Trace t;
  record(t, "grad_full_batch", full);
  const std::pair<const char*, Accumulation> rules[] = {{"divide by 5", Accumulation::kDivideByCount},
                                                        {"weight by size", Accumulation::kWeightBySize}};
  for (const auto& [name, rule] : rules) {
    model->zero_grad();
    const auto xs = X.split(16), ys = y.split(16);
    for (size_t i = 0; i < xs.size(); ++i)
      (loss_fn(model(xs[i]), ys[i]) * accumulation_weight(rule, ys[i].size(0), 5, 70)).backward();
    const bool matches = torch::allclose(model->weight.grad(), full, 1e-5, 1e-6);
    ctx.print("{:15s} matches full batch: {}", name, matches ? "True" : "False");
    const std::string tag = rule == Accumulation::kDivideByCount ? "divide_by_5" : "weight_by_size";
    record(t, "grad_" + tag, model->weight.grad());
    if (rule == Accumulation::kWeightBySize)
      t.check("weight by size matches the full batch", matches, "");
    else
      t.check("divide by 5 does not match the full batch", !matches, "");
  }
  return t;
}

TRAINPROOF_SCENARIO_INFO(uneven_accumulation, .document = kBestPractices,
                         .prints = {"divide by 5     matches full batch: False",
                                    "weight by size  matches full batch: True"},
                         .controls = {{"accumulation-size-divides-by-count", {"weight by size matches"}},
                                      {"accumulation-count-weighs-by-size", {"divide by 5 does not match"}}});

}  // namespace trainproof
