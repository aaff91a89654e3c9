// The law of the preempted run (check_laws.h): the command SIGKILLed and restarted, the first
// kill landing on a write into the run folder; its trace then bitwise the uninterrupted run's,
// or the first difference named with what the restart failed to restore.
#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/process/process.h"
#include "src/runner/check_laws.h"
#include "src/runner/check_runs.h"
#include "src/runner/probe_findings.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"
#include "trainproof/core/recorded_trace.h"

namespace trainproof {

namespace {

// A resume that departs from the uninterrupted run with every digest of the state equal: state
// the probe does not see. Both sides of the departing step rerun with op-level digests: a fresh
// run stopped at the step the restart resumed at (its checkpoint on disk, as the kill left it),
// restarted, digesting its ops up to the departing step; and the uninterrupted run, digesting
// that step's. The first op with equal inputs and different outputs is named in the finding.
void resume_op_rerun(const Launcher& launch, const RecordedTrace& straight, const ResumeDeparture& d,
                     Progress& progress, Finding& finding) {
  const int64_t resumed_at = d.restart.step, in_restart = d.step - resumed_at;  // steps the restart did before
  progress.note(
      fmt::format("rerun of the restart at step {} and of step {} with op-level digests", resumed_at, d.step));
  const auto run = [&](const Run& r, const std::string& what, const std::string& digests, bool restart) {
    const int code = launch.finish(launch.start(r, what, {{"TRAINPROOF_OP_DIGESTS", digests}}, restart), r);
    if (code != 0) progress.note(fmt::format("the rerun ({}, {}) failed (exit {}); no op named", r.name, what, code));
    return code == 0;
  };
  const Run resumed = launch.make("op-digests-resumed");
  if (!run(resumed, "start 1", fmt::format("{}:{}", resumed_at, resumed_at), false) ||
      !run(resumed, "start 2 (restart)", fmt::format("{}:{}", in_restart, in_restart + 1), true))
    return;
  const Run uninterrupted = launch.make("op-digests-uninterrupted");
  if (!run(uninterrupted, "start 1", fmt::format("{}:{}", d.step - 1, d.step), false)) return;
  const RecordedTrace a = read_recorded_trace(resumed.trace), b = read_recorded_trace(uninterrupted.trace);
  const auto again = align_restarts(straight, a);
  if (again.empty() || again.front().step != resumed_at) {
    progress.note(fmt::format("the rerun's restart resumed at step {}, not {}; no op named",
                              again.empty() ? 0 : again.front().step, resumed_at));
    return;
  }
  const auto op = parting_op_after_restart(a.ops, b.ops);
  if (!op) return;
  finding.where = op->op.where;
  // What was seen stays; the guess at its cause gives way to the op.
  finding.detail = fmt::format(
      "{} -> rerun with op-level digests: the first op with equal inputs and different "
      "outputs after the restart is {} at {}: {}",
      finding.detail.substr(0, finding.detail.find(" -> ")), op->op.op, op->op.where, op->meaning);
}

}  // namespace

// The preempted run: killed at each of `at` (recorded step counts), the first kill on a write
// into the run folder; restarted after each kill until it finishes.
Law resume_law(const Launcher& launch, const RecordedTrace& straight, int kills, uint64_t seed, Progress& progress,
               std::vector<Finding>& findings) {
  const std::string name =
      fmt::format("exact resume: SIGKILLed {} time(s) and restarted, bitwise the uninterrupted run", kills);
  const size_t total = straight.steps.size();
  if (total < 2) return {name, false, fmt::format("the command records {} step(s): nowhere to kill it", total)};
  std::mt19937_64 rng(seed);
  std::vector<size_t> at;
  for (int k = 0; k < kills; ++k) at.push_back(1 + rng() % (total - 1));
  std::sort(at.begin(), at.end());
  const Run r = launch.make("preempted");
  StepCounter counter(r.trace);
  std::string killed_writing;  // the file kill 1 landed in the write of
  // A checkpoint written straight over the one a restart loads (the probe saw both).
  const auto name_non_atomic = [&] {
    std::error_code ec;
    if (!fs::exists(r.trace, ec)) return;
    try {
      for (auto& f : non_atomic_saves(read_recorded_trace(r.trace), killed_writing)) findings.push_back(std::move(f));
    } catch (const BadInput&) {
    }
  };
  std::vector<std::string> notes;
  std::vector<size_t> restarts;  // where each restart began appending to the trace
  for (size_t k = 0; k <= at.size(); ++k) {
    if (k > 0) restarts.push_back(complete_size(r.trace));
    const pid_t pid =
        launch.start(r, k == 0 ? std::string("start 1") : fmt::format("start {} (after kill {})", k + 1, k), {}, k > 0);
    if (k < at.size()) {
      // The first kill lands on a write into the run folder (with the fault
      // check-kill-between-writes, the negative control, on a moment when nothing is written).
      std::optional<WriteWatch> watch;
      if (k == 0) watch.emplace(r.dir);
      const bool between = fault_injected("check-kill-between-writes");
      std::string target;
      std::optional<int> early;
      bool armed = false;  // at[k] steps recorded: from here on the first write is the moment
      while (!(early = poll_exit(pid))) {
        if (!watch) {
          if (counter.now() >= at[k]) break;  // a kill at a recorded step
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          continue;
        }
        watch->drain(2);
        // Counting steps re-reads the trace: once armed, nothing but the watch stands between
        // a write's first event and the stop (a checkpoint's write can take 2 ms).
        if (!armed && !(armed = counter.now() >= at[k])) continue;
        target = watch->writing();
        if (target.empty() == between) break;
      }
      if (early) {  // it finished before the kill: nothing to resume from at this point
        kill_group(pid);
        if (*early != 0) name_non_atomic();
        if (*early != 0)
          return {name, false,
                  fmt::format("{} failed (exit {}): the loop is not preemption-safe; its output ends:\n{}",
                              k == 0 ? std::string("the first start") : fmt::format("the restart after kill {}", k),
                              *early, tail_of(r.log))};
        notes.push_back(fmt::format("start {} finished before kill {} at step {}", k + 1, k + 1, at[k]));
        break;
      }
      stop_group(pid);  // first: the kill lands where it is now
      // A close of the file queued before the stop: the write ended before the kill landed.
      const auto closed_before = watch ? watch->drain(0) : std::vector<std::string>{};
      const bool ended_before = std::find(closed_before.begin(), closed_before.end(), target) != closed_before.end();
      const uintmax_t bytes = watch && !target.empty() ? watch->size_of(target) : 0;
      const size_t steps = counter.now();
      kill_and_reap(pid);
      if (watch && !target.empty()) {
        killed_writing = target;
        // The kernel closes what a killed process held open: the file's close comes after the kill.
        const auto closed = watch->drain(50);
        const bool open_at_kill = !ended_before && std::find(closed.begin(), closed.end(), target) != closed.end();
        notes.push_back(fmt::format("kill 1 sent while {} was being written ({} bytes on disk{}, after step {})",
                                    target, bytes,
                                    open_at_kill   ? ", still open at the kill"
                                    : ended_before ? ", the write ended before the kill landed"
                                                   : "",
                                    steps));
      } else if (watch) {
        notes.push_back(fmt::format("kill 1 sent between writes (after step {})", steps));
      }
      progress.note(fmt::format("preempted run SIGKILLed ({} of {}) after {} recorded steps", k + 1, at.size(), steps));
      continue;
    }
    const int code = launch.finish(pid, r);
    if (code != 0) name_non_atomic();
    if (code != 0)
      return {name, false,
              fmt::format("the restart after {} kill(s) failed (exit {}): the loop is not preemption-safe; its "
                          "output ends:\n{}",
                          at.size(), code, tail_of(r.log))};
  }
  RecordedTrace resumed = read_recorded_trace(r.trace);
  // Where each restart picked up: a loop that starts over at its first step resumes nothing.
  // With the probe's records, found by content; with only a Recorder's, by the steps logged.
  const int64_t first_step = straight.steps.begin()->first;
  bool any_resumed = false;
  const bool probed = !straight.probe.empty() && !resumed.probe.empty();
  std::vector<Finding> diagnosed;
  if (probed) {
    const auto aligned = align_restarts(straight, resumed);
    for (const auto& a : aligned) {
      any_resumed = any_resumed || a.step > 1;
      notes.push_back(fmt::format("restart {} resumed at step {} (found by {})", a.start - 1, a.step, a.how));
    }
    if (resumed.steps_from_probe) renumber_steps(resumed, aligned);
    // The first departure names the cause; from there on the preempted run is on another
    // trajectory, and later restarts cannot be compared with the uninterrupted run.
    if (const auto departure = first_departure(straight, resumed, aligned)) {
      diagnosed = diagnose_resume(resumed, *departure);
      for (auto& f : diagnosed)
        if (f.id == "resume-state-equal-values-differ") resume_op_rerun(launch, straight, *departure, progress, f);
    }
  } else {
    for (size_t i = 0; i < restarts.size(); ++i) {
      const auto steps = logged_steps_from(r.trace, restarts[i]);
      if (steps.empty()) continue;
      any_resumed = any_resumed || steps.front() > first_step;
      notes.push_back(fmt::format("restart {} logged step {} first", i + 1, steps.front()));
    }
  }
  name_non_atomic();
  findings.insert(findings.end(), diagnosed.begin(), diagnosed.end());
  for (auto& f : unsafe_loads(resumed)) findings.push_back(std::move(f));
  std::string diff = first_difference(straight, resumed);
  if (diff.empty() && !diagnosed.empty()) diff = diagnosed.front().detail;
  const std::string where = notes.empty() ? "" : " (" + fmt::format("{}", fmt::join(notes, "; ")) + ")";
  if (!diff.empty()) return {name, false, diff + where};
  if (!restarts.empty() && !any_resumed)
    return {name, false,
            "every restart began again at the first step: no checkpoint in the run folder was resumed from" + where};
  if (std::none_of(notes.begin(), notes.end(), [](const auto& n) { return n.rfind("kill 1 sent while", 0) == 0; }))
    return {name, false, "no kill landed during a write into the run folder" + where};
  return {name, true, fmt::format("{} steps, final parameters equal{}", resumed.steps.size(), where)};
}

}  // namespace trainproof
