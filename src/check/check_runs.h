// The runs of `trainproof check` (check.cpp): the command started in a fresh folder (with the
// probe on its PYTHONPATH and --resume-args on a restart), its recorded steps counted while it
// runs, and its writes into the run folder watched (inotify), so that a kill lands mid-write.
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "src/process/process.h"
#include "trainproof/check/check.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/recorded_trace.h"

namespace trainproof {

namespace fs = std::filesystem;

// CMD as execve wants it: a path, looked up in $PATH when it has no slash. Bad input if none.
std::string resolve_program(const std::string& name);
// The last `lines` lines of a log, each indented, for a message.
std::string tail_of(const fs::path& log, size_t lines = 15);
// ARGS as a shell splits words: blanks separate, quotes group, a backslash escapes.
std::vector<std::string> split_words(const std::string& text);

// The options a check's judging depends on (the command, the kills and their seed, the resume
// arguments, the runs, the findings allowed, --restart-nproc, the probe, --reference, the
// schedule expected), kept beside its runs in check.json by a live check, with a --reference
// trace copied in as reference.trace: a kept folder holds all a replay judges.
void keep_options(const CheckOptions& o, const fs::path& work);
// `o`, where it names a folder to replay (--replay) and no command: with the options its
// check.json kept (what else `o` says stays: the reports, the timeout). BadInput where there is
// no check.json, or it is damaged.
CheckOptions with_kept_options(const CheckOptions& o);
// Where the probe's Python lives: $TRAINPROOF_PYTHON_DIR, the source tree this program was
// built from, or <prefix>/share/trainproof/python once installed.
fs::path probe_python_dir();

// torchrun's ARGS with its processes per node set to `nproc` (--nproc-per-node N, --nproc_per_node=N);
// BadInput where ARGS do not say it (the command is not a torchrun that could restart on more or fewer).
std::vector<std::string> with_nproc_per_node(std::vector<std::string> args, int nproc);
// The processes per node ARGS give torchrun; 0 where they do not say.
int nproc_per_node(const std::vector<std::string>& args);

// One run of the command: its folder, its trace, its log (stdout and stderr). `trace` is the
// file of the process the laws follow (Launcher::follow); `trace_env`, the command's
// TRAINPROOF_TRACE, beside which every other process writes its own.
struct Run {
  std::string name;
  fs::path dir, trace, log;
  std::optional<int64_t> seed;  // --seed-arg: {seed} in it is this
  fs::path trace_env;
};

// Starts the command's runs, or, replaying (check --replay DIR), stands in for them with what a
// check --keep DIR kept: each run's traces and log, its exit codes (<name>.exits, a line a
// finish) and the preempted run's evidence (<name>.preemption.json). A replayed start runs
// nothing; a replayed run's folder is the one it had when it ran (paths in its traces name it).
class Launcher {
 public:
  Launcher(const CheckOptions& o, const fs::path& work)
      : o_(o),
        work_(work),
        program_(o.replay.empty() ? resolve_program(o.command[0]) : o.command[0]),
        resume_args_(split_words(o.resume_args)),
        seed_args_(split_words(o.seed_arg)) {
    if (!o.replay.empty()) ran_in_ = replayed_work(work);
    if (!o.probe) return;
    const fs::path dir = probe_python_dir();
    if (dir.empty() || !fs::exists(dir / "trainproof_boot" / "sitecustomize.py"))
      throw BadInput(
          "check: trainproof's probe (python/trainproof_boot) is not found; set TRAINPROOF_PYTHON_DIR to the "
          "python/ folder of trainproof, or pass --no-probe");
    const char* old = std::getenv("PYTHONPATH");
    if (o.restart_nproc > 0) probe_env_.emplace_back("TRAINPROOF_LAYOUT_SUMS", "1");  // probe/layout.py
    probe_env_.insert(probe_env_.end(), {{"TRAINPROOF_PROBE", "1"},
                                         {"PYTHONPATH", (dir / "trainproof_boot").string() + ":" + dir.string() +
                                                            (old && *old ? std::string(":") + old : std::string())}});
  }

  // The process whose trace the laws hold from now on (processes.h: the uninterrupted run's primary).
  void follow(const std::string& identity) { primary_ = identity; }

  Run make(const std::string& name, std::optional<int64_t> seed = std::nullopt) const {
    const fs::path env = work_ / (name + ".trace");
    const bool own = primary_.empty() || primary_ == "rank0";
    Run r{name, work_ / name, own ? env : fs::path(env.string() + "." + primary_), work_ / (name + ".log"), seed, env};
    if (replaying()) {
      r.dir = ran_in_ / name;
      return r;
    }
    fs::create_directories(r.dir);
    std::error_code ec;
    fs::remove(work_ / (name + ".exits"), ec);  // a kept folder checked again: this check's exits only
    return r;
  }

