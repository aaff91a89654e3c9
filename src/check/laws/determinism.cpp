// The law of determinism: two uninterrupted runs of the command are bitwise equal, and where
// they are not, what says why (an unseeded RNG, a seed drawn anew, a shared model, the first op
// that parts).
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/checking.h"
#include "src/check/probe_findings.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/fault.h"

namespace trainproof {
namespace {

const std::string kDeterminismLawName = law_heading(law::kDeterminism, "two uninterrupted runs are bitwise equal");

// The law of determinism, and what says why two runs differ: `first` and `second` (`b`, its
// process that `first`'s primary is), the findings the script drew already (`named`), and the op
// reruns where nothing else explains the difference.
struct DeterminismVerdict {
  Law law;
  std::vector<Finding> findings;
  std::string runs_differ;  // where they differ ("" bitwise equal): the resume cannot be judged by values then
};
DeterminismVerdict determinism_law(const ProcessRun& first, const ProcessRun& second, const RecordedTrace& b,
                                   const std::vector<Finding>& named, const OpReruns& reruns) {
  const RecordedTrace& a = first.main();
  const std::string diff = first_process_difference(first, second);
  DeterminismVerdict v{{kDeterminismLawName, diff.empty(), ""}, {}, diff};
  if (diff.empty()) {
    v.law.detail =
        fmt::format("{} steps, final parameters equal{}", a.steps.size(),
                    first.traces.size() > 1 ? fmt::format(", in each of {} processes", first.traces.size()) : "");
    return v;
  }
  const std::vector<std::string> shared = shared_model_processes(first);
  std::string why =
      ". The usual causes: an unseeded RNG (torch, numpy, random), DataLoader shuffling without a seeded "
      "generator or with workers, non-deterministic kernels (torch.use_deterministic_algorithms(True))";
  if (!shared.empty())  // the cause, not an op: their updates interleave differently
    why = fmt::format(
        ". {} processes ({}) train one shared-memory model without a lock: the order of their updates differs "
        "between runs, so no two runs are bitwise equal (hold such a loop to a band golden: --regen --band)",
        shared.size(), fmt::join(shared, ", "));
  else if (auto seeds = seed_drawn_anew(a, b); !seeds.empty()) {
    why = ". The seed differs between the runs: " + seeds.front().detail;  // the cause, not the first random op
    v.findings.push_back(std::move(seeds.front()));
  } else if (std::any_of(named.begin(), named.end(),
                         [](const Finding& f) { return f.id == finding_id::kUnseededRng; })) {
    // The cause is named already: torch's global RNG drawn unseeded. Its first random op would
    // be named again, as an op, at another line (regression's W_target and its next draw).
    why = ". The cause: torch's global RNG is drawn from without a seed (unseeded-rng)";
  } else {
    v.findings = reruns.parting_op(a, b);
  }
  v.law.detail = diff + why;
  return v;
}

// A second uninterrupted run, held to the first by the law of determinism; `what` says why it runs.
void judge_second_run(Checking& c, const std::string& what) {
  c.determinism_judged = true;
  c.progress.run(what);
  const Run second = c.launch.make("uninterrupted-2");
  if (const int code = c.launch.finish(c.launch.start(second), second); code != 0)
    return c.add({kDeterminismLawName, false,
                  fmt::format("the second run failed (exit {}); its output ends:\n{}", code, tail_of(second.log))});
  const ProcessRun second_run = read_process_run(second.trace_env);
  c.again = second_run.traces.count(c.first.primary) ? second_run.traces.at(c.first.primary) : second_run.main();
  DeterminismVerdict v = determinism_law(c.first, second_run, *c.again, c.report.findings, *c.reruns);
  c.runs_differ = v.runs_differ;
  c.add(std::move(v.law), v.findings);
}

// Two uninterrupted runs, bitwise equal (determinism_law), where the check asks for two.
void judge_determinism(Checking& c) {
  if (!c.o.reference.empty() || c.o.runs < 2) return;
  judge_second_run(c, "uninterrupted again (determinism)");
}

}  // namespace

extern const CheckLaw check_law_determinism{law::kDeterminism, judge_determinism};

std::string runs_differ_as_asked(Checking& c, bool ask) {
  if (ask && !c.determinism_judged && !fault_injected("resume-trusts-one-run")) {
    c.progress.add_run();
    judge_second_run(c,
                     "uninterrupted again: the resume departs, and one run could not tell that from a loop "
                     "that is not deterministic");
  }
  return c.runs_differ;
}

}  // namespace trainproof
