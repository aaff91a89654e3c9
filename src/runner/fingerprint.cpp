// Collecting and diffing environment fingerprints.
#include "trainproof/runner/fingerprint.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/headeronly/version.h>

#include <fstream>

#include <cstdlib>
#include <ctime>
#include <set>

#include "src/process/exec_paths.h"
#include "trainproof/runner/device_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace trainproof {

const char* const kTrainproofVersion = TRAINPROOF_VERSION;  // project(VERSION) in CMakeLists.txt

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

namespace {

// CPU model and the ISA flags that decide which kernels LibTorch, oneDNN and MKL pick.
void add_cpu(nlohmann::json& j) {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model;
  while (model.empty() && std::getline(in, line))
    if (line.rfind("model name", 0) == 0) model = line.substr(line.find(':') + 2);
  const std::set<std::string> have = cpu_flags();
  std::vector<std::string> isa;
  for (const char* f : {"sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
                        "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8", "asimd", "sve"})
    if (have.count(f)) isa.push_back(f);
  j["cpu_model"] = model.empty() ? "unknown" : model;
  j["cpu_isa"] = fmt::format("{}", fmt::join(isa, " "));
  j["cpu_capability"] = at::get_cpu_capability();  // the kernel family ATen dispatches to
  // MKL's and oneDNN's instruction-set limits and reproducibility mode change bits too.
  nlohmann::json limits = nlohmann::json::object();
  for (const auto& v : path_variables())
    if (v != "ATEN_CPU_CAPABILITY" && v != "TRAINPROOF_THREADS")
      if (const char* value = std::getenv(v.c_str()); value && *value) limits[v] = value;
  j["kernel_limits"] = limits;
}

}  // namespace

std::string current_fingerprint(c10::Device device) {
  nlohmann::json j;
  j["libtorch_version"] = fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH);
#if defined(__clang__)
  j["compiler"] = fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
  j["compiler"] = fmt::format("gcc {}", __VERSION__);
#else
  j["compiler"] = "unknown";
#endif
  add_cpu(j);
  j["threads"] = at::get_num_threads();
  auto& ctx = at::globalContext();
  j["deterministic_algorithms"] = ctx.deterministicAlgorithms();
  j["cudnn_deterministic"] = ctx.deterministicCuDNN();
  j["cudnn_benchmark"] = ctx.benchmarkCuDNN();
  if (device.is_cuda()) {
    const auto& hooks = at::detail::getCUDAHooks();
    j["cuda_runtime"] = hooks.versionCUDART();
    j["cudnn"] = hooks.versionCuDNN();
    if (const auto gpu = gpu_facts()) {
      j["gpu_name"] = gpu->name;
      j["gpu_compute_capability"] = fmt::format("{}.{}", gpu->major, gpu->minor);
      j["cuda_driver"] = gpu->driver;
    }
  }
  return j.dump();
}

std::vector<FingerprintDiff> fingerprint_diff(const std::string& golden_json, const std::string& current_json) {
  const auto g = nlohmann::json::parse(golden_json, nullptr, false);
  const auto c = nlohmann::json::parse(current_json, nullptr, false);
  std::vector<FingerprintDiff> out;
  if (!g.is_object() || !c.is_object()) {
    out.push_back({"(fingerprint)", g.is_object() ? "object" : "unreadable", c.is_object() ? "object" : "unreadable"});
    return out;
  }
  std::set<std::string> keys;
  for (auto it = g.begin(); it != g.end(); ++it) keys.insert(it.key());
  for (auto it = c.begin(); it != c.end(); ++it) keys.insert(it.key());
  for (const auto& k : keys) {
    const std::string gv = g.contains(k) ? g[k].dump() : "(absent)";
    const std::string cv = c.contains(k) ? c[k].dump() : "(absent)";
    if (gv != cv) out.push_back({k, gv, cv});
  }
  return out;
}

bool is_cross_environment(const std::vector<FingerprintDiff>& diffs) {
  for (const auto& d : diffs)
    if (d.field != "trainproof_version") return true;
  return false;
}

std::string environment_verdict(const std::vector<FingerprintDiff>& diffs, bool beyond_exact, bool beyond_envelope) {
  if (!is_cross_environment(diffs))
    return beyond_exact || beyond_envelope ? "code change: the environment is the golden's and the values moved" : "";
  std::vector<std::string> fields;
  for (const auto& d : diffs) fields.push_back(d.field);
  const std::string env = fmt::format("the environment differs from the golden's ({})", fmt::join(fields, ", "));
  if (beyond_envelope) return fmt::format("both: {} and the values moved beyond the cross-machine envelope", env);
  if (beyond_exact) return fmt::format("environment drift: {}; the values stay within the cross-machine envelope", env);
  return "";
}

}  // namespace trainproof
