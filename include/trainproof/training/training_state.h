// What resuming exactly needs, as both documents list it: the model, the optimizer, the
// scheduler, the GradScaler, early stopping, the RNG states, and the step and data position.
// One aggregate saves and loads all of them; a sabotage mask leaves pieces out on purpose,
// the mistakes every resume law's negative control makes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <torch/torch.h>

#include "trainproof/training/checkpoint.h"
#include "trainproof/training/grad_scaler.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/training.h"

namespace trainproof {

struct TrainingState {
  // The pieces, as bits of a mask (`omit`).
  enum Piece : unsigned {
    kModel = 1u << 0,
    kOptimizer = 1u << 1,
    kScheduler = 1u << 2,
    kScaler = 1u << 3,
    kEarlyStopping = 1u << 4,
    kRng = 1u << 5,  // the CPU generator, and each CUDA device's
    kPosition = 1u << 6,
  };

  // Each piece the loop has (null: it has none); kept in the checkpoint under model/, opt/,
  // sched/, scaler/, early_stopping/, rng/ and pos/<name>.
  torch::nn::Module* model = nullptr;
  torch::optim::Optimizer* optimizer = nullptr;
  LRScheduler* scheduler = nullptr;
  GradScaler* scaler = nullptr;
  EarlyStopping* early_stopping = nullptr;
  bool rng = true;
  std::vector<std::pair<std::string, int64_t*>> position = {};  // step, epoch, batch, ...

  // Writes every piece it has, except those in `omit`.
  void save(Checkpoint& ck, unsigned omit = 0) const;
  // Reads every piece it has, except those in `omit`. A piece the checkpoint lacks is left as
  // it is (a checkpoint written with pieces omitted still loads; the resume then diverges,
  // which is what a resume law must catch), except the model, which must be there.
  void load(const Checkpoint& ck, unsigned omit = 0) const;
};

}  // namespace trainproof
