// This process's fingerprint for a device: the host's (verdict/fingerprint.h) and the GPU's.
#include "trainproof/runner/fingerprint.h"

#include <ATen/detail/CUDAHooksInterface.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trainproof/runner/device_check.h"

namespace trainproof {

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
