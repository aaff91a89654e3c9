// Document: the training loop, "Tracking and Reproducibility": "Seed randomness ... and
// consider torch.use_deterministic_algorithms(True) when exact reproducibility matters."
// Two seeded runs under it are bitwise equal; operations without a deterministic
// implementation on the device refuse to run (an error, never a silent fallback), and the
// scenario records which.
#include <functional>

#include <fmt/ranges.h>
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"

namespace trainproof {
namespace {

// Operations PyTorch documents as nondeterministic on some device, each run once.
std::vector<std::pair<std::string, std::function<void(c10::Device)>>> candidate_ops() {
  const auto f = [](c10::Device d) { return torch::TensorOptions().device(d); };
  const auto idx = [](c10::Device d) {
    return torch::tensor({0, 0}, torch::TensorOptions().dtype(torch::kLong).device(d));
  };
  return {
      {"put_", [=](c10::Device d) { torch::zeros({5}, f(d)).put_(idx(d), torch::ones({2}, f(d))); }},
      {"put_(accumulate)", [=](c10::Device d) { torch::zeros({5}, f(d)).put_(idx(d), torch::ones({2}, f(d)), true); }},
      {"index_put_(accumulate)",
       [=](c10::Device d) { torch::zeros({5}, f(d)).index_put_({idx(d)}, torch::ones({2}, f(d)), true); }},
      {"scatter_add_", [=](c10::Device d) { torch::zeros({5}, f(d)).scatter_add_(0, idx(d), torch::ones({2}, f(d))); }},
      {"index_add_", [=](c10::Device d) { torch::zeros({5}, f(d)).index_add_(0, idx(d), torch::ones({2}, f(d))); }},
      {"bincount(weights)", [=](c10::Device d) { torch::bincount(idx(d), torch::ones({2}, f(d))); }},
      {"histc", [=](c10::Device d) { torch::histc(torch::ones({4}, f(d))); }},
      {"kthvalue", [=](c10::Device d) { torch::ones({4}, f(d)).kthvalue(2); }},
      {"median(dim)", [=](c10::Device d) { torch::ones({4}, f(d)).median(0); }},
      {"cumsum backward",
       [=](c10::Device d) { torch::ones({4}, f(d).requires_grad(true)).cumsum(0).sum().backward(); }},
      {"avg_pool3d backward",
       [=](c10::Device d) {
         torch::avg_pool3d(torch::ones({1, 1, 2, 2, 2}, f(d).requires_grad(true)), 2).sum().backward();
       }},
      {"upsample_bilinear2d backward",
       [=](c10::Device d) {
         namespace F = torch::nn::functional;
         F::interpolate(torch::ones({1, 1, 2, 2}, f(d).requires_grad(true)),
                        F::InterpolateFuncOptions()
                            .scale_factor(std::vector<double>{2, 2})
                            .mode(torch::kBilinear)
                            .align_corners(false))
             .sum()
             .backward();
       }},
  };
}

// A small training run whose backward pass accumulates into shared rows (embedding).
torch::Tensor train(c10::Device device, bool seeded) {
  if (seeded) torch::manual_seed(0);
  torch::nn::Embedding emb(50, 16);
  torch::nn::Linear fc(16, 3);
  emb->to(device);
  fc->to(device);
  std::vector<torch::Tensor> params = emb->parameters();
  for (const auto& p : fc->parameters()) params.push_back(p);
  torch::optim::SGD opt(params, torch::optim::SGDOptions(0.5));
  const auto tokens = torch::randint(0, 50, {32, 6}).to(device), y = torch::randint(0, 3, {32}).to(device);
  for (int step = 0; step < 20; ++step) {
    opt.zero_grad();
    torch::nn::functional::cross_entropy(fc(emb(tokens).mean(1)), y).backward();
    opt.step();
  }
  return torch::cat({flat_parameters(*emb), flat_parameters(*fc)});
}

}  // namespace

TRAINPROOF_SCENARIO(deterministic, "Tracking and Reproducibility: use_deterministic_algorithms") {
  const auto device = ctx.device();
  if (device.is_cuda()) make_cuda_deterministic();  // cuBLAS's workspace setting first
  DeterministicAlgorithmsGuard deterministic(!fault_injected("deterministic-algorithms-off"));

  std::vector<int64_t> refuses;
  std::vector<std::string> refused;
  bool named = true;
  for (const auto& [name, op] : candidate_ops()) {
    bool threw = false;
    try {
      op(device);
    } catch (const c10::Error& e) {
      threw = true;
      named = named && std::string(e.what()).find("does not have a deterministic implementation") != std::string::npos;
      refused.push_back(name);
    }
    refuses.push_back(threw ? 1 : 0);
  }
  const auto first = train(device, true);
  const auto second = train(device, !fault_injected("second-run-unseeded"));
  const bool equal = bitwise_equal(first, second);
  ctx.print("two seeded runs, bitwise equal: {}", equal ? "True" : "False");
  ctx.print("refuse to run on {} under use_deterministic_algorithms(True): {}", device.str(),
            fmt::format("{}", fmt::join(refused, ", ")));

  Trace t;
  t.add_ints("refuses_per_candidate_op", DType::kInt32, refuses).across_devices =
      "which ops lack a deterministic implementation is each device's own (PyTorch's list differs for CPU and CUDA)";
  record(t, "params_after_20_steps", first);
  t.check("two seeded runs are bitwise equal", equal, "");
  t.check("an operation without a deterministic implementation refuses, naming why", !refused.empty() && named,
          fmt::format("{} refused", refused.size()));
  return t;
}

TRAINPROOF_SCENARIO_INFO(deterministic, .document = kTrainingLoop,
                         .controls = {{"second-run-unseeded", {"two seeded runs"}},
                                      {"deterministic-algorithms-off", {"an operation without"}}});

}  // namespace trainproof
