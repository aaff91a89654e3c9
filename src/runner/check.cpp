// `trainproof check` (check.h): runs a user's training command as production does and holds
// its recorded trace to the laws. Progress goes to stderr, the verdicts to stdout.
#include "trainproof/runner/check.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/process/process.h"
#include "trainproof/core/compare.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/report/report.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// CMD as execve wants it: a path, looked up in $PATH when it has no slash.
std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) != 0) throw BadInput(fmt::format("check: command not found: {}", name));
    return name;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path p = fs::path(dir.empty() ? "." : dir) / name;
    if (access(p.c_str(), X_OK) == 0 && !fs::is_directory(p)) return p.string();
  }
  throw BadInput(fmt::format("check: command not found: {} (not in PATH)", name));
}

std::string tail_of(const fs::path& log, size_t lines = 15) {
  std::ifstream in(log);
  std::vector<std::string> all;
  for (std::string l; std::getline(in, l);) all.push_back(l);
  std::string out;
  for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += "    | " + all[i] + "\n";
  return out;
}

// One run of the command: its folder, its trace, its log (stdout and stderr).
struct Run {
  std::string name;
  fs::path dir, trace, log;
};

class Launcher {
 public:
  Launcher(const CheckOptions& o, const fs::path& work) : o_(o), work_(work), program_(resolve_program(o.command[0])) {}

  Run make(const std::string& name) const {
    Run r{name, work_ / name, work_ / (name + ".trace"), work_ / (name + ".log")};
    fs::create_directories(r.dir);
    return r;
  }

  pid_t start(const Run& r) const {
    std::vector<std::string> args;
    for (size_t i = 1; i < o_.command.size(); ++i) {
      std::string a = o_.command[i];
      for (size_t at; (at = a.find("{run_dir}")) != std::string::npos;) a.replace(at, 9, r.dir.string());
      args.push_back(a);
    }
    return spawn_program(program_, args, {r.log, r.log, /*append=*/true},
                         {{"TRAINPROOF_TRACE", r.trace.string()}, {"TRAINPROOF_RUN_DIR", r.dir.string()}});
  }

