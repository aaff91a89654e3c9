// TrainingState: every piece under its prefix, each saved and loaded by its own component.
#include "trainproof/training/training_state.h"

namespace trainproof {

void TrainingState::save(Checkpoint& ck, unsigned omit) const {
  const auto keep = [&](Piece p) { return (omit & p) == 0; };
  if (model && keep(kModel)) save_module(ck, "model", *model);
  if (optimizer && keep(kOptimizer)) save_optimizer(ck, "opt", *optimizer);
  if (scheduler && keep(kScheduler)) scheduler->save(ck, "sched");
  if (scaler && keep(kScaler)) scaler->save(ck, "scaler");
  if (early_stopping && keep(kEarlyStopping)) early_stopping->save(ck, "early_stopping");
  if (rng && keep(kRng)) save_rng(ck, "rng");
  if (keep(kPosition))
    for (const auto& [name, value] : position) ck.put("pos/" + name, *value);
}

void TrainingState::load(const Checkpoint& ck, unsigned omit) const {
  const auto take = [&](Piece p, const std::string& key) { return (omit & p) == 0 && ck.has(key); };
  if (model && (omit & kModel) == 0) load_module(ck, "model", *model);
  if (optimizer && take(kOptimizer, "opt/groups")) load_optimizer(ck, "opt", *optimizer);
  if (scheduler && take(kScheduler, "sched/last_epoch")) scheduler->load(ck, "sched");
  if (scaler && take(kScaler, "scaler/enabled")) scaler->load(ck, "scaler");
  if (early_stopping && take(kEarlyStopping, "early_stopping/best")) early_stopping->load(ck, "early_stopping");
  if (rng && take(kRng, "rng/cpu")) load_rng(ck, "rng");
  for (const auto& [name, value] : position)
    if (take(kPosition, "pos/" + name)) *value = ck.integer("pos/" + name);
}

}  // namespace trainproof
