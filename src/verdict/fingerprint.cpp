// The host's fingerprint, and fingerprints diffed and judged (fingerprint.h).
#include "trainproof/verdict/fingerprint.h"

#include <fstream>

#include <cstdlib>
#include <ctime>
#include <set>

#include "src/process/exec_paths.h"
#include "src/verdict/libtorch_fields.h"

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
  // MKL's and oneDNN's instruction-set limits and reproducibility mode change bits too.
  nlohmann::json limits = nlohmann::json::object();
  for (const auto& v : path_variables())
    if (v != "ATEN_CPU_CAPABILITY" && v != "TRAINPROOF_THREADS")
      if (const char* value = std::getenv(v.c_str()); value && *value) limits[v] = value;
  j["kernel_limits"] = limits;
}

}  // namespace

Fingerprint host_fingerprint() {
  nlohmann::json j;
#if defined(__clang__)
  j["compiler"] = fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
  j["compiler"] = fmt::format("gcc {}", __VERSION__);
#else
  j["compiler"] = "unknown";
#endif
  add_cpu(j);
  add_libtorch_fields(j);
  return Fingerprint::parse(j.dump());
}

Fingerprint Fingerprint::parse(const std::string& json) {
  Fingerprint f;
  const auto j = nlohmann::json::parse(json, nullptr, false);
  f.readable = j.is_object();
  if (f.readable)
    for (auto it = j.begin(); it != j.end(); ++it) f.fields[it.key()] = it.value().dump();
  return f;
}

std::string Fingerprint::json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [field, value] : fields) j[field] = nlohmann::json::parse(value);
  return j.dump();
}

std::vector<FingerprintDiff> fingerprint_diff(const Fingerprint& golden, const Fingerprint& current) {
  std::vector<FingerprintDiff> out;
  if (!golden.readable || !current.readable) {
    out.push_back(
        {"(fingerprint)", golden.readable ? "object" : "unreadable", current.readable ? "object" : "unreadable"});
    return out;
  }
  std::set<std::string> keys;
  for (const auto& [k, v] : golden.fields) keys.insert(k);
  for (const auto& [k, v] : current.fields) keys.insert(k);
  for (const auto& k : keys) {
    const auto g = golden.fields.find(k), c = current.fields.find(k);
    const std::string gv = g != golden.fields.end() ? g->second : "(absent)";
    const std::string cv = c != current.fields.end() ? c->second : "(absent)";
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
