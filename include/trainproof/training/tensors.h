// LibTorch glue: recording tensors into traces, bitwise checksums, Python-style
// printing of dtypes and scalars, and an autocast guard for C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "trainproof/core/trace.h"

namespace trainproof {

DType dtype_of(c10::ScalarType t);
std::string py_dtype(c10::ScalarType t);                  // "torch.float32"
std::string py_scalar_repr(const torch::Tensor& scalar);  // "tensor(1.0012e-08, dtype=torch.bfloat16)"

// Records a tensor's values (flattened, moved to CPU) in the dtype they were produced in.
Series& record(Trace& trace, std::string name, const torch::Tensor& t, Tolerance tol = {}, std::string unit = "");

// All parameters of a module, flattened into one float tensor on CPU, in registration order.
torch::Tensor flat_parameters(const torch::nn::Module& m);
// FNV-1a over the raw bytes of each tensor (contiguous, on CPU): equal iff bitwise equal
// for all practical purposes. Stored as int64 in traces.
int64_t bitwise_checksum(const std::vector<torch::Tensor>& tensors);
bool bitwise_equal(const torch::Tensor& a, const torch::Tensor& b);

// torch.autocast(device_type, dtype) as an RAII guard.
class AutocastGuard {
 public:
  AutocastGuard(c10::DeviceType device, c10::ScalarType dtype, bool enabled = true);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  c10::DeviceType device_;
  bool prev_enabled_;
  c10::ScalarType prev_dtype_;
};

// torch.use_deterministic_algorithms(on) for a scope; the previous setting comes back after.
class DeterministicAlgorithmsGuard {
 public:
  explicit DeterministicAlgorithmsGuard(bool on);
  ~DeterministicAlgorithmsGuard();
  DeterministicAlgorithmsGuard(const DeterministicAlgorithmsGuard&) = delete;
  DeterministicAlgorithmsGuard& operator=(const DeterministicAlgorithmsGuard&) = delete;

 private:
  bool prev_, prev_warn_only_;
};

// The settings a bitwise check on CUDA needs: deterministic algorithms, deterministic
// cuDNN without benchmarking, CUBLAS_WORKSPACE_CONFIG. The fingerprint records them.
void make_cuda_deterministic();

}  // namespace trainproof
