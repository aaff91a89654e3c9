// This process's fingerprint for a device: the host's (verdict/fingerprint.h) with this
// program's LibTorch fields, and the GPU's.
#include "trainproof/runner/fingerprint.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/headeronly/version.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "src/verdict/libtorch_fields.h"
#include "trainproof/runner/device_check.h"

namespace trainproof {

namespace {

void add_this_libtorch(nlohmann::json& j) {
  j["libtorch_version"] = fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
  j["cpu_capability"] = at::get_cpu_capability();  // the kernel family ATen dispatches to
  j["threads"] = at::get_num_threads();
  auto& ctx = at::globalContext();
  j["deterministic_algorithms"] = ctx.deterministicAlgorithms();
  j["cudnn_deterministic"] = ctx.deterministicCuDNN();
  j["cudnn_benchmark"] = ctx.benchmarkCuDNN();
}

// Before main: every program that links the runner (each the CLI's LibTorch build) fingerprints
// its host with its LibTorch, whichever layer asks for the fingerprint (verify's, check's).
[[maybe_unused]] const bool kLibtorchFieldsProvided = (provide_libtorch_fields(add_this_libtorch), true);

}  // namespace

Fingerprint current_fingerprint(c10::Device device) {
  Fingerprint f = host_fingerprint();
  if (device.is_cuda()) {
    const auto& hooks = at::detail::getCUDAHooks();
    f.fields["cuda_runtime"] = std::to_string(hooks.versionCUDART());
    f.fields["cudnn"] = std::to_string(hooks.versionCuDNN());
    if (const auto gpu = gpu_facts()) {
      f.fields["gpu_name"] = nlohmann::json(gpu->name).dump();
      f.fields["gpu_compute_capability"] = nlohmann::json(fmt::format("{}.{}", gpu->major, gpu->minor)).dump();
      f.fields["cuda_driver"] = std::to_string(gpu->driver);
    }
  }
  return f;
}

}  // namespace trainproof
