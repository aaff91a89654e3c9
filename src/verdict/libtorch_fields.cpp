// The host fingerprint's LibTorch fields (libtorch_fields.h), compiled only where LibTorch is:
// the one source of verdict that includes it.
#include "src/verdict/libtorch_fields.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <torch/headeronly/version.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace trainproof {

void add_libtorch_fields(nlohmann::json& j) {
  j["libtorch_version"] = fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
  j["cpu_capability"] = at::get_cpu_capability();  // the kernel family ATen dispatches to
  j["threads"] = at::get_num_threads();
  auto& ctx = at::globalContext();
  j["deterministic_algorithms"] = ctx.deterministicAlgorithms();
  j["cudnn_deterministic"] = ctx.deterministicCuDNN();
  j["cudnn_benchmark"] = ctx.benchmarkCuDNN();
}

}  // namespace trainproof
