// GradScaler over at::_amp_foreach_non_finite_check_and_unscale_ and at::_amp_update_scale_.
#include "trainproof/training/grad_scaler.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"

namespace trainproof {

GradScaler::GradScaler(c10::Device device, GradScalerOptions o) : device_(device), o_(o) {
  if (fault_injected("scaler-always-enabled")) o_.enabled = true;
  if (o_.growth_factor <= 1.0)
    throw std::invalid_argument(fmt::format("GradScaler: growth_factor must be > 1, got {}", o_.growth_factor));
  if (o_.backoff_factor >= 1.0)
    throw std::invalid_argument(fmt::format("GradScaler: backoff_factor must be < 1, got {}", o_.backoff_factor));
}

void GradScaler::lazy_init() {
  if (scale_.defined()) return;
  const auto on = torch::TensorOptions().device(device_);
  scale_ = torch::full({}, o_.init_scale, on.dtype(torch::kFloat));
  growth_tracker_ = torch::full({}, 0, on.dtype(torch::kInt));
}

torch::Tensor GradScaler::scale(const torch::Tensor& loss) {
  if (!o_.enabled) return loss;
  lazy_init();
  return loss * scale_.to(loss.device(), /*non_blocking=*/true);
}

void GradScaler::unscale_(torch::optim::Optimizer& opt) {
  if (!o_.enabled) return;
  if (stage_ == Stage::kUnscaled)
    throw std::logic_error("unscale_() has already been called on this optimizer since the last update().");
  if (stage_ == Stage::kStepped) throw std::logic_error("unscale_() is being called after step().");
  lazy_init();
  // FP32 division can be imprecise for some scales; invert in double, as PyTorch does.
  const torch::Tensor inv_scale = scale_.to(torch::kDouble).reciprocal().to(torch::kFloat);
  found_inf_ = torch::full({}, 0.0, torch::TensorOptions().dtype(torch::kFloat).device(device_));
  // The kernel takes one device and dtype per call: group the gradients as PyTorch does.
  using Key = std::pair<c10::Device, c10::ScalarType>;
  std::vector<std::pair<Key, std::vector<torch::Tensor>>> groups;
  for (const auto& g : opt.param_groups())
    for (const auto& p : g.params()) {
      if (!p.grad().defined()) continue;
      if (p.grad().scalar_type() == torch::kHalf) throw std::logic_error("Attempting to unscale FP16 gradients.");
      const Key key{p.grad().device(), p.grad().scalar_type()};
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == key; });
      if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
      it->second.push_back(p.grad());
    }
  for (auto& [key, grads] : groups) {
    torch::Tensor found = key.first == device_ ? found_inf_ : torch::zeros_like(found_inf_.to(key.first));
    at::_amp_foreach_non_finite_check_and_unscale_(grads, found, inv_scale.to(key.first));
    if (key.first != device_) found_inf_.add_(found.to(device_));
  }
  stage_ = Stage::kUnscaled;
}

bool GradScaler::step(torch::optim::Optimizer& opt) {
  if (fault_injected("scaler-never-steps")) return false;
  if (!o_.enabled) {
    opt.step();
    return true;
  }
  if (stage_ == Stage::kStepped) throw std::logic_error("step() has already been called since the last update().");
  if (stage_ == Stage::kReady) unscale_(opt);
  const bool finite = found_inf_.item<float>() == 0.0f || fault_injected("scaler-steps-on-inf");
  if (finite) opt.step();
  stage_ = Stage::kStepped;
  return finite;
}

void GradScaler::update() {
  if (!o_.enabled) return;
  if (!found_inf_.defined() || stage_ == Stage::kReady)
    throw std::logic_error("No inf checks were recorded prior to update.");
  const double backoff = fault_injected("scaler-no-backoff") ? 1.0 : o_.backoff_factor;
  at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, o_.growth_factor, backoff, o_.growth_interval);
  stage_ = Stage::kReady;
}

double GradScaler::get_scale() const {
  if (!o_.enabled) return 1.0;
  return scale_.defined() ? scale_.item<double>() : o_.init_scale;
}

int64_t GradScaler::growth_tracker() const {
  return growth_tracker_.defined() ? growth_tracker_.item<int64_t>() : 0;
}

void GradScaler::save(Checkpoint& ck, const std::string& prefix) const {
  ck.put(prefix + "/enabled", static_cast<int64_t>(o_.enabled));
  ck.put(prefix + "/scale", get_scale());
  ck.put(prefix + "/growth_tracker", growth_tracker());
}

void GradScaler::load(const Checkpoint& ck, const std::string& prefix) {
  if (ck.integer(prefix + "/enabled") != static_cast<int64_t>(o_.enabled))
    throw BadInput(fmt::format("{}: the checkpoint's GradScaler was {}, this one is {}", ck.source(),
                               ck.integer(prefix + "/enabled") ? "enabled" : "disabled",
                               o_.enabled ? "enabled" : "disabled"));
  if (!o_.enabled) return;
  const auto on = torch::TensorOptions().device(device_);
  scale_ = torch::full({}, ck.real(prefix + "/scale"), on.dtype(torch::kFloat));
  growth_tracker_ = torch::full({}, ck.integer(prefix + "/growth_tracker"), on.dtype(torch::kInt));
  stage_ = Stage::kReady;
}

}  // namespace trainproof
