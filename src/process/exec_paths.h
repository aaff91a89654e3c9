// Execution paths: the ways one CPU can run the same LibTorch code with different bits
// (ATen's capability level, MKL's and oneDNN's instruction-set limits, MKL's conditional
// reproducibility, the thread count). Each path is a set of environment variables for a
// fresh process; running every scenario under each of them simulates other machines on one.
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace trainproof {

// The environment variables a path controls. A path sets some of them and unsets the rest,
// so the caller's own settings do not leak into the matrix.
const std::vector<std::string>& path_variables();

struct ExecPath {
  std::string name;                                      // e.g. "aten-default"
  std::string what;                                      // one line for people
  std::vector<std::pair<std::string, std::string>> env;  // set; every other path variable is unset

  // `env` plus an empty value for each path variable it does not set (spawn_cli unsets those).
  std::vector<std::pair<std::string, std::string>> child_env() const;
  std::string env_text() const;  // "A=1 B=2", or "(machine defaults)"
};

// The CPU's feature flags (/proc/cpuinfo), e.g. "avx2", "avx512f", "amx_tile".
std::set<std::string> cpu_flags();

// The matrix this CPU offers; "native" (no variable set) comes first and is the reference.
std::vector<ExecPath> cpu_paths(const std::set<std::string>& flags);

// Selects paths by name from `all` ("all", or comma-separated names; "native" is always
// included first). Throws BadInput naming an unknown path and listing the known ones.
std::vector<ExecPath> select_paths(const std::vector<ExecPath>& all, const std::string& names);

// The paths a golden's cross tolerances were measured on, as its `paths` attribute stores
// them: a JSON array of {"name", "env"}.
std::string paths_json(const std::vector<ExecPath>& paths);

}  // namespace trainproof
