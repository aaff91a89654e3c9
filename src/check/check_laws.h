// What the laws of `trainproof check` share across its files (check.cpp, check_resume.cpp):
// a law as the report holds it, the progress lines, and the law of the preempted run.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "src/check/check_runs.h"
#include "src/check/probe_findings.h"
#include "trainproof/core/progress.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// A law of the command, as the report holds it: an entry of kind "invariant", held (pass),
// BROKEN, advice (said, never broken), or NOT TESTED (check could not put it to the test).
struct Law : ReportEntry {
  Law(std::string name, bool held, std::string detail, bool advice = false)
      : ReportEntry(
            law_entry("check", "cmd", std::move(name), advice ? Status::kAdvice : law_held(held), std::move(detail))) {}
  static Law not_tested(std::string name, std::string why) {
    Law l(std::move(name), false, std::move(why));
    l.status = Status::kNotTested;
    return l;
  }
};

// Check's progress, a line each to the caller's sink: which run of how many, and the time so far.
class Progress {
 public:
  Progress(int runs, ProgressSink sink) : runs_(runs), sink_(std::move(sink)) {}
  void run(const std::string& what) {
    report_progress(sink_, fmt::format("check [run {}/{}, {:.1f} s] {}\n", ++n_, runs_, seconds(), what));
  }
  void add_run() { ++runs_; }  // a run the check had not planned (a law asked for it)
  void note(const std::string& what) const {
    report_progress(sink_, fmt::format("check [{:.1f} s]   {}\n", seconds(), what));
  }
  double seconds() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  int runs_, n_ = 0;
  ProgressSink sink_;
  Clock::time_point t0_ = Clock::now();
};

// Where kill 1 of a preempted run lands, once the run has recorded its armed step count: on a
// write into the run folder (a torn checkpoint put to the restart), once a write has ended and none
// is under way, or at the step itself (after a checkpoint known complete: the resume of the rest).
enum class KillMoment { kInAWrite, kAwayFromWrites, kAtTheStep };

// The preempted run as it ran (check_resume.cpp), the evidence its laws judge: started in the work
// folder's `run`, SIGKILLed after the recorded step counts `at` (kill 1 at `first`), restarted
// after each kill until it finished or a start failed.
struct Preemption {
  Run run;
  std::vector<size_t> at;                    // the planned kills
  std::vector<std::string> notes;            // where each kill landed
  std::vector<size_t> restarts;              // where each restart began appending to the trace
  std::string killed_writing;                // the file kill 1 landed in the write of
  bool moved_whole = false;                  // kill 1 came right after a checkpoint was renamed into the run folder
  int failed_start = -1;                     // the start that failed (0: the first; k: the restart after kill k)
  int exit_code = 0;                         // its exit code
  std::vector<std::string> unwritten;        // files --resume-args names the run had not written when it failed
  KillMoment first = KillMoment::kInAWrite;  // where kill 1 was to land
};
// Kept beside the run as <run>.preemption.json; replaying (check --replay), read from there.
Preemption preempt(const Launcher& launch, const std::vector<size_t>& at, const std::string& run, KillMoment first,
                   Progress& progress);
// Kill 1 once more, after the first checkpoint the uninterrupted run `straight` saved whole (the
// step after it): where kill 1 landed before any checkpoint was complete, so that the restart
// rightly began again and nothing was resumed. Null where the run saved nothing whole.
std::optional<size_t> after_first_checkpoint(const RecordedTrace& straight);
// The law `name` where a start of the preempted run failed: broken (not preemption-safe), or NOT
// TESTED where the restart died for a file --resume-args names that the run had not written yet.
std::optional<Law> failed_start_law(const Preemption& p, const std::string& name);
// The law `name` NOT TESTED where the uninterrupted run recorded fewer than two steps: nowhere to
// kill it (check_resume.cpp).
std::optional<Law> nowhere_to_kill(const RecordedTrace& straight, const std::string& name);
// Where the kills are armed (recorded step counts), drawn from `seed` (check_resume.cpp).
std::vector<size_t> plan_kills(const RecordedTrace& straight, int kills, uint64_t seed);

// The preempted run as the report plots it: its steps as the uninterrupted run numbers them,
// after which step each kill came, at which step each restart resumed, and where it departs.
struct PreemptedRun {
  RecordedTrace trace;                    // its steps as the uninterrupted run numbers them
  std::vector<int64_t> kills, restarts;   // after which step each kill came; at which step each restart resumed
  int64_t departure = -1;                 // the first step it departs at (-1: none found)
  std::vector<RestartAlignment> aligned;  // where each restart was found to resume (its other processes too)
  std::filesystem::path trace_env;        // its TRAINPROOF_TRACE, beside which its other processes wrote theirs
};
// What the law of a preempted run made of it: the law, the findings that name what breaks it
// (missing state, a non-atomic save, an unsafe load), the run as the report plots it, and whether
// a restart died on the checkpoint kill 1 tore (a non-atomic save).
struct ResumeVerdict {
  Law law;
  std::vector<Finding> findings;
  PreemptedRun seen;
  bool torn = false;
  bool before_first_checkpoint = false;  // NOT TESTED: kill 1 came before any checkpoint was whole
};

// Where two uninterrupted runs differ ("" bitwise equal, or not judged), as a resume's judge asks
// it: with `ask`, where the resume departs and the law would break, a check that judged no
// determinism (--runs 1, --reference) runs the command once more to know (laws/determinism.cpp).
using RunsDiffer = std::function<std::string(bool ask)>;

class OpReruns;  // op_reruns.h
// The preempted run `p` held to the law `name`: bitwise the uninterrupted run `straight`, or
// broken with the first difference and what the restart failed to restore. `runs_differ`: where
// two uninterrupted runs differ (the determinism law broken), a departure after a restart is not
// tested as the resume's, and no missing state is named. Judged from the evidence alone, but for
// the op reruns `reruns` runs where a resume departs with its state equal, and the second run
// `runs_differ` may ask for.
ResumeVerdict judge_preemption(const Preemption& p, const RecordedTrace& straight, const std::string& name,
                               const RunsDiffer& runs_differ, const OpReruns& reruns);

// What the resume law is run with: `kills` SIGKILLs at recorded step counts drawn from `seed`,
// `runs_differ` (judge_preemption) and the op reruns; kill 1 at `first` (at `first_at` if given).
struct ResumeOptions {
  int kills = 1;
  uint64_t seed = 0;
  RunsDiffer runs_differ;
  const OpReruns& reruns;
  KillMoment first = KillMoment::kInAWrite;
  std::optional<size_t> first_at = std::nullopt;  // kill 1 at this step count, not where `seed` draws it
};
// The law of the preempted run (check_resume.cpp): run, then judged (judge_preemption); where a
// restart died on the checkpoint kill 1 tore, one more run killed once away from any write shows
// the rest of the resume; where kill 1 came before any checkpoint was whole (the restart rightly
// began again), one more run killed once after the first whole checkpoint tests it.
ResumeVerdict resume_law(const Launcher& launch, const RecordedTrace& straight, const ResumeOptions& o,
                         Progress& progress);

// The runs check made, a plot per scalar the uninterrupted run recorded: `again` the second
// uninterrupted run, `preempted` the killed and restarted one (each null where not run).
std::vector<RunPlot> run_plots(const RecordedTrace& straight, const RecordedTrace* again, const PreemptedRun* preempted,
                               const std::vector<Finding>& findings);

}  // namespace trainproof
