// The execution-path matrix (see exec_paths.h). Which variables change bits was measured
// on an AMD EPYC (AVX-512, avx512_bf16): ATEN_CPU_CAPABILITY=default changes torch.randn
// itself, MKL_CBWR=COMPATIBLE changes float32 matmul, a oneDNN ISA limit changes bf16
// linear layers, and the thread count changes full reductions. README, "Cross-machine
// verification", lists the matrix.
#include "src/process/exec_paths.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "trainproof/core/errors.h"

namespace trainproof {

const std::vector<std::string>& path_variables() {
  static const std::vector<std::string> vars = {"ATEN_CPU_CAPABILITY",     "TRAINPROOF_THREADS",
                                                "MKL_ENABLE_INSTRUCTIONS", "MKL_CBWR",
                                                "ONEDNN_MAX_CPU_ISA",      "DNNL_MAX_CPU_ISA"};
  return vars;
}

std::vector<std::pair<std::string, std::string>> ExecPath::child_env() const {
  std::vector<std::pair<std::string, std::string>> out = env;
  for (const auto& v : path_variables())
    if (std::none_of(env.begin(), env.end(), [&](const auto& kv) { return kv.first == v; })) out.emplace_back(v, "");
  return out;
}

std::string ExecPath::env_text() const {
  if (env.empty()) return "(machine defaults)";
  std::vector<std::string> parts;
  for (const auto& [k, v] : env) parts.push_back(k + "=" + v);
  return fmt::format("{}", fmt::join(parts, " "));
}

std::set<std::string> cpu_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::set<std::string> have;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream fs(line.substr(line.find(':') + 1));
    for (std::string f; fs >> f;) have.insert(f);
    break;
  }
  return have;
}

std::vector<ExecPath> cpu_paths(const std::set<std::string>& flags) {
  const bool avx2 = flags.count("avx2") > 0, avx512 = flags.count("avx512f") > 0;
  const bool amx = flags.count("amx_tile") > 0, avx512_bf16 = flags.count("avx512_bf16") > 0;
  std::vector<ExecPath> p;
  p.push_back({"native", "this machine's defaults: the reference", {}});
  p.push_back({"threads-1", "one intra-op thread", {{"TRAINPROOF_THREADS", "1"}}});
  p.push_back({"threads-4", "four intra-op threads (reductions split differently)", {{"TRAINPROOF_THREADS", "4"}}});
  p.push_back({"aten-default",
               "ATen's generic kernels, no vector ISA (torch.randn itself changes)",
               {{"ATEN_CPU_CAPABILITY", "default"}}});
  if (avx512)
    p.push_back({"aten-avx2", "ATen's AVX2 kernels, as on an AVX2-only CPU", {{"ATEN_CPU_CAPABILITY", "avx2"}}});
  p.push_back(
      {"mkl-cnr", "MKL's conditional-reproducibility mode, compatible code path", {{"MKL_CBWR", "COMPATIBLE"}}});
  if (avx512) p.push_back({"mkl-avx2", "MKL limited to AVX2", {{"MKL_ENABLE_INSTRUCTIONS", "AVX2"}}});
  if (avx512 || avx2)
    p.push_back({"onednn-avx2", "oneDNN limited to AVX2 (bf16 emulated)", {{"ONEDNN_MAX_CPU_ISA", "AVX2"}}});
  if (amx) {
    p.push_back({"onednn-avx512-bf16",
                 "oneDNN without AMX, as on an AVX-512 BF16 CPU",
                 {{"ONEDNN_MAX_CPU_ISA", "AVX512_CORE_BF16"}}});
  } else if (avx512_bf16) {
    p.push_back({"onednn-avx512",
                 "oneDNN without bf16 instructions, as on an older AVX-512 CPU",
                 {{"ONEDNN_MAX_CPU_ISA", "AVX512_CORE"}}});
  }
  p.push_back({"generic-1t",
               "everything generic on one thread: the most different machine we can simulate",
               {{"ATEN_CPU_CAPABILITY", "default"},
                {"MKL_CBWR", "COMPATIBLE"},
                {"ONEDNN_MAX_CPU_ISA", "SSE41"},
                {"TRAINPROOF_THREADS", "1"}}});
  return p;
}

std::vector<ExecPath> select_paths(const std::vector<ExecPath>& all, const std::string& names) {
  if (names.empty() || names == "all") return all;
  std::vector<ExecPath> out{all.front()};  // the reference path always runs
  std::istringstream in(names);
  for (std::string n; std::getline(in, n, ',');) {
    if (n.empty() || n == all.front().name) continue;
    auto it = std::find_if(all.begin(), all.end(), [&](const ExecPath& p) { return p.name == n; });
    if (it == all.end()) {
      std::vector<std::string> known;
      for (const auto& p : all) known.push_back(p.name);
      throw BadInput(
          fmt::format("--path-set: unknown execution path '{}' (this CPU offers: {})", n, fmt::join(known, ", ")));
    }
    if (std::none_of(out.begin(), out.end(), [&](const ExecPath& p) { return p.name == n; })) out.push_back(*it);
  }
  return out;
}

std::string paths_json(const std::vector<ExecPath>& paths) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& p : paths) j.push_back({{"name", p.name}, {"env", p.env_text()}});
  return j.dump();
}

}  // namespace trainproof