  // Waits for the exit; past the timeout the command is killed and that is an error.
  int finish(pid_t pid, const Run& r) const {
    const auto deadline = Clock::now() + std::chrono::duration<double>(o_.timeout_s);
    while (true) {
      if (const auto code = poll_exit(pid)) return *code;
      if (Clock::now() > deadline) {
        kill_and_reap(pid);
        throw BadInput(fmt::format("check: {} did not finish within {:g} s (--timeout); its output ends:\n{}", r.name,
                                   o_.timeout_s, tail_of(r.log)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

 private:
  const CheckOptions& o_;
  fs::path work_;
  std::string program_;
};

// How many steps a trace holds now; a trace still being written may be torn at its end.
size_t recorded_steps(const fs::path& trace) {
  if (!fs::exists(trace)) return 0;
  try {
    return read_recorded_trace(trace).steps.size();
  } catch (const BadInput&) {
    return 0;
  }
}

// Where two traces first differ: the step (for per-step series) or the parameter, and the values.
std::string first_difference(const RecordedTrace& a, const RecordedTrace& b) {
  const Trace ta = to_trace(a), tb = to_trace(b);
  std::vector<int64_t> steps;
  for (const auto& [s, v] : a.steps) steps.push_back(s);
  for (const auto& c : compare_traces(ta, tb, /*cross_environment=*/false)) {
    if (c.passed()) continue;
    if (c.series.rfind("param.", 0) == 0)
      return fmt::format("final parameter {} differs ({})", c.series.substr(6), c.detail);
    if (c.first_divergence >= 0 && static_cast<size_t>(c.first_divergence) < steps.size())
      return fmt::format("first at step {} in '{}': {:.9g} vs {:.9g}", steps[static_cast<size_t>(c.first_divergence)],
                         c.series, c.golden_value, c.observed_value);
    return fmt::format("'{}': {}", c.series, c.detail);
  }
  return "";
}

// Watches a run folder for the command's writes (inotify): where a kill lands mid-write.
class WriteWatch {
 public:
  explicit WriteWatch(const fs::path& dir) : fd_(inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    if (fd_ < 0 || inotify_add_watch(fd_, dir.c_str(), IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO) < 0)
      throw std::runtime_error(fmt::format("inotify on {}: {}", dir.string(), std::strerror(errno)));
  }
  ~WriteWatch() { ::close(fd_); }
  WriteWatch(const WriteWatch&) = delete;
  WriteWatch& operator=(const WriteWatch&) = delete;

  // The name of a file being written now (modified and not yet closed), waiting up to `ms`.
  std::optional<std::string> writing(int ms) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return std::nullopt;
    alignas(inotify_event) char buf[4096];
    const ssize_t n = read(fd_, buf, sizeof buf);
    std::optional<std::string> hit;
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
      const std::string name = e->len ? e->name : "";
      if (e->mask & IN_CLOSE_WRITE) open_.erase(std::remove(open_.begin(), open_.end(), name), open_.end());
      if (e->mask & (IN_MODIFY | IN_CREATE)) {
        if (std::find(open_.begin(), open_.end(), name) == open_.end()) open_.push_back(name);
      }
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
    if (!open_.empty()) hit = open_.back();
    return hit;
  }

 private:
  int fd_;
  std::vector<std::string> open_;
};

struct Law {
  std::string name;
  bool held;
  std::string detail;
};

// The preempted run: killed at each of `at` (recorded step counts), the first kill on a write
// into the run folder; restarted after each kill until it finishes.
Law resume_law(const Launcher& launch, const RecordedTrace& straight, int kills, uint64_t seed) {
  const std::string name =
      fmt::format("exact resume: SIGKILLed {} time(s) and restarted, bitwise the uninterrupted run", kills);
  const size_t total = straight.steps.size();
  if (total < 2) return {name, false, fmt::format("the command records {} step(s): nowhere to kill it", total)};
  std::mt19937_64 rng(seed);
  std::vector<size_t> at;
  for (int k = 0; k < kills; ++k) at.push_back(1 + rng() % (total - 1));
  std::sort(at.begin(), at.end());
  const Run r = launch.make("preempted");
  std::vector<std::string> notes;
  std::vector<size_t> restarts;  // where each restart began appending to the trace
  for (size_t k = 0; k <= at.size(); ++k) {
    if (k > 0) restarts.push_back(complete_size(r.trace));
    const pid_t pid = launch.start(r);
    if (k < at.size()) {
      std::optional<WriteWatch> watch;
      if (k == 0) watch.emplace(r.dir);
      std::optional<int> early;
      while (!(early = poll_exit(pid))) {
        const size_t steps = recorded_steps(r.trace);
        if (steps >= at[k]) {
          if (!watch) break;                          // a kill at a recorded step
          if (const auto file = watch->writing(2)) {  // the first kill: on a write into the run folder
            notes.push_back(fmt::format("kill 1 sent while {} was being written (after step {})", *file, steps));
            break;
          }
        } else {
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
      }
      if (early) {  // it finished before the kill: nothing to resume from at this point
        if (*early != 0)
          return {name, false,
                  fmt::format("{} failed (exit {}): the loop is not preemption-safe; its output ends:\n{}",
                              k == 0 ? std::string("the first start") : fmt::format("the restart after kill {}", k),
                              *early, tail_of(r.log))};
        notes.push_back(fmt::format("start {} finished before kill {} at step {}", k + 1, k + 1, at[k]));
        break;
      }
      kill_and_reap(pid);
      fmt::print(stderr, "check: preempted run SIGKILLed ({} of {}) after {} recorded steps\n", k + 1, at.size(),
                 recorded_steps(r.trace));
      continue;
    }
    const int code = launch.finish(pid, r);
    if (code != 0)
      return {name, false,
              fmt::format("the restart after {} kill(s) failed (exit {}): the loop is not preemption-safe; its "
                          "output ends:\n{}",
                          at.size(), code, tail_of(r.log))};
  }
  const RecordedTrace resumed = read_recorded_trace(r.trace);
  // Where each restart picked up: a loop that starts over at its first step resumes nothing.
  const int64_t first_step = straight.steps.begin()->first;
  bool any_resumed = false;
  for (size_t i = 0; i < restarts.size(); ++i) {
    const auto steps = logged_steps_from(r.trace, restarts[i]);
    if (steps.empty()) continue;
    any_resumed = any_resumed || steps.front() > first_step;
    notes.push_back(fmt::format("restart {} logged step {} first", i + 1, steps.front()));
  }
  const std::string diff = first_difference(straight, resumed);
  const std::string where = notes.empty() ? "" : " (" + fmt::format("{}", fmt::join(notes, "; ")) + ")";
  if (!diff.empty()) return {name, false, diff + where};
  if (!restarts.empty() && !any_resumed)
    return {name, false,
            "every restart began again at the first step: no checkpoint in the run folder was resumed from" + where};
  if (std::none_of(notes.begin(), notes.end(), [](const auto& n) { return n.rfind("kill 1 sent while", 0) == 0; }))
    return {name, false, "no kill landed during a write into the run folder" + where};
  return {name, true, fmt::format("{} steps, final parameters equal{}", resumed.steps.size(), where)};
}

}  // namespace

int check(const CheckOptions& o) {
  if (o.command.empty()) throw BadInput("check: give the training command after --");
  if (o.kills < 0) throw BadInput(fmt::format("--kills {}: must be 0 or more", o.kills));
  std::optional<TempDir> temp;
  fs::path work = o.keep;
  if (work.empty()) {
    temp.emplace("check");
    work = temp->path();
  } else {
    fs::create_directories(work);
  }
  const Launcher launch(o, work);
  const auto t0 = Clock::now();

  // The uninterrupted run: it must work, and record something, before any law means anything.
  fmt::print(stderr, "check: uninterrupted run 1 of 2: {}\n", fmt::join(o.command, " "));
  const Run first = launch.make("uninterrupted-1");
  if (const int code = launch.finish(launch.start(first), first); code != 0)
    throw BadInput(
        fmt::format("check: the command failed on its first uninterrupted run (exit {}); its output "
                    "ends:\n{}",
                    code, tail_of(first.log)));
  const RecordedTrace a = read_recorded_trace(first.trace);
  if (a.steps.empty() && a.params.empty())
    throw BadInput(
        fmt::format("check: {} holds no record: the command records no trace (call "
                    "trainproof.Recorder().log(step, ...) once per step)",
                    first.trace.string()));
  fmt::print(stderr, "check: {} steps and {} parameters recorded\n", a.steps.size(), a.params.size());

  std::vector<Law> laws;
  fmt::print(stderr, "check: uninterrupted run 2 of 2\n");
  const Run second = launch.make("uninterrupted-2");
  if (const int code = launch.finish(launch.start(second), second); code != 0) {
    laws.push_back({"determinism: two uninterrupted runs are bitwise equal", false,
                    fmt::format("the second run failed (exit {}); its output ends:\n{}", code, tail_of(second.log))});
  } else {
    const std::string diff = first_difference(a, read_recorded_trace(second.trace));
    laws.push_back({"determinism: two uninterrupted runs are bitwise equal", diff.empty(),
                    diff.empty() ? fmt::format("{} steps, final parameters equal", a.steps.size())
                                 : diff + ". The usual causes: an unseeded RNG (torch, numpy, random), DataLoader "
                                          "shuffling without a seeded generator or with workers, non-deterministic "
                                          "kernels (torch.use_deterministic_algorithms(True))"});
  }
  if (o.kills > 0) {
    fmt::print(stderr, "check: preempted run, {} SIGKILL(s)\n", o.kills);
    laws.push_back(resume_law(launch, a, o.kills, o.seed));
  }

  VerifyReport report;
  fmt::print("\n{:<8} {}\n", "status", "law");
  for (const auto& l : laws) {
    fmt::print("{:<8} {}\n", l.held ? "held" : "BROKEN", l.name);
    if (!l.detail.empty()) fmt::print("    -> {}\n", l.detail);
    report.entries.emplace_back("check", "cmd", "invariant", l.name, l.held ? "pass" : "BROKEN", "", l.detail);
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  const Tally n = tally(report.entries);
  fmt::print("\ncheck: {} laws, {} held, {} broken, {:.1f} s{}\n", laws.size(), n.passed, n.failed, report.seconds,
             o.keep.empty() ? "" : "; runs kept in " + work.string());
  if (!o.json.empty()) write_json_report(o.json, report);
  if (!o.junit.empty()) write_junit_report(o.junit, report);
  if (!o.html.empty()) write_html_report(o.html, report);
  return n.failed ? kExitMismatch : kExitOk;
}

}  // namespace trainproof
