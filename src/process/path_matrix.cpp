// One `trainproof record` process per execution path (path_matrix.h).
#include "src/process/path_matrix.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "src/process/process.h"
#include "trainproof/core/errors.h"

namespace trainproof {
namespace {

using Clock = std::chrono::steady_clock;

double path_timeout_s() {
  const char* env = std::getenv("TRAINPROOF_PATH_TIMEOUT_S");
  const double v = env ? std::atof(env) : 0;
  return v > 0 ? v : 3600;
}

// The last lines of a child's log, to say why it failed.
std::string log_tail(const std::filesystem::path& log) {
  std::ifstream in(log);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  if (text.size() > 600) text = "..." + text.substr(text.size() - 600);
  return text;
}

}  // namespace

std::vector<PathRun> run_paths(const std::vector<ExecPath>& paths, const std::vector<std::string>& scenarios,
                               const std::string& device, const std::filesystem::path& workdir, int jobs,
                               const ProgressSink& progress) {
  std::filesystem::create_directories(workdir);
  std::vector<PathRun> runs(paths.size());
  struct Running {
    size_t index;
    Clock::time_point start;
  };
  std::vector<Running> running;  // one per child started, in the order of `children`
  std::vector<WaitedChild> children;
  size_t next = 0, done = 0;
  const double timeout = path_timeout_s();
  const auto start_next = [&] {
    PathRun& run = runs[next];
    run.path = paths[next];
    run.log = workdir / (run.path.name + ".log");
    const auto args = record_entry(scenarios, device, workdir / (run.path.name + ".json"));
    const auto now = Clock::now();
    children.push_back({spawn_cli(args, {run.log, run.log}, run.path.child_env()),
                        now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout))});
    running.push_back({next, now});
    ++next;
  };
  const auto finish = [&](const Running& r, std::optional<int> exit) {
    PathRun& run = runs[r.index];
    run.exit_code = exit.value_or(137);
    run.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    const auto out = workdir / (run.path.name + ".json");
    if (!exit) {
      run.error = fmt::format("killed after {:.0f} s (TRAINPROOF_PATH_TIMEOUT_S); log {}", timeout, run.log.string());
    } else if (*exit != 0) {
      run.error =
          fmt::format("the recording process exited with {}; log {}:\n{}", *exit, run.log.string(), log_tail(run.log));
    } else {
      try {
        run.recording = read_recording(out);
      } catch (const BadInput& e) {
        run.error = e.what();
      }
    }
    ++done;
    report_progress(progress, fmt::format("[path {}/{}] {} [{}]: {} ({:.1f} s)\n", done, runs.size(), run.path.name,
                                          run.path.env_text(), run.recording ? "recorded" : "FAILED", run.seconds));
  };
  // A pool of `jobs` at a time: each path that ends starts the next.
  while (next < paths.size() && children.size() < static_cast<size_t>(std::max(jobs, 1))) start_next();
  wait_all_within(
      children,
      [&](size_t i, std::optional<int> exit) {
        finish(running[i], exit);
        if (next < paths.size()) start_next();
        return true;
      },
      {}, std::chrono::milliseconds(50));
  return runs;
}

}  // namespace trainproof
