// Scenarios: named, self-registering units that run on a device, print what their
// document section prints, and return a Trace.
//
//   TRAINPROOF_SCENARIO(underflow, "Why float16 Needs a Gradient Scaler") {
//     ctx.print("...");
//     Trace t; ...; return t;
//   }
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <fmt/format.h>

#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"  // scenarios make their mistakes on purpose for negative controls
#include "trainproof/core/trace.h"

namespace trainproof {

// One of the documents' mixed-precision recipes: the autocast dtype, and whether a
// GradScaler is enabled with it (float16 needs one; bfloat16 has float32's range and does not).
struct AmpRecipe {
  c10::ScalarType dtype;
  bool scaler;
  std::string suffix;  // appended to its series and invariant names; "" for the device's first recipe
};

// The recipes the documents give for a device: bfloat16 without a scaler on the CPU; on CUDA
// float16 with an enabled GradScaler, and, where the GPU has native bfloat16 (compute
// capability 8.0, Ampere, and newer), bfloat16 without one as well ("_bf16").
std::vector<AmpRecipe> amp_recipes(c10::DeviceType device, bool native_bf16);

// Where a scenario's document-style lines go as it prints them: `trainproof run` shows them
// live; verify and record keep them in the trace only (an empty sink).
using LineSink = std::function<void(const std::string&)>;

class RunContext {
 public:
  explicit RunContext(c10::Device device, LineSink echo = {}, bool native_bf16 = false)
      : device_(device), echo_(std::move(echo)), native_bf16_(native_bf16) {}

  c10::Device device() const { return device_; }
  bool is_cuda() const { return device_.is_cuda(); }
  // The documents' recipe: bfloat16 autocast on CPU, float16 (+ GradScaler) on CUDA.
  c10::ScalarType amp_dtype() const { return is_cuda() ? c10::kHalf : c10::kBFloat16; }
  // Every recipe this device runs, the one amp_dtype() names first.
  std::vector<AmpRecipe> amp_recipes() const { return trainproof::amp_recipes(device_.type(), native_bf16_); }

  // Prints one line of the scenario's document-style output.
  template <class... Args>
  void print(fmt::format_string<Args...> f, Args&&... args) {
    line(fmt::format(f, std::forward<Args>(args)...));
  }
  void line(const std::string& text);
  const std::string& output() const { return output_; }

  [[noreturn]] void skip(const std::string& reason) const { throw Skipped(reason); }

 private:
  c10::Device device_;
  LineSink echo_;
  bool native_bf16_;
  std::string output_;
  bool digit_changed_ = false;  // the fault printed-digit-changed has struck
};

using ScenarioFn = Trace (*)(RunContext&);

// The mistake an invariant exists to catch. TRAINPROOF_INJECT_FAULT=<fault> makes it on
// purpose; then every invariant named in `breaks` (a part of its name) must be broken and
// `verify` must exit 1. A check whose control passes is a broken check
// (tests/negative_control_test.cpp runs every control of every scenario).
struct NegativeControl {
  std::string fault;
  std::vector<std::string> breaks;
  std::string device = "cpu";  // where the invariants it breaks are checked
};

// Why a series trained or computed with dropout differs between CPU and CUDA by design
// (Series::across_devices): each device draws the masks from its own generator.
inline constexpr const char* kDeviceDropout =
    "dropout masks come from the device's own generator (the CPU's mt19937, CUDA's Philox): one seed, other masks";
// Why a mixed-precision recipe's series do: the documents' recipe is the device's own.
inline constexpr const char* kDeviceRecipe =
    "autocast's dtype is the device's recipe: bfloat16 on the CPU, float16 with a GradScaler on CUDA";

// The two documents, by title.
inline constexpr const char* kBestPractices = "PyTorch Training Best Practices";
inline constexpr const char* kTrainingLoop = "PyTorch Training Loop: nn.Module, Optimizers, AMP & Checkpoints";
inline constexpr const char* kBeyondTheDocuments = "(beyond the documents: their laws across processes)";

// What is known of a scenario without running it: `trainproof list --json` prints it, and
// the tests and CI filters are derived from it.
struct ScenarioInfo {
  std::string document;        // the title of the document it reproduces
  bool multi_process = false;  // starts rank processes (ctest -L distributed runs it alone)
  // The lines the document printed, which the run must print exactly (verify compares them
  // on the CPU, where the documents printed them); empty where the document prints nothing or
  // its values depend on the machine (the scenario's file says which).
  std::vector<std::string> prints = {};
  std::vector<std::string> also_prints = {};  // lines the scenario prints after them, the document does not
  std::vector<NegativeControl> controls;

  // Everything the run must print, in order: prints, then also_prints.
  std::vector<std::string> printed_lines() const {
    std::vector<std::string> all = prints;
    all.insert(all.end(), also_prints.begin(), also_prints.end());
    return all;
  }
};

struct ScenarioDef {
  std::string name;
  std::string section;  // the document section it implements
  ScenarioFn fn = nullptr;
  ScenarioInfo info;
};

class Registry {
 public:
  static Registry& instance();
  bool add(ScenarioDef def);
  bool describe(const std::string& name, ScenarioInfo info);  // after add, in the same file
  const ScenarioDef* find(const std::string& name) const;
  std::vector<ScenarioDef> all() const;  // sorted by name

 private:
  std::vector<ScenarioDef> defs_;
};

// Runs a scenario on a device: prepares the device (seeds nothing: scenarios seed
// themselves, as the documents do), runs it, and stores its printed output in the
// trace. Throws Skipped when the device is absent or the scenario skips itself.
Trace run_scenario(const ScenarioDef& def, c10::Device device, const LineSink& echo = {});

}  // namespace trainproof

#define TRAINPROOF_SCENARIO(NAME, SECTION)                                                       \
  static ::trainproof::Trace trainproof_scenario_##NAME(::trainproof::RunContext& ctx);          \
  [[maybe_unused]] static const bool trainproof_registered_##NAME =                              \
      ::trainproof::Registry::instance().add({#NAME, SECTION, &trainproof_scenario_##NAME, {}}); \
  static ::trainproof::Trace trainproof_scenario_##NAME(::trainproof::RunContext& ctx)

// After the scenario, in its file:
//   TRAINPROOF_SCENARIO_INFO(underflow, .document = "...",
//                            .controls = {{"fp16-kept-in-float32", {"fp16(1e-8) == 0"}}});
#define TRAINPROOF_SCENARIO_INFO(NAME, ...)                        \
  [[maybe_unused]] static const bool trainproof_described_##NAME = \
      ::trainproof::Registry::instance().describe(#NAME, ::trainproof::ScenarioInfo{__VA_ARGS__})
