// The options of OneCycleLR and ReduceLROnPlateau (lr_scheduler.h), PyTorch's defaults,
// torch-free so that a command line can hold them without compiling LibTorch.
#pragma once

#include <cstdint>

namespace trainproof {

struct OneCycleOptions {
  double max_lr = 0;
  int64_t total_steps = 0;
  double pct_start = 0.3;
  enum class Anneal { kCos, kLinear } anneal = Anneal::kCos;
  bool cycle_momentum = true;
  double base_momentum = 0.85;
  double max_momentum = 0.95;
  double div_factor = 25.0;
  double final_div_factor = 1e4;
  bool three_phase = false;
};

struct PlateauOptions {
  enum class Mode { kMin, kMax } mode = Mode::kMin;
  double factor = 0.1;
  int64_t patience = 10;
  double threshold = 1e-4;
  enum class ThresholdMode { kRel, kAbs } threshold_mode = ThresholdMode::kRel;
  int64_t cooldown = 0;
  double min_lr = 0;
  double eps = 1e-8;
};

}  // namespace trainproof
