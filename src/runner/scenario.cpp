// The scenario registry and the runner.
#include "trainproof/runner/scenario.h"

#include <ATen/Context.h>

#include <algorithm>
#include <cstdlib>

#include <torch/cuda.h>

#include "trainproof/core/fault.h"
#include "trainproof/runner/device_check.h"
#include "trainproof/training/tensors.h"

namespace trainproof {

std::vector<AmpRecipe> amp_recipes(c10::DeviceType device, bool native_bf16) {
  if (device != c10::DeviceType::CUDA) return {{c10::kBFloat16, false, ""}};
  std::vector<AmpRecipe> r{{c10::kHalf, true, ""}};
  if (native_bf16) r.push_back({c10::kBFloat16, false, "_bf16"});
  return r;
}

void RunContext::line(const std::string& text) {
  std::string printed = text;
  // The negative control of verify's printed-lines check: the first digit printed is off by one.
  if (!digit_changed_ && fault_injected("printed-digit-changed")) {
    const size_t d = printed.find_first_of("0123456789");
    if (d != std::string::npos) {
      printed[d] = static_cast<char>('0' + (printed[d] - '0' + 1) % 10);
      digit_changed_ = true;
    }
  }
  output_ += printed;
  output_ += '\n';
  if (echo_) echo_(printed);
}

Registry& Registry::instance() {
  static Registry r;
  return r;
}

bool Registry::add(ScenarioDef def) {
  if (find(def.name)) throw std::logic_error("scenario registered twice: " + def.name);
  defs_.push_back(std::move(def));
  return true;
}

bool Registry::describe(const std::string& name, ScenarioInfo info) {
  for (auto& d : defs_)
    if (d.name == name) {
      d.info = std::move(info);
      return true;
    }
  throw std::logic_error("TRAINPROOF_SCENARIO_INFO before TRAINPROOF_SCENARIO: " + name);
}

const ScenarioDef* Registry::find(const std::string& name) const {
  for (const auto& d : defs_)
    if (d.name == name) return &d;
  return nullptr;
}

std::vector<ScenarioDef> Registry::all() const {
  std::vector<ScenarioDef> out = defs_;
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

Trace run_scenario(const ScenarioDef& def, c10::Device device, const LineSink& echo) {
  if (device.is_cuda() && !torch::cuda::is_available()) throw Skipped("CUDA not available");
  if (device.is_cuda()) make_cuda_deterministic();  // a bitwise check needs deterministic kernels
  if (fault_injected("throw-in-" + def.name)) throw std::runtime_error("injected fault: throw-in-" + def.name);
  // bfloat16 is native from compute capability 8.0 (Ampere) on, where the documents recommend it.
  const auto gpu = device.is_cuda() ? gpu_facts() : std::nullopt;
  RunContext ctx(device, echo, gpu && gpu->major >= 8);
  Trace t = def.fn(ctx);
  t.output = ctx.output();
  return t;
}

}  // namespace trainproof
