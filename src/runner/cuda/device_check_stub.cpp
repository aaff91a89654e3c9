// Built instead of device_check.cu when no CUDA compiler was found at configure time.
#include "trainproof/runner/device_check.h"

namespace trainproof {

bool cuda_compiled_in() {
  return false;
}
std::optional<DeviceConversions> device_conversions() {
  return std::nullopt;
}
std::optional<GpuFacts> gpu_facts() {
  return std::nullopt;
}

}  // namespace trainproof
