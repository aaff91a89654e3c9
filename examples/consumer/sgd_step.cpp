// The consumer's own training-code check: one SGD-with-momentum step on a linear model
// moves the parameters exactly as it always has.
#include <fmt/ranges.h>
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"

namespace trainproof {

TRAINPROOF_SCENARIO(sgd_step, "our team's SGD step") {
  torch::manual_seed(0);
  torch::nn::Linear model(3, 1);
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const auto x = torch::randn({8, 3}), y = torch::randn({8, 1});
  for (int step = 0; step < 3; ++step) {
    opt.zero_grad();
    torch::mse_loss(model(x), y).backward();
    opt.step();
  }
  const auto params = flat_parameters(*model);
  ctx.print(
      "parameters after 3 steps: {}",
      fmt::format(
          "{:.6f}",
          fmt::join(std::vector<float>(params.data_ptr<float>(), params.data_ptr<float>() + params.numel()), " ")));
  Trace t;
  record(t, "params_after_3_steps", params).cross = Tolerance::rel(1e-5);
  return t;
}

}  // namespace trainproof
