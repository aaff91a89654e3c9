// LibTorch glue used by scenarios and components.
#include "trainproof/training/tensors.h"

#include "trainproof/core/hash.h"

#include <ATen/Context.h>
#include <ATen/autocast_mode.h>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

namespace trainproof {

DType dtype_of(c10::ScalarType t) {
  switch (t) {
    case c10::kDouble:
      return DType::kFloat64;
    case c10::kFloat:
      return DType::kFloat32;
    case c10::kHalf:
      return DType::kFloat16;
    case c10::kBFloat16:
      return DType::kBFloat16;
    case c10::kLong:
      return DType::kInt64;
    case c10::kInt:
      return DType::kInt32;
    case c10::kBool:
      return DType::kBool;
    default:
      throw std::invalid_argument(fmt::format("trace: unsupported dtype {}", c10::toString(t)));
  }
}

std::string py_dtype(c10::ScalarType t) {
  return "torch." + std::string(dtype_name(dtype_of(t)));
}

std::string py_scalar_repr(const torch::Tensor& scalar) {
  TORCH_CHECK(scalar.numel() == 1, "py_scalar_repr expects one value, got ", scalar.numel());
  const double v = scalar.item<double>();
  std::string body;
  if (!scalar.is_floating_point()) {
    body = fmt::format("{}", scalar.item<int64_t>());
  } else if (v == 0 || !std::isfinite(v) || v == std::ceil(v)) {
    const double a = std::fabs(v);
    const bool sci = std::isfinite(v) && v != 0 && (a > 1e8 || a < 1e-4);
    body = sci ? fmt::format("{:.4e}", v) : fmt::format("{:.0f}", v) + (std::isfinite(v) ? "." : "");
    if (std::isnan(v)) body = "nan";
    if (std::isinf(v)) body = v > 0 ? "inf" : "-inf";
  } else {
    const double a = std::fabs(v);
    body = (a > 1e8 || a < 1e-4) ? fmt::format("{:.4e}", v) : fmt::format("{:.4f}", v);
  }
  const auto t = scalar.scalar_type();
  const bool default_dtype = t == c10::kFloat || t == c10::kLong || t == c10::kBool;
  return default_dtype ? fmt::format("tensor({})", body) : fmt::format("tensor({}, dtype={})", body, py_dtype(t));
}

Series& record(Trace& trace, std::string name, const torch::Tensor& t, Tolerance tol, std::string unit) {
  const DType d = dtype_of(t.scalar_type());
  const torch::Tensor flat = t.detach().to(torch::kCPU).reshape({-1}).contiguous();
  if (is_integer(d)) {
    const torch::Tensor i = flat.to(torch::kLong);
    const int64_t* p = i.data_ptr<int64_t>();
    return trace.add_ints(std::move(name), d, std::vector<int64_t>(p, p + i.numel()), tol, std::move(unit));
  }
  const torch::Tensor f = flat.to(torch::kDouble);  // exact for every float dtype
  const double* p = f.data_ptr<double>();
  return trace.add(std::move(name), d, std::vector<double>(p, p + f.numel()), tol, std::move(unit));
}

torch::Tensor flat_parameters(const torch::nn::Module& m) {
  std::vector<torch::Tensor> flat;
  for (const auto& p : m.parameters()) flat.push_back(p.detach().to(torch::kCPU).reshape({-1}));
  return torch::cat(flat);
}

int64_t bitwise_checksum(const std::vector<torch::Tensor>& tensors) {
  uint64_t h = kFnv1a64Offset;
  for (const auto& t : tensors) {
    const torch::Tensor c = t.detach().to(torch::kCPU).contiguous();
    h = fnv1a64(std::string_view(static_cast<const char*>(c.data_ptr()), c.numel() * c.element_size()), h);
  }
  int64_t out;
  std::memcpy(&out, &h, sizeof out);
  return out;
}

bool bitwise_equal(const torch::Tensor& a, const torch::Tensor& b) {
  if (a.scalar_type() != b.scalar_type() || a.sizes() != b.sizes()) return false;
  const torch::Tensor ca = a.detach().to(torch::kCPU).contiguous(), cb = b.detach().to(torch::kCPU).contiguous();
  return std::memcmp(ca.data_ptr(), cb.data_ptr(), ca.numel() * ca.element_size()) == 0;
}

AutocastGuard::AutocastGuard(c10::DeviceType device, c10::ScalarType dtype, bool enabled)
    : device_(device),
      prev_enabled_(at::autocast::is_autocast_enabled(device)),
      prev_dtype_(at::autocast::get_autocast_dtype(device)) {
  at::autocast::set_autocast_enabled(device_, enabled);
  at::autocast::set_autocast_dtype(device_, dtype);
  at::autocast::increment_nesting();
}

AutocastGuard::~AutocastGuard() {
  // Leaving the outermost autocast region frees the cached casts of the weights.
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  at::autocast::set_autocast_enabled(device_, prev_enabled_);
  at::autocast::set_autocast_dtype(device_, prev_dtype_);
}

DeterministicAlgorithmsGuard::DeterministicAlgorithmsGuard(bool on)
    : prev_(at::globalContext().deterministicAlgorithms()),
      prev_warn_only_(at::globalContext().deterministicAlgorithmsWarnOnly()) {
  at::globalContext().setDeterministicAlgorithms(on, /*warn_only=*/false);
}

DeterministicAlgorithmsGuard::~DeterministicAlgorithmsGuard() {
  at::globalContext().setDeterministicAlgorithms(prev_, prev_warn_only_);
}

void make_cuda_deterministic() {
  // cuBLAS needs a fixed workspace for deterministic results; it must be set before the
  // first cuBLAS handle is made, so set it before any CUDA work (unless the user chose one).
  setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", /*overwrite=*/0);
  auto& ctx = at::globalContext();
  ctx.setDeterministicAlgorithms(true, /*warn_only=*/false);
  ctx.setDeterministicCuDNN(true);
  ctx.setBenchmarkCuDNN(false);
}

}  // namespace trainproof
