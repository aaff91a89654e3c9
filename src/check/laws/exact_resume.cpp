// The law of the preempted run: SIGKILLed and restarted, bitwise the uninterrupted run
// (check_resume.cpp), or with --restart-nproc, resumed on another number of processes
// (reshard.cpp); where another process (a rank, a worker) departs first, it is named.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "src/check/checking.h"
#include "src/check/probe_findings.h"
#include "src/check/reshard.h"
#include "trainproof/check/findings.h"

namespace trainproof {
namespace {

// The preempted run's other processes (ranks, workers): where one departs before the primary (or
// the primary held), the law is broken there and the diagnosis is that process's; the primary's
// own diagnosis of a later departure (its resume- findings) follows from it and goes.
ResumeVerdict judged_other_processes(Checking& c, ResumeVerdict v) {
  const auto other = first_process_departure(c.first, v.seen);
  if (!other || (v.seen.departure >= 0 && other->step >= v.seen.departure)) return v;
  if (!runs_differ_as_asked(c, true).empty()) return v;  // runs that differ depart anyway: no process is to blame
  v.findings.erase(std::remove_if(v.findings.begin(), v.findings.end(),
                                  [](const Finding& f) { return f.id.rfind("resume-", 0) == 0; }),
                   v.findings.end());
  v.findings.insert(v.findings.end(), other->findings.begin(), other->findings.end());
  v.law.status = Status::kBroken;
  v.law.detail = fmt::format("{} departs first, at step {}{}; {}", process_name(other->who), other->step,
                             v.seen.departure >= 0 ? fmt::format(" (before the primary, at step {})", v.seen.departure)
                                                   : std::string(" (the primary held)"),
                             v.law.detail);
  return v;
}

// checkpoint-missing-state is a reading of the checkpoint's keys; a restart that resumed from it and
// went on bitwise shows what it really holds. Where the resume held: a step that only a key's name
// left unrecognised ("micro") is no finding, and any other piece is advice, not shown by the run.
void judged_by_the_restart(std::vector<Finding>& findings, const RecordedTrace& straight) {
  const std::vector<std::string> lacks = first_checkpoint_lacks(straight);
  const bool only_the_step = lacks.size() == 1 && lacks.front() == "step";
  findings.erase(
      std::remove_if(findings.begin(), findings.end(),
                     [&](const Finding& f) { return only_the_step && f.id == finding_id::kCheckpointMissingState; }),
      findings.end());
  for (auto& f : findings)
    if (f.id == finding_id::kCheckpointMissingState && !f.advice) {
      f.advice = true;
      f.detail +=
          ". Not shown by this run: a restart resumed from it and went on bitwise, so nothing this run does depends "
          "on what it lacks yet";
    }
}

// --kills: the preempted run, bitwise the uninterrupted one (resume_law), or with
// --restart-nproc, resumed on another number of processes (reshard_law).
void judge_resume(Checking& c) {
  const CheckOptions& o = c.o;
  if (o.kills == 0) return;
  const RunsDiffer differ = [&c](bool ask) { return runs_differ_as_asked(c, ask); };
  if (o.restart_nproc > 0) {
    c.progress.run(fmt::format("preempted: {} SIGKILL(s), restarted on {} process(es) per node after each", o.kills,
                               o.restart_nproc));
    ReshardVerdict v = reshard_law(c.launch, c.first, o, differ, c.progress);
    return c.add(std::move(v.law), v.findings);
  }
  c.progress.run(fmt::format("preempted: {} SIGKILL(s), restarted after each", o.kills));
  ResumeVerdict v =
      resume_law(c.launch, c.straight(), {o.kills, o.seed, differ, *c.reruns, KillMoment::kInAWrite}, c.progress);
  v = judged_other_processes(c, std::move(v));
  if (v.law.passed()) judged_by_the_restart(c.report.findings, c.straight());
  c.add(std::move(v.law), v.findings);
  c.preempted = std::move(v.seen);
}

}  // namespace

extern const CheckLaw check_law_exact_resume{law::kExactResume, judge_resume};

}  // namespace trainproof
