// Document: the training loop, "TL;DR" (the standard step: zero_grad -> forward -> loss ->
// backward -> (clip) -> optimizer.step()) and its opening list of bugs ("not zeroing
// gradients"). backward() adds into .grad, so forgetting zero_grad makes the next gradient
// the sum of both steps' gradients: exactly twice the batch's, for the same batch.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"

namespace trainproof {

TRAINPROOF_SCENARIO(zero_grad, "TL;DR: the standard step starts with zero_grad") {
  const auto device = ctx.device();
  torch::manual_seed(0);
  torch::nn::Linear model(8, 3);
  model->to(device);
  const auto X = torch::randn({32, 8}).to(device);
  const auto y = torch::randint(0, 3, {32}).to(device);
  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1));

  loss_fn(model(X), y).backward();
  const auto batch_grad = model->weight.grad().clone();  // this batch's gradient

  if (!fault_injected("zero-grad-forgotten")) opt.zero_grad();  // the standard step
  loss_fn(model(X), y).backward();
  const auto with_zero_grad = model->weight.grad().clone();
  loss_fn(model(X), y).backward();  // the mistake: no zero_grad, backward adds to .grad
  const auto forgotten = model->weight.grad().clone();

  const double ratio = (forgotten / batch_grad).mean().item<double>();
  const bool exact = bitwise_equal(with_zero_grad, batch_grad);
  ctx.print("with zero_grad: the batch's gradient, bitwise: {}", exact ? "True" : "False");
  ctx.print("without zero_grad: {:.2f}x the batch's gradient", ratio);

  Trace t;
  record(t, "grad_batch", batch_grad);
  record(t, "grad_with_zero_grad", with_zero_grad);
  record(t, "grad_zero_grad_forgotten", forgotten);
  t.check("zero_grad: the gradient is the batch's alone", exact, "");
  t.check("forgotten zero_grad: the gradient is exactly twice the batch's", bitwise_equal(forgotten, batch_grad * 2),
          fmt::format("ratio {:.9f}", ratio));

  // Ten SGD steps over four batches each way: without zero_grad every step also applies all
  // the past gradients, and the loss goes elsewhere.
  for (const bool zero : {true, false}) {
    torch::manual_seed(1);
    torch::nn::Linear m(8, 3);
    m->to(device);
    torch::optim::SGD sgd(m->parameters(), torch::optim::SGDOptions(0.1));
    const auto xs = X.split(8), ys = y.split(8);
    std::vector<double> losses;
    for (size_t step = 0; step < 10; ++step) {
      if (zero) sgd.zero_grad();
      const auto loss = loss_fn(m(xs[step % 4]), ys[step % 4]);
      loss.backward();
      sgd.step();
      losses.push_back(loss.item<double>());
    }
    ctx.print("{:17} loss at step 10: {:.4f}", zero ? "with zero_grad:" : "without zero_grad:", losses.back());
    t.add(zero ? "loss_per_step_zero_grad" : "loss_per_step_forgotten", DType::kFloat32, losses);
  }
  return t;
}

TRAINPROOF_SCENARIO_INFO(zero_grad, .document = kTrainingLoop,
                         .controls = {{"zero-grad-forgotten", {"zero_grad: the gradient", "exactly twice"}}});

}  // namespace trainproof
