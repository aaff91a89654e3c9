// `trainproof lr-curve`: the learning rate a scheduler configuration gives at every step,
// so a user can see a schedule before training with it (the documents: log the LR to
// verify the schedule).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trainproof/training/schedule_options.h"

namespace trainproof {

struct LrCurveSpec {
  std::string kind;  // warmup-cosine | warmup-linear | onecycle | cosine | step | plateau
  double lr = 1e-3;
  int64_t steps = 0;              // cosine, step
  int64_t warmup = 0, total = 0;  // warmup-cosine, warmup-linear
  OneCycleOptions onecycle;       // onecycle
  int64_t t_max = 0;              // cosine
  double eta_min = 0;             // cosine
  int64_t step_size = 0;          // step
  double gamma = 0.1;             // step
  PlateauOptions plateau;         // plateau
  std::vector<double> metrics;    // plateau
};

// Per-step kinds: the rate in force for each step (get_last_lr() before that step's
// optimizer.step()). plateau: the rate after step(metric), one per metric.
std::vector<double> lr_curve(const LrCurveSpec& spec);

}  // namespace trainproof
