// Document: "Practice" p1. What each dtype makes of 1 + 0.001 and 1000 + 1.
#include <torch/torch.h>

#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"

namespace trainproof {

TRAINPROOF_SCENARIO(precision_table, "Practice p1: 1 + 0.001 and 1000 + 1 per dtype") {
  const auto on = torch::TensorOptions().device(ctx.device());
  Trace t;
  for (const auto dt : {torch::kFloat, torch::kHalf, torch::kBFloat16}) {
    // The mistake its checks catch: a "bf16" computation that really runs in float32.
    const auto computed_in = dt == torch::kBFloat16 && fault_injected("bf16-computed-in-float32") ? torch::kFloat : dt;
    const auto one = torch::tensor(1.0, on.dtype(computed_in));
    const auto a = one + 0.001;  // a Python scalar does not promote the tensor's dtype
    const auto b = torch::tensor(1000.0, on.dtype(computed_in)) + 1;
    ctx.print("{:15s} 1 + 0.001 = {:.6f}   1000 + 1 = {:.1f}", py_dtype(dt), a.item<double>(), b.item<double>());
    record(t, "one_plus_0.001_" + std::string(dtype_name(dtype_of(dt))), a);
    record(t, "1000_plus_1_" + std::string(dtype_name(dtype_of(dt))), b);
    if (dt == torch::kBFloat16) {
      t.check("bf16: 1 + 0.001 == 1", a.item<double>() == 1.0, fmt::format("{:.6f}", a.item<double>()));
      t.check("bf16: 1000 + 1 == 1000", b.item<double>() == 1000.0, fmt::format("{:.1f}", b.item<double>()));
    }
  }
  return t;
}

TRAINPROOF_SCENARIO_INFO(precision_table, .document = kBestPractices,
                         .prints = {"torch.float32   1 + 0.001 = 1.001000   1000 + 1 = 1001.0",
                                    "torch.float16   1 + 0.001 = 1.000977   1000 + 1 = 1001.0",
                                    "torch.bfloat16  1 + 0.001 = 1.000000   1000 + 1 = 1000.0"},
                         .controls = {
                             {"bf16-computed-in-float32", {"bf16: 1 + 0.001 == 1", "bf16: 1000 + 1 == 1000"}}});

}  // namespace trainproof
