// Document: "Why float16 Needs a Gradient Scaler". A gradient of 1e-8 is exactly zero in
// float16, survives in bfloat16, and survives in float16 when scaled by 65536 first.
#include <torch/torch.h>

#include "trainproof/runner/device_check.h"
#include "trainproof/runner/scenario.h"
#include "trainproof/training/tensors.h"

namespace trainproof {
namespace {

struct FInfo {
  double max, tiny, eps;
};
template <class T>
FInfo finfo() {
  return {static_cast<double>(std::numeric_limits<T>::max()), static_cast<double>(std::numeric_limits<T>::min()),
          static_cast<double>(std::numeric_limits<T>::epsilon())};
}

}  // namespace

TRAINPROOF_SCENARIO(underflow, "Why float16 Needs a Gradient Scaler") {
  const auto on = torch::TensorOptions().device(ctx.device());
  const double grad = 1e-8;  // a realistic tiny gradient value
  // The mistakes its checks catch, made on purpose under TRAINPROOF_INJECT_FAULT.
  const auto fp16 =
      torch::tensor(grad, on.dtype(fault_injected("fp16-kept-in-float32") ? torch::kFloat : torch::kHalf));
  const auto bf16 =
      torch::tensor(grad, on.dtype(fault_injected("bf16-made-float16") ? torch::kHalf : torch::kBFloat16));
  const auto scaled = fault_injected("scaled-after-cast")
                          ? torch::tensor(grad, on.dtype(torch::kHalf)) * 65536
                          : torch::tensor(grad * 65536, on.dtype(torch::kHalf));  // scaled before casting
  ctx.line(py_scalar_repr(fp16));
  ctx.line(py_scalar_repr(bf16));
  ctx.line(py_scalar_repr(scaled));

  Trace t;
  // Conversions are exactly specified by IEEE rounding: bitwise on any hardware.
  record(t, "fp16_of_1e-8", fp16);
  record(t, "bf16_of_1e-8", bf16);
  record(t, "fp16_of_1e-8_x65536", scaled);

  const std::pair<c10::ScalarType, FInfo> table[] = {
      {torch::kHalf, finfo<c10::Half>()}, {torch::kBFloat16, finfo<c10::BFloat16>()}, {torch::kFloat, finfo<float>()}};
  std::vector<double> max, tiny, eps;
  for (const auto& [dt, fi] : table) {
    ctx.print("{:15s} max {:.3g}  smallest normal {:.3g}  eps {:.3g}", py_dtype(dt), fi.max, fi.tiny, fi.eps);
    max.push_back(fi.max);
    tiny.push_back(fi.tiny);
    eps.push_back(fi.eps);
  }
  t.add("finfo_max", DType::kFloat64, max);
  t.add("finfo_smallest_normal", DType::kFloat64, tiny);
  t.add("finfo_eps", DType::kFloat64, eps);

  // On a GPU, the raw-CUDA check: the device's own conversions and finfo agree with the host's.
  if (ctx.is_cuda()) {
    auto dc = device_conversions();
    if (dc && fault_injected("device-conversions-differ")) dc->fp16_of_1e8 = 1e-8f;
    if (dc && fault_injected("device-finfo-differs")) dc->bf16_eps *= 2;
    if (!dc)
      ctx.skip(cuda_compiled_in() ? "no CUDA device for the raw-CUDA check"
                                  : "raw-CUDA check not compiled in (no nvcc at configure time)");
    t.add("device_fp16_bf16_scaled", DType::kFloat32, {dc->fp16_of_1e8, dc->bf16_of_1e8, dc->fp16_of_scaled});
    t.add("device_finfo_fp16_bf16", DType::kFloat32,
          {dc->fp16_max, dc->fp16_smallest_normal, dc->fp16_eps, dc->bf16_max, dc->bf16_smallest_normal, dc->bf16_eps});
    t.check("device conversions equal the host's",
            dc->fp16_of_1e8 == fp16.item<float>() && dc->bf16_of_1e8 == bf16.item<float>() &&
                dc->fp16_of_scaled == scaled.item<float>(),
            "");
    t.check("device finfo equals the host's",
            dc->fp16_max == max[0] && dc->fp16_smallest_normal == tiny[0] && dc->fp16_eps == eps[0] &&
                dc->bf16_max == max[1] && dc->bf16_smallest_normal == tiny[1] && dc->bf16_eps == eps[1],
            "");
  }
  t.check("fp16(1e-8) == 0", fp16.item<double>() == 0.0, py_scalar_repr(fp16));
  t.check("bf16(1e-8) != 0", bf16.item<double>() != 0.0, py_scalar_repr(bf16));
  t.check("fp16(1e-8 * 65536) != 0", scaled.item<double>() != 0.0, py_scalar_repr(scaled));
  return t;
}

TRAINPROOF_SCENARIO_INFO(underflow, .document = kBestPractices,
                         .prints = {"tensor(0., dtype=torch.float16)", "tensor(1.0012e-08, dtype=torch.bfloat16)",
                                    "tensor(0.0007, dtype=torch.float16)",
                                    "torch.float16   max 6.55e+04  smallest normal 6.1e-05  eps 0.000977",
                                    "torch.bfloat16  max 3.39e+38  smallest normal 1.18e-38  eps 0.00781",
                                    "torch.float32   max 3.4e+38  smallest normal 1.18e-38  eps 1.19e-07"},
                         .controls = {{"fp16-kept-in-float32", {"fp16(1e-8) == 0"}},
                                      {"bf16-made-float16", {"bf16(1e-8) != 0"}},
                                      {"scaled-after-cast", {"fp16(1e-8 * 65536) != 0"}},
                                      {"device-conversions-differ", {"device conversions equal the host's"}, "cuda"},
                                      {"device-finfo-differs", {"device finfo equals the host's"}, "cuda"}});

}  // namespace trainproof
