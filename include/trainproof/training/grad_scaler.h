// GradScaler, following torch.amp.GradScaler: scale the loss before backward(), unscale
// the gradients before clipping, skip the step when they hold inf/NaN, and grow or back
// off the scale in update(). Built on LibTorch's own AMP kernels, which exist for CPU
// too, so the float16 recipe runs without a GPU. With enabled=false every call passes
// straight through, as in PyTorch.
#pragma once

#include <cstdint>
#include <string>

#include <torch/torch.h>

#include "trainproof/training/checkpoint.h"

namespace trainproof {

struct GradScalerOptions {
  double init_scale = 65536.0;
  double growth_factor = 2.0;
  double backoff_factor = 0.5;
  int64_t growth_interval = 2000;
  bool enabled = true;
};

class GradScaler {
 public:
  explicit GradScaler(c10::Device device, GradScalerOptions o = {});

  torch::Tensor scale(const torch::Tensor& loss);
  // Divides the optimizer's gradients by the scale in place and records whether any is
  // inf/NaN. At most once per optimizer step.
  void unscale_(torch::optim::Optimizer& opt);
  // Steps the optimizer unless the (unscaled) gradients held inf/NaN; returns whether it stepped.
  bool step(torch::optim::Optimizer& opt);
  void update();

  bool is_enabled() const { return o_.enabled; }
  double get_scale() const;  // 1.0 when disabled, as PyTorch returns
  int64_t growth_tracker() const;

  void save(Checkpoint& ck, const std::string& prefix) const;
  void load(const Checkpoint& ck, const std::string& prefix);

 private:
  enum class Stage { kReady, kUnscaled, kStepped };
  void lazy_init();

  c10::Device device_;
  GradScalerOptions o_;
  torch::Tensor scale_;           // float32 scalar on device
  torch::Tensor growth_tracker_;  // int32 scalar on device
  torch::Tensor found_inf_;       // float32 scalar, set by unscale_
  Stage stage_ = Stage::kReady;
};

}  // namespace trainproof
