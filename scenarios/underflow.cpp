// Document: "Why float16 Needs a Gradient Scaler". A gradient of 1e-8 is exactly zero in
// float16, survives in bfloat16, and survives in float16 when scaled by 65536 first.
#include <torch/torch.h>

#include "harness/scenario.h"
#include "harness/tensors.h"

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
  const auto fp16 = torch::tensor(grad, on.dtype(torch::kHalf));
  const auto bf16 = torch::tensor(grad, on.dtype(torch::kBFloat16));
  const auto scaled = torch::tensor(grad * 65536, on.dtype(torch::kHalf));  // scaled before casting
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

  t.check("fp16(1e-8) == 0", fp16.item<double>() == 0.0, py_scalar_repr(fp16));
  t.check("bf16(1e-8) != 0", bf16.item<double>() != 0.0, py_scalar_repr(bf16));
  t.check("fp16(1e-8 * 65536) != 0", scaled.item<double>() != 0.0, py_scalar_repr(scaled));
  return t;
}

}  // namespace trainproof
