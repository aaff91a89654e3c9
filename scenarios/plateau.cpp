// Document: "Reduce on Plateau". The rate halves after three epochs without improving on
// the best validation loss (patience=2).
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/lr_scheduler.h"

namespace trainproof {

TRAINPROOF_SCENARIO(plateau, "Reduce on Plateau") {
  torch::nn::Linear model(4, 1);
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(1e-3));
  ReduceLROnPlateau sched(opt, PlateauOptions{.factor = 0.5, .patience = 2});

  const std::vector<double> val_losses = {0.90, 0.70, 0.60, 0.61, 0.60, 0.62, 0.55, 0.56, 0.57, 0.58, 0.56};
  std::vector<double> lr;
  for (size_t epoch = 0; epoch < val_losses.size(); ++epoch) {
    sched.step(val_losses[epoch]);  // pass the validation metric
    lr.push_back(opt.param_groups()[0].options().get_lr());
    ctx.print("epoch {:2d}  val_loss {:.2f}  lr {:.2e}", epoch, val_losses[epoch], lr.back());
  }
  Trace t;
  t.add("lr_per_epoch", DType::kFloat64, lr);  // products of exact halvings: exact anywhere
  t.check("halved at epoch 5", lr[4] == 1e-3 && lr[5] == 5e-4, "");
  t.check("halved again at epoch 9", lr[8] == 5e-4 && lr[9] == 2.5e-4, "");
  return t;
}

TRAINPROOF_SCENARIO_INFO(plateau, .document = kBestPractices,
                         .prints = {"epoch  0  val_loss 0.90  lr 1.00e-03", "epoch  1  val_loss 0.70  lr 1.00e-03",
                                    "epoch  2  val_loss 0.60  lr 1.00e-03", "epoch  3  val_loss 0.61  lr 1.00e-03",
                                    "epoch  4  val_loss 0.60  lr 1.00e-03", "epoch  5  val_loss 0.62  lr 5.00e-04",
                                    "epoch  6  val_loss 0.55  lr 5.00e-04", "epoch  7  val_loss 0.56  lr 5.00e-04",
                                    "epoch  8  val_loss 0.57  lr 5.00e-04", "epoch  9  val_loss 0.58  lr 2.50e-04",
                                    "epoch 10  val_loss 0.56  lr 2.50e-04"},
                         .controls = {
                             {"plateau-patience-off-by-one", {"halved at epoch 5", "halved again at epoch 9"}}});

}  // namespace trainproof
