// One `trainproof record` process per execution path (path_matrix.h).
#include "src/process/path_matrix.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
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
    pid_t pid;
    Clock::time_point start;
  };
  std::vector<Running> running;
  size_t next = 0, done = 0;
  const double timeout = path_timeout_s();
  auto finish = [&](const Running& r, int code, bool timed_out) {
    PathRun& run = runs[r.index];
    run.exit_code = code;
    run.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    const auto out = workdir / (run.path.name + ".json");
    if (timed_out) {
      run.error = fmt::format("killed after {:.0f} s (TRAINPROOF_PATH_TIMEOUT_S); log {}", timeout, run.log.string());
    } else if (code != 0) {
      run.error =
          fmt::format("the recording process exited with {}; log {}:\n{}", code, run.log.string(), log_tail(run.log));
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
  while (done < runs.size()) {
    while (next < paths.size() && running.size() < static_cast<size_t>(std::max(jobs, 1))) {
      PathRun& run = runs[next];
      run.path = paths[next];
      run.log = workdir / (run.path.name + ".log");
      const auto args = record_entry(scenarios, device, workdir / (run.path.name + ".json"));
      running.push_back({next, spawn_cli(args, {run.log, run.log}, run.path.child_env()), Clock::now()});
      ++next;
    }
    for (size_t i = 0; i < running.size();) {
      const auto code = poll_exit(running[i].pid);
      const bool late = std::chrono::duration<double>(Clock::now() - running[i].start).count() > timeout;
      if (code || late) {
        if (!code) kill_and_reap(running[i].pid);
        finish(running[i], code ? *code : 137, !code);
        running.erase(running.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    if (!running.empty()) usleep(50'000);
  }
  return runs;
}

}  // namespace trainproof
