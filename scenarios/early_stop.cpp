// Document: "Practice" p2. Keep the best checkpoint; stop after 3 epochs in a row without
// a new best.
#include "trainproof/runner/scenario.h"
#include "trainproof/training/training.h"

namespace trainproof {

TRAINPROOF_SCENARIO(early_stop, "Practice p2: early stopping") {
  const std::vector<double> val_losses = {0.90, 0.70, 0.60, 0.61, 0.58, 0.59, 0.60, 0.61, 0.57};
  EarlyStopping stopper(/*patience=*/3);
  std::vector<int64_t> verdicts;
  int64_t stopped_at = -1;
  for (size_t epoch = 0; epoch < val_losses.size(); ++epoch) {
    const double loss = val_losses[epoch];
    const auto v = stopper.step(loss);
    verdicts.push_back(static_cast<int64_t>(v));
    if (v == EarlyStopping::Verdict::kNewBest) {
      ctx.print("epoch {}: {:.2f} new best -> save checkpoint", epoch, loss);
      continue;
    }
    ctx.print("epoch {}: {:.2f} no improvement ({}/{})", epoch, loss, stopper.bad_epochs(), stopper.patience());
    if (v == EarlyStopping::Verdict::kStop) {
      ctx.print("stopping; best was {:.2f}", stopper.best());
      stopped_at = static_cast<int64_t>(epoch);
      break;
    }
  }
  Trace t;
  t.add_ints("verdict_per_epoch", DType::kInt32, verdicts);  // 0 new best, 1 no improvement, 2 stop
  t.add("best", DType::kFloat64, {stopper.best()});
  t.check("stops at epoch 7 with best 0.58, never sees 0.57", stopped_at == 7 && stopper.best() == 0.58,
          fmt::format("stopped at {}, best {:.2f}", stopped_at, stopper.best()));
  return t;
}

TRAINPROOF_SCENARIO_INFO(early_stop, .document = kBestPractices,
                         .prints = {"epoch 0: 0.90 new best -> save checkpoint",
                                    "epoch 1: 0.70 new best -> save checkpoint",
                                    "epoch 2: 0.60 new best -> save checkpoint", "epoch 3: 0.61 no improvement (1/3)",
                                    "epoch 4: 0.58 new best -> save checkpoint", "epoch 5: 0.59 no improvement (1/3)",
                                    "epoch 6: 0.60 no improvement (2/3)", "epoch 7: 0.61 no improvement (3/3)",
                                    "stopping; best was 0.58"},
                         .controls = {{"early-stop-patience-off-by-one", {"stops at epoch 7"}}});

}  // namespace trainproof
