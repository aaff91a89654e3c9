// Device-side float16/bfloat16 conversions of the underflow example, in raw CUDA.
#include "trainproof/runner/device_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace trainproof {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

__global__ void conversions(float* out) {
  const float grad = 1e-8f;
  out[0] = __half2float(__float2half_rn(grad));
  out[1] = __bfloat162float(__float2bfloat16_rn(grad));
  out[2] = __half2float(__float2half_rn(grad * 65536.0f));
  // finfo from bit patterns: max, smallest normal, eps (next after 1 minus 1).
  out[3] = __half2float(__ushort_as_half(0x7bff));
  out[4] = __half2float(__ushort_as_half(0x0400));
  out[5] = __half2float(__ushort_as_half(0x3c01)) - 1.0f;
  out[6] = __bfloat162float(__ushort_as_bfloat16(0x7f7f));
  out[7] = __bfloat162float(__ushort_as_bfloat16(0x0080));
  out[8] = __bfloat162float(__ushort_as_bfloat16(0x3f81)) - 1.0f;
}

bool have_device() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

}  // namespace

bool cuda_compiled_in() {
  return true;
}

std::optional<DeviceConversions> device_conversions() {
  if (!have_device()) return std::nullopt;
  float* d = nullptr;
  check(cudaMalloc(&d, 9 * sizeof(float)), "cudaMalloc");
  conversions<<<1, 1>>>(d);
  float h[9];
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t copy = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  check(launch, "kernel launch");
  check(copy, "cudaMemcpy");
  return DeviceConversions{h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]};
}

std::optional<GpuFacts> gpu_facts() {
  if (!have_device()) return std::nullopt;
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
  GpuFacts f;
  f.name = p.name;
  f.major = p.major;
  f.minor = p.minor;
  cudaDriverGetVersion(&f.driver);
  cudaRuntimeGetVersion(&f.runtime);
  return f;
}

}  // namespace trainproof