  bool replaying() const { return !o_.replay.empty(); }
  const fs::path& work() const { return work_; }

  // Each start is headed in the run's log by `--- trainproof check: <what> ---`, so that what a
  // restarted command printed can be told from what its killed start printed. `launch`: which
  // start of the run it is (TRAINPROOF_LAUNCH, in each process's trace); a restart (2, 3, ...)
  // gets --resume-args appended, and --restart-nproc's processes per node.
  pid_t start(const Run& r, const std::string& what = "start 1",
              const std::vector<std::pair<std::string, std::string>>& extra_env = {}, int launch = 1) const {
    if (replaying()) return 0;  // what it did is in the kept folder
    std::ofstream(r.log, std::ios::app) << "--- trainproof check: " << what << " ---\n";
    const bool restart = launch > 1;
    std::vector<std::string> args(o_.command.begin() + 1, o_.command.end());
    if (restart && o_.restart_nproc > 0) args = with_nproc_per_node(args, o_.restart_nproc);
    if (r.seed) args.insert(args.end(), seed_args_.begin(), seed_args_.end());
    if (restart) args.insert(args.end(), resume_args_.begin(), resume_args_.end());
    for (auto& a : args) {
      for (size_t at; (at = a.find("{run_dir}")) != std::string::npos;) a.replace(at, 9, r.dir.string());
      if (r.seed)
        for (size_t at; (at = a.find("{seed}")) != std::string::npos;) a.replace(at, 6, std::to_string(*r.seed));
    }
    auto env = extra_env;
    env.insert(env.end(), probe_env_.begin(), probe_env_.end());
    env.emplace_back("TRAINPROOF_TRACE", r.trace_env.string());
    env.emplace_back("TRAINPROOF_RUN_DIR", r.dir.string());
    env.emplace_back("TRAINPROOF_LAUNCH", std::to_string(launch));
    return spawn_program(program_, args, {r.log, r.log, /*append=*/true}, env);
  }

  // The files --resume-args names in the run folder ("--netG {run_dir}/netG_epoch_0.pth"): a
  // restart needs them, so no kill comes before the run has written them.
  std::vector<fs::path> resume_files(const Run& r) const {
    std::vector<fs::path> out;
    for (std::string a : resume_args_) {
      if (const size_t eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) a = a.substr(eq + 1);
      if (a.find("{run_dir}/") == std::string::npos) continue;
      for (size_t at; (at = a.find("{run_dir}")) != std::string::npos;) a.replace(at, 9, r.dir.string());
      out.emplace_back(a);
    }
    return out;
  }

  // Waits for the exit, and keeps its code (<name>.exits); past the timeout the command is
  // killed and that is an error. Replaying, the code kept for this finish of the run.
  int finish(pid_t pid, const Run& r) const;

 private:
  const CheckOptions& o_;
  fs::path work_;
  std::string program_;
  std::vector<std::string> resume_args_, seed_args_;
  std::vector<std::pair<std::string, std::string>> probe_env_;
  std::string primary_;
  fs::path ran_in_;                                 // replaying: the folder the kept runs ran in
  mutable std::map<std::string, size_t> finished_;  // replaying: finishes read so far, by run
  static fs::path replayed_work(const fs::path& dir);
};

// Watches a run folder and the folders made in it (a checkpoint-N/ of Trainer's, a save_state
// folder) for the command's writes (inotify): where a kill lands mid-write. Files are named by
// their path in the run folder ("checkpoint-8/optimizer.pt"); making a folder is not a write.
class WriteWatch {
 public:
  explicit WriteWatch(const fs::path& dir);
  ~WriteWatch();
  WriteWatch(const WriteWatch&) = delete;
  WriteWatch& operator=(const WriteWatch&) = delete;

  // Reads the events of up to `ms`; returns the names closed after writing among them.
  std::vector<std::string> drain(int ms);
  // A file being written now (modified and not yet closed), or empty.
  std::string writing() const { return open_.empty() ? "" : open_.back(); }
  // Whether `name` (its path in the run folder) is being written now.
  bool writing(const std::string& name) const { return std::find(open_.begin(), open_.end(), name) != open_.end(); }
  // Files or folders renamed into the run folder since the watch began, whole (written
  // elsewhere, then moved in: Lightning's checkpoints): a write no kill can tear.
  const std::vector<std::string>& moved_in() const { return moved_; }
  uintmax_t size_of(const std::string& name) const;

 private:
  void watch(const fs::path& dir, const std::string& prefix);
  fs::path dir_;
  int fd_;
  std::map<int, std::string> prefix_;  // watch descriptor -> its folder's path in the run folder ("" or "a/")
  std::vector<std::string> open_, moved_;
};

}  // namespace trainproof
