// The raw-CUDA check (built with nvcc when a CUDA compiler is present at configure time):
// the device's own conversions of the document's gradient 1e-8, and of 1e-8 * 65536, to
// __half and __nv_bfloat16, and the device's view of the finfo table; plus the GPU facts
// the fingerprint records. Without CUDA compiled in, or without a GPU, these say so.
#pragma once

#include <optional>
#include <string>

namespace trainproof {

struct DeviceConversions {
  float fp16_of_1e8, bf16_of_1e8, fp16_of_scaled;  // converted on the device, read back as float
  float fp16_max, fp16_smallest_normal, fp16_eps;  // computed on the device from bit patterns
  float bf16_max, bf16_smallest_normal, bf16_eps;
};

bool cuda_compiled_in();
// nullopt when CUDA is not compiled in or no device is present; throws on a CUDA error.
std::optional<DeviceConversions> device_conversions();

struct GpuFacts {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int driver = 0, runtime = 0;
};
std::optional<GpuFacts> gpu_facts();

}  // namespace trainproof
