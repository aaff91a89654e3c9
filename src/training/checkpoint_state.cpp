// What a training checkpoint holds (checkpoint.h): a module's parameters and buffers, an
// optimizer's state and options per parameter group, and the RNG states, saved and restored.
#include "trainproof/training/checkpoint.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <torch/cuda.h>

#include <algorithm>
#include <mutex>

#include <fmt/format.h>

#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"

namespace trainproof {

void save_module(Checkpoint& ck, const std::string& prefix, const torch::nn::Module& m) {
  for (const auto& p : m.named_parameters()) ck.put(prefix + "/" + p.key(), p.value());
  for (const auto& b : m.named_buffers()) ck.put(prefix + "/" + b.key(), b.value());
}

void load_module(const Checkpoint& ck, const std::string& prefix, torch::nn::Module& m) {
  torch::NoGradGuard no_grad;
  auto copy_in = [&](const std::string& name, torch::Tensor& dst) {
    const torch::Tensor& src = ck.tensor(prefix + "/" + name);
    if (src.sizes() != dst.sizes() || src.scalar_type() != dst.scalar_type())
      throw BadInput(fmt::format("{}: entry '{}/{}' has shape {} {}, the model expects {} {}", ck.source(), prefix,
                                 name, c10::str(src.sizes()), c10::toString(src.scalar_type()), c10::str(dst.sizes()),
                                 c10::toString(dst.scalar_type())));
    dst.copy_(src);
  };
  for (auto& p : m.named_parameters()) copy_in(p.key(), p.value());
  for (auto& b : m.named_buffers()) copy_in(b.key(), b.value());
}

namespace {
template <class F>
void for_each_param(torch::optim::Optimizer& opt, F f) {
  auto& groups = opt.param_groups();
  for (size_t g = 0; g < groups.size(); ++g)
    for (size_t i = 0; i < groups[g].params().size(); ++i) f(g, i, groups[g].params()[i]);
}
}  // namespace

namespace {
// Each group's hyperparameters, as Python's optimizer.state_dict()["param_groups"] holds
// them: schedulers change more than lr (OneCycleLR cycles beta1 or momentum).
template <class Options>
bool group_options(Checkpoint* save, const Checkpoint* load, const std::string& key,
                   torch::optim::OptimizerOptions& o) {
  auto* opts = dynamic_cast<Options*>(&o);
  if (!opts) return false;
  auto real = [&](const char* name, auto get, auto set) {
    if (save) save->put(key + "/" + name, static_cast<double>(get()));
    if (load) set(load->real(key + "/" + name));
  };
  real(
      "lr", [&] { return opts->lr(); }, [&](double v) { opts->lr(v); });
  real(
      "weight_decay", [&] { return opts->weight_decay(); }, [&](double v) { opts->weight_decay(v); });
  if constexpr (std::is_same_v<Options, torch::optim::SGDOptions>) {
    real(
        "momentum", [&] { return opts->momentum(); }, [&](double v) { opts->momentum(v); });
    real(
        "dampening", [&] { return opts->dampening(); }, [&](double v) { opts->dampening(v); });
  } else {
    real(
        "beta1", [&] { return std::get<0>(opts->betas()); },
        [&](double v) { opts->betas(std::make_tuple(v, std::get<1>(opts->betas()))); });
    real(
        "beta2", [&] { return std::get<1>(opts->betas()); },
        [&](double v) { opts->betas(std::make_tuple(std::get<0>(opts->betas()), v)); });
    real(
        "eps", [&] { return opts->eps(); }, [&](double v) { opts->eps(v); });
  }
  return true;
}

void transfer_group(Checkpoint* save, const Checkpoint* load, const std::string& key,
                    torch::optim::OptimizerOptions& o) {
  if (!group_options<torch::optim::AdamWOptions>(save, load, key, o) &&
      !group_options<torch::optim::AdamOptions>(save, load, key, o) &&
      !group_options<torch::optim::SGDOptions>(save, load, key, o))
    throw std::invalid_argument("checkpoint: unsupported optimizer (SGD, Adam and AdamW are supported)");
}
}  // namespace

void save_optimizer(Checkpoint& ck, const std::string& prefix, torch::optim::Optimizer& opt) {
  auto& groups = opt.param_groups();
  ck.put(prefix + "/groups", static_cast<int64_t>(groups.size()));
  for (size_t g = 0; g < groups.size(); ++g)
    transfer_group(&ck, nullptr, fmt::format("{}/group{}", prefix, g), groups[g].options());
  for_each_param(opt, [&](size_t g, size_t i, const torch::Tensor& p) {
    auto it = opt.state().find(p.unsafeGetTensorImpl());
    if (it == opt.state().end()) return;
    const std::string key = fmt::format("{}/state/{}.{}", prefix, g, i);
    auto* s = it->second.get();
    if (auto* a = dynamic_cast<torch::optim::AdamWParamState*>(s)) {
      ck.put(key + "/step", a->step());
      ck.put(key + "/exp_avg", a->exp_avg());
      ck.put(key + "/exp_avg_sq", a->exp_avg_sq());
      if (a->max_exp_avg_sq().defined()) ck.put(key + "/max_exp_avg_sq", a->max_exp_avg_sq());
    } else if (auto* a = dynamic_cast<torch::optim::AdamParamState*>(s)) {
      ck.put(key + "/step", a->step());
      ck.put(key + "/exp_avg", a->exp_avg());
      ck.put(key + "/exp_avg_sq", a->exp_avg_sq());
      if (a->max_exp_avg_sq().defined()) ck.put(key + "/max_exp_avg_sq", a->max_exp_avg_sq());
    } else if (auto* m = dynamic_cast<torch::optim::SGDParamState*>(s)) {
      if (m->momentum_buffer().defined()) ck.put(key + "/momentum_buffer", m->momentum_buffer());
    } else {
      throw std::invalid_argument("save_optimizer: unsupported optimizer (SGD, Adam and AdamW are supported)");
    }
  });
}

void load_optimizer(const Checkpoint& ck, const std::string& prefix, torch::optim::Optimizer& opt) {
  if (fault_injected("resume-drops-optimizer-state")) return;
  auto& groups = opt.param_groups();
  const int64_t n = ck.integer(prefix + "/groups");
  if (n != static_cast<int64_t>(groups.size()))
    throw BadInput(fmt::format("{}: optimizer has {} parameter groups, checkpoint {}", ck.source(), groups.size(), n));
  for (size_t g = 0; g < groups.size(); ++g)
    transfer_group(nullptr, &ck, fmt::format("{}/group{}", prefix, g), groups[g].options());
  auto as_param = [](const torch::Tensor& saved, const torch::Tensor& p) { return saved.to(p.device()).clone(); };
  for_each_param(opt, [&](size_t g, size_t i, const torch::Tensor& p) {
    const std::string key = fmt::format("{}/state/{}.{}", prefix, g, i);
    void* id = p.unsafeGetTensorImpl();
    opt.state().erase(id);
    if (dynamic_cast<torch::optim::AdamW*>(&opt) || dynamic_cast<torch::optim::Adam*>(&opt)) {
      if (!ck.has(key + "/step")) return;
      auto fill = [&](auto state) {
        state->step(ck.integer(key + "/step"));
        state->exp_avg(as_param(ck.tensor(key + "/exp_avg"), p));
        state->exp_avg_sq(as_param(ck.tensor(key + "/exp_avg_sq"), p));
        if (ck.has(key + "/max_exp_avg_sq")) state->max_exp_avg_sq(as_param(ck.tensor(key + "/max_exp_avg_sq"), p));
        opt.state()[id] = std::move(state);
      };
      if (dynamic_cast<torch::optim::AdamW*>(&opt))
        fill(std::make_unique<torch::optim::AdamWParamState>());
      else
        fill(std::make_unique<torch::optim::AdamParamState>());
    } else if (dynamic_cast<torch::optim::SGD*>(&opt)) {
      if (!ck.has(key + "/momentum_buffer")) return;
      auto state = std::make_unique<torch::optim::SGDParamState>();
      state->momentum_buffer(as_param(ck.tensor(key + "/momentum_buffer"), p));
      opt.state()[id] = std::move(state);
    } else {
      throw std::invalid_argument("load_optimizer: unsupported optimizer (SGD, Adam and AdamW are supported)");
    }
  });
}

void save_rng(Checkpoint& ck, const std::string& prefix) {
  auto gen = at::detail::getDefaultCPUGenerator();
  {
    std::lock_guard<std::mutex> lock(gen.mutex());
    ck.put(prefix + "/cpu", gen.get_state());
  }
  const int64_t n = torch::cuda::is_available() ? static_cast<int64_t>(torch::cuda::device_count()) : 0;
  ck.put(prefix + "/cuda_devices", n);
  for (int64_t i = 0; i < n; ++i) {
    auto g = at::globalContext().defaultGenerator(c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(i)));
    std::lock_guard<std::mutex> lock(g.mutex());
    ck.put(fmt::format("{}/cuda{}", prefix, i), g.get_state());
  }
}

void load_rng(const Checkpoint& ck, const std::string& prefix) {
  if (fault_injected("resume-drops-rng-state")) return;
  // A malformed state tensor makes LibTorch throw; report it as a damaged checkpoint.
  auto set_state = [&](at::Generator gen, const std::string& key) {
    std::lock_guard<std::mutex> lock(gen.mutex());
    try {
      gen.set_state(ck.tensor(key));
    } catch (const c10::Error& e) {
      throw BadInput(fmt::format("{}: entry '{}' is not a valid generator state: {}", ck.source(), key,
                                 e.what_without_backtrace()));
    }
  };
  set_state(at::detail::getDefaultCPUGenerator(), prefix + "/cpu");
  const int64_t saved = ck.integer(prefix + "/cuda_devices");
  const int64_t n = torch::cuda::is_available() ? static_cast<int64_t>(torch::cuda::device_count()) : 0;
  for (int64_t i = 0; i < std::min(saved, n); ++i)
    set_state(at::globalContext().defaultGenerator(c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(i))),
              fmt::format("{}/cuda{}", prefix, i));
}

}  // namespace trainproof
