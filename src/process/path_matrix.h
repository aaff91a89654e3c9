// Runs scenarios under each execution path of the matrix, each path in a fresh process of
// the CLI (`trainproof record`), and collects what each recorded.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "src/core/trace_json.h"
#include "src/process/exec_paths.h"
#include "trainproof/core/progress.h"

namespace trainproof {

struct PathRun {
  ExecPath path;
  int exit_code = 0;
  double seconds = 0;
  std::filesystem::path log;           // the child's stdout and stderr
  std::optional<Recording> recording;  // absent when the child failed
  std::string error;                   // why there is no recording
};

// Runs `record SCENARIOS --device DEVICE` once per path, `jobs` processes at a time, with
// a line of progress per path. Recordings and logs go to `workdir`. A child that runs longer than
// $TRAINPROOF_PATH_TIMEOUT_S (default 3600) is killed and reported.
std::vector<PathRun> run_paths(const std::vector<ExecPath>& paths, const std::vector<std::string>& scenarios,
                               const std::string& device, const std::filesystem::path& workdir, int jobs,
                               const ProgressSink& progress);

}  // namespace trainproof
