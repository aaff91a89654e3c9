// Document: "Mixed Precision: What autocast Changes". Under autocast the linear layers
// produce low-precision logits (bfloat16 on CPU, float16 on CUDA), the loss stays float32,
// and the weights and their gradients stay float32.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"

namespace trainproof {

namespace {

// One recipe: the forward pass under autocast, the backward pass outside it, and the dtypes.
void run_recipe(RunContext& ctx, const AmpRecipe& recipe, Trace& t) {
  const auto device = ctx.device();
  const auto amp = recipe.dtype;
  torch::manual_seed(0);  // the document draws unseeded data; only dtypes are printed
  auto fc1 = torch::nn::Linear(256, 512);
  auto relu = torch::nn::ReLU();
  auto fc2 = torch::nn::Linear(512, 10);
  torch::nn::Sequential model(fc1, relu, fc2);
  model->to(device);
  // The mistake three checks catch: casting the model instead of using autocast.
  const bool cast_instead = fault_injected("model-cast-to-amp-dtype");
  if (cast_instead) model->to(amp);
  const auto x = torch::randn({64, 256}).to(device);
  const auto y = torch::randint(0, 10, {64}).to(device);

  torch::Tensor logits, loss;
  {
    AutocastGuard autocast(device.type(), amp, /*enabled=*/!cast_instead && !fault_injected("autocast-not-entered"));
    logits = model->forward(cast_instead ? x.to(amp) : x);
    loss = torch::nn::functional::cross_entropy(logits, y);
  }
  if (!recipe.suffix.empty()) ctx.print("autocast to {}:", py_dtype(amp));
  ctx.print("weights: {}", py_dtype(fc1->weight.scalar_type()));
  ctx.print("logits:  {}", py_dtype(logits.scalar_type()));
  ctx.print("loss:    {}", py_dtype(loss.scalar_type()));
  loss.backward();
  const auto grad = fc1->weight.grad().scalar_type();
  ctx.print("grads:   {}", py_dtype(grad));

  // The dtypes are the law and hold on any hardware: exact everywhere.
  const std::vector<int64_t> codes = {
      static_cast<int64_t>(dtype_of(fc1->weight.scalar_type())), static_cast<int64_t>(dtype_of(logits.scalar_type())),
      static_cast<int64_t>(dtype_of(loss.scalar_type())), static_cast<int64_t>(dtype_of(grad))};
  const auto& sfx = recipe.suffix;
  t.add_ints("dtype_codes_weights_logits_loss_grads" + sfx, DType::kInt32, codes);
  // The values depend on the low-precision matmul kernels, which differ between ISAs and
  // GPUs: bitwise here, a few low-precision ulps (bf16 eps 2^-7) elsewhere, never 5%.
  record(t, "logits" + sfx, logits).ceiling = Tolerance::rel(0.05);
  record(t, "loss" + sfx, loss).ceiling = Tolerance::rel(0.05);
  const std::string named = sfx.empty() ? "" : fmt::format(" ({})", py_dtype(amp));
  t.check("weights float32" + named, fc1->weight.scalar_type() == torch::kFloat, py_dtype(fc1->weight.scalar_type()));
  t.check("logits in the autocast dtype" + named, logits.scalar_type() == amp, py_dtype(logits.scalar_type()));
  t.check("loss float32" + named, loss.scalar_type() == torch::kFloat, py_dtype(loss.scalar_type()));
  t.check("grads float32" + named, grad == torch::kFloat, py_dtype(grad));
}

}  // namespace

// On CUDA both recipes run: float16 (the golden's unsuffixed series) and, on GPUs with
// native bfloat16, bfloat16 (series ending in _bf16).
TRAINPROOF_SCENARIO(autocast_dtypes, "Mixed Precision: What autocast Changes") {
  Trace t;
  for (const auto& recipe : ctx.amp_recipes()) run_recipe(ctx, recipe, t);
  t.differ_across_devices(kDeviceRecipe);
  return t;
}

TRAINPROOF_SCENARIO_INFO(autocast_dtypes, .document = kBestPractices,
                         .prints = {"weights: torch.float32", "logits:  torch.bfloat16", "loss:    torch.float32",
                                    "grads:   torch.float32"},
                         .controls = {{"model-cast-to-amp-dtype", {"weights float32", "loss float32", "grads float32"}},
                                      {"autocast-not-entered", {"logits in the autocast dtype"}}});

}  // namespace trainproof
