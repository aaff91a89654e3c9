// The law of the preempted run: SIGKILLed and restarted, bitwise the uninterrupted run
// (check_resume.cpp), or with --restart-nproc, resumed on another number of processes
// (reshard.cpp); where another process (a rank, a worker) departs first, it is named.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "src/check/checking.h"
#include "src/check/reshard.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/fault.h"

namespace trainproof {
namespace {

// The preempted run's other processes (ranks, workers): where one departs before the primary (or
// the primary held), the law is broken there and the diagnosis is that process's; the primary's
// own diagnosis of a later departure (its resume- findings) follows from it and goes.
ResumeVerdict judged_other_processes(const ProcessRun& straight, ResumeVerdict v) {
  const auto other = first_process_departure(straight, v.seen);
  if (!other || (v.seen.departure >= 0 && other->step >= v.seen.departure)) return v;
  v.findings.erase(std::remove_if(v.findings.begin(), v.findings.end(),
                                  [](const Finding& f) { return f.id.rfind("resume-", 0) == 0; }),
                   v.findings.end());
  v.findings.insert(v.findings.end(), other->findings.begin(), other->findings.end());
  v.law.status = Status::kBroken;
  v.departed = true;
  v.law.detail = fmt::format("{} departs first, at step {}{}; {}", process_name(other->who), other->step,
                             v.seen.departure >= 0 ? fmt::format(" (before the primary, at step {})", v.seen.departure)
                                                   : std::string(" (the primary held)"),
                             v.law.detail);
  return v;
}

// A resume that departs, on a check that judged no determinism (--runs 1, --reference): the
// resume's fault only where a second uninterrupted run is bitwise the first. Where it is not, the
// departure says nothing of the resume: the law is not tested, and no state is named as missing
// (the law of determinism, now judged, says where the runs differ).
void unless_runs_differ(Checking& c, bool departed, Law& law, std::vector<Finding>& findings) {
  if (!departed || c.determinism_judged || fault_injected("resume-trusts-one-run")) return;
  const std::string& differ = runs_differ_once_asked(c);
  if (differ.empty()) return;
  law = Law::not_tested(law.name, fmt::format("{}; but a second uninterrupted run differs from the first ({}): a "
                                              "departure after a restart says nothing of the resume until the "
                                              "loop is deterministic",
                                              law.detail, differ));
  findings.erase(std::remove_if(findings.begin(), findings.end(),
                                [](const Finding& f) { return f.law == law::kExactResume || f.law == law::kReshard; }),
                 findings.end());
}

// --kills: the preempted run, bitwise the uninterrupted one (resume_law), or with
// --restart-nproc, resumed on another number of processes (reshard_law).
void judge_resume(Checking& c) {
  const CheckOptions& o = c.o;
  if (o.kills == 0) return;
  if (o.restart_nproc > 0) {
    c.progress.run(fmt::format("preempted: {} SIGKILL(s), restarted on {} process(es) per node after each", o.kills,
                               o.restart_nproc));
    ReshardVerdict v = reshard_law(c.launch, c.first, o, c.runs_differ, c.progress);
    unless_runs_differ(c, v.departed, v.law, v.findings);
    return c.add(std::move(v.law), v.findings);
  }
  c.progress.run(fmt::format("preempted: {} SIGKILL(s), restarted after each", o.kills));
  ResumeVerdict v = resume_law(c.launch, c.straight(), {o.kills, o.seed, c.runs_differ, *c.reruns, false}, c.progress);
  if (c.runs_differ.empty()) v = judged_other_processes(c.first, std::move(v));
  unless_runs_differ(c, v.departed, v.law, v.findings);
  c.add(std::move(v.law), v.findings);
  c.preempted = std::move(v.seen);
}

}  // namespace

extern const CheckLaw check_law_exact_resume{law::kExactResume, judge_resume};

}  // namespace trainproof
