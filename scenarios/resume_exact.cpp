// Document: "Checkpoint and Resume — Exactly". Train 10 epochs; or train 5, checkpoint
// to a real file, rebuild everything from scratch, load, train 5 more: the same loss to
// the last bit. With dropout, the RNG state must be in the checkpoint too.
#include <filesystem>

#include <torch/torch.h>

#include "trainproof/core/temp_dir.h"
#include "trainproof/runner/scenario.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training_state.h"

namespace trainproof {
namespace {

struct Run {
  torch::nn::Sequential model;
  std::unique_ptr<AdamW> opt;
  std::unique_ptr<CosineAnnealingLR> sched;
};

Run setup(torch::Device device, double dropout) {
  torch::manual_seed(0);
  // Layers as named statements, in Python's order: C++ evaluates constructor arguments
  // in an unspecified order, which would draw their initial weights in another order.
  auto fc1 = torch::nn::Linear(10, 32);
  auto relu = torch::nn::ReLU();
  auto fc2 = torch::nn::Linear(32, 1);
  Run r{dropout > 0 ? torch::nn::Sequential(fc1, relu, torch::nn::Dropout(dropout), fc2)
                    : torch::nn::Sequential(fc1, relu, fc2),
        nullptr, nullptr};
  r.model->to(device);
  if (fault_injected("dropout-left-in-eval-mode")) r.model->eval();  // the masks stop mattering
  r.opt = std::make_unique<AdamW>(r.model->parameters(), torch::optim::AdamWOptions(1e-2));
  r.sched = std::make_unique<CosineAnnealingLR>(*r.opt, 10);
  return r;
}

// Seeding each epoch's data by its epoch number makes the data reproducible too.
double train(Run& r, int64_t first, int64_t end, torch::Device device, std::vector<double>* losses = nullptr) {
  torch::Tensor loss;
  for (int64_t epoch = first; epoch < end; ++epoch) {
    auto g = at::detail::createCPUGenerator(static_cast<uint64_t>(epoch));
    const auto X = torch::randn({64, 10}, g).to(device);
    r.opt->zero_grad();
    loss = torch::mse_loss(r.model->forward(X), X.sum(1, /*keepdim=*/true));
    loss.backward();
    r.opt->step();
    r.sched->step();
    if (losses) losses->push_back(loss.item<float>());
  }
  return loss.item<double>();
}

struct Resumed {
  double loss;
  torch::Tensor params;
};

// What the checkpoint holds: model, optimizer, scheduler, the epoch, and the RNG state
// unless it is left out (the mistake dropout exposes).
TrainingState state_of(Run& r, int64_t& epoch, bool save_rng_state) {
  return {.model = r.model.get(),
          .optimizer = r.opt.get(),
          .scheduler = r.sched.get(),
          .rng = save_rng_state,
          .position = {{"epoch", &epoch}}};
}

// Train 5 epochs, checkpoint to a file, rebuild from scratch (as a fresh process would),
// load, train the remaining 5.
Resumed stop_and_resume(torch::Device device, double dropout, bool save_rng_state) {
  TempDir dir("resume_exact");
  const auto path = dir.path() / "ckpt.tpck";
  int64_t epoch = 4;
  {
    Run r = setup(device, dropout);
    train(r, 0, 5, device);
    Checkpoint ck;
    state_of(r, epoch, save_rng_state).save(ck);
    ck.save(path);
  }
  Run r = setup(device, dropout);
  epoch = -1;
  state_of(r, epoch, save_rng_state).load(Checkpoint::load(path));
  const double loss = train(r, epoch + 1, 10, device);
  return {loss, flat_parameters(*r.model)};
}

}  // namespace

TRAINPROOF_SCENARIO(resume_exact, "Checkpoint and Resume — Exactly") {
  const auto device = ctx.device();
  Trace t;

  Run u = setup(device, 0.0);
  std::vector<double> losses;
  const double uninterrupted = train(u, 0, 10, device, &losses);
  const torch::Tensor u_params = flat_parameters(*u.model);
  ctx.print("uninterrupted: {:.6f}", uninterrupted);
  const Resumed resumed = stop_and_resume(device, 0.0, true);
  ctx.print("resumed:       {:.6f}", resumed.loss);

  // Same LibTorch kernels on the same machine: bitwise. Elsewhere the float32 kernels may
  // round differently (another ISA, thread count): regen measures how far.
  t.add("loss_per_epoch", DType::kFloat32, losses);
  record(t, "params_uninterrupted", u_params);
  // A hash pins the bits on this environment; elsewhere it is informational.
  t.add_ints("checksum_uninterrupted", DType::kInt64, {bitwise_checksum({u_params})}).cross = Tolerance::any();
  t.add_ints("checksum_resumed", DType::kInt64, {bitwise_checksum({resumed.params})}).cross = Tolerance::any();
  t.check("resumed == uninterrupted (bitwise parameters)", bitwise_equal(u_params, resumed.params),
          fmt::format("losses {:.9g} vs {:.9g}", uninterrupted, resumed.loss));

  // The dropout variant: the masks come from the global generator, so a resume is exact
  // only when the checkpoint carries the RNG state.
  Run d = setup(device, 0.1);
  train(d, 0, 10, device);
  const torch::Tensor d_params = flat_parameters(*d.model);
  const Resumed with_rng = stop_and_resume(device, 0.1, true);
  const Resumed without_rng = stop_and_resume(device, 0.1, false);
  ctx.print("dropout, RNG state saved:   resumed == uninterrupted: {}",
            bitwise_equal(d_params, with_rng.params) ? "True" : "False");
  ctx.print("dropout, RNG state omitted: resumed == uninterrupted: {}",
            bitwise_equal(d_params, without_rng.params) ? "True" : "False");
  record(t, "params_dropout_uninterrupted", d_params).across_devices = kDeviceDropout;
  t.check("dropout: resumed with RNG state == uninterrupted", bitwise_equal(d_params, with_rng.params), "");
  t.check("dropout: resumed without RNG state != uninterrupted (negative control)",
          !bitwise_equal(d_params, without_rng.params), "");
  return t;
}

TRAINPROOF_SCENARIO_INFO(resume_exact, .document = kBestPractices,
                         .prints = {"uninterrupted: 7.319561", "resumed:       7.319561"},
                         // The document's advice to save the RNG state, run both ways.
                         .also_prints = {"dropout, RNG state saved:   resumed == uninterrupted: True",
                                         "dropout, RNG state omitted: resumed == uninterrupted: False"},
                         .controls = {{"resume-drops-optimizer-state",
                                       {"resumed == uninterrupted (bitwise", "dropout: resumed with RNG state"}},
                                      {"resume-drops-scheduler-state", {"resumed == uninterrupted (bitwise"}},
                                      {"resume-drops-rng-state", {"dropout: resumed with RNG state"}},
                                      {"dropout-left-in-eval-mode", {"dropout: resumed without RNG state"}}});

}  // namespace trainproof
