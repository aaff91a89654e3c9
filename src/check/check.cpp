// `trainproof check` (check.h): runs a user's training command as production does and holds
// its recorded trace to the laws; the runs themselves (starting, counting, watching) are
// check_runs.h's, the preempted run's law check_resume.cpp's. Progress goes to the caller's
// sink (CheckOptions::progress); the verdicts are returned as a report.
#include "trainproof/check/check.h"
#include "trainproof/check/findings.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/check_golden.h"
#include "src/check/check_laws.h"
#include "src/check/check_runs.h"
#include "src/check/op_reruns.h"
#include "src/check/probe_findings.h"
#include "src/check/processes.h"
#include "src/check/reshard.h"
#include "src/process/exec_paths.h"
#include "src/process/process.h"
#include "trainproof/core/data_dirs.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

// The recorded lr of every step against the schedule, with the usual culprits named.
Law schedule_law(const RecordedTrace& t, const CheckOptions& o) {
  const std::string name =
      law_heading(law::kSchedule, fmt::format("every step's recorded lr is {}'s", o.expect_lr_spec));
  std::vector<double> got;
  std::vector<int64_t> steps;
  for (const auto& [step, values] : t.steps) {
    const auto it = values.find("lr");
    if (it == values.end())
      return {name, false,
              fmt::format("step {} records no lr: log the rate each step used, rec.log(step, lr=...)", step)};
    got.push_back(it->second);
    steps.push_back(step);
  }
  const std::vector<double>& want = o.expect_lr;
  // Equal up to the order of the formula's floating-point operations (a Python lambda and
  // trainproof's C++ one round differently); any real mistake moves the rate by far more.
  const Tolerance tol = Tolerance::ulp(4) | Tolerance::rel(1e-9);
  const auto equal_from = [&](size_t shift_got, size_t shift_want) {
    for (size_t i = 0; i + shift_got < got.size() && i + shift_want < want.size(); ++i)
      if (!tol.accepts(want[i + shift_want], got[i + shift_got], DType::kFloat64)) return false;
    return true;
  };
  const size_t n = std::min(got.size(), want.size());
  for (size_t i = 0; i < n; ++i) {
    if (tol.accepts(want[i], got[i], DType::kFloat64)) continue;
    std::string hint;
    size_t same = i;  // how long the recorded rate stays put from here
    while (same + 1 < got.size() && got[same + 1] == got[i]) ++same;
    if (equal_from(0, 1))
      hint =
          "; the recorded rates are the schedule's one step early: lr logged after scheduler.step(), or one "
          "scheduler.step() too many before training";
    else if (equal_from(1, 0))
      hint = "; the recorded rates are the schedule's one step late: an off-by-one in the lambda or the step count";
    else if (same > i)
      hint = fmt::format(
          "; the recorded rate stays at {:.9g} for steps {} to {}: a per-step scheduler stepped per "
          "epoch?",
          got[i], steps[i], steps[same]);
    return {name, false,
            fmt::format("first at step {} (record {} of {}): lr {:.9g}, the schedule gives {:.9g}{}", steps[i], i + 1,
                        got.size(), got[i], want[i], hint)};
  }
  if (got.size() != want.size())
    return {name, false,
            fmt::format("{} steps recorded, the schedule has {}: --total (or --steps) differs from the loop's",
                        got.size(), want.size())};
  return {name, true, fmt::format("{} steps, each within {} of the schedule", n, tol.str())};
}

// What the uninterrupted run recorded, as the progress says it: steps, and the processes that
// recorded them.
std::string recorded_summary(const ProcessRun& run) {
  const RecordedTrace& t = run.main();
  std::string what = t.steps_from_probe
                         ? fmt::format("{} steps recorded by the probe", t.steps.size())
                         : fmt::format("{} steps and {} final parameters recorded", t.steps.size(), t.params.size());
  if (run.traces.size() > 1)
    what += fmt::format(" ({}; {} processes recorded in all)",
                        run.primary.empty() ? std::string("the command's own process") : process_name(run.primary),
                        run.traces.size());
  return what;
}

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
  v.law.detail = fmt::format("{} departs first, at step {}{}; {}", process_name(other->who), other->step,
                             v.seen.departure >= 0 ? fmt::format(" (before the primary, at step {})", v.seen.departure)
                                                   : std::string(" (the primary held)"),
                             v.law.detail);
  return v;
}

// The laws and the findings, each finding's id once (the same id from two runs: a load in the
// first start and a restart; --allow accepts one knowingly), and the time it took.
CheckReport conclude(const CheckOptions& o, CheckReport report, const Progress& progress, const fs::path& work) {
  std::vector<Finding> once;
  for (auto& f : report.findings)
    if (std::none_of(once.begin(), once.end(), [&](const Finding& g) { return g.id == f.id; })) once.push_back(f);
  for (auto& f : once) f.allowed = std::find(o.allow.begin(), o.allow.end(), f.id) != o.allow.end();
  report.findings = std::move(once);
  report.kept = o.keep.empty() ? "" : work.string();
  report.seconds = progress.seconds();
  return report;
}

// Which options each lane takes: the exact lane (bitwise determinism, one or two runs) or the
// band lane (--band with --regen, or a band golden held).
void check_lane_options(const CheckOptions& o, bool band) {
  if (o.band && !o.regen)
    throw BadInput("check --band: only with --regen (a band golden is held as any golden: --golden FILE)");
  if (!band) {
    if (o.runs < 1 || o.runs > 2)
      throw BadInput(fmt::format("--runs {}: must be 1 or 2 (more only with --band)", o.runs));
    if (o.runs < 2 && o.regen)
      throw BadInput("check --runs 1: not with --regen (a golden is made only from a loop shown deterministic)");
    if (!o.seed_arg.empty())
      throw BadInput("check --seed-arg: only in the band lane (--regen --band, or a band golden)");
    if (o.band_k > 0) throw BadInput("check --band-k: only when holding a band golden");
    return;
  }
  if (o.kills > 0)
    throw BadInput("check --kills: not in the band lane (an exact resume is bitwise; runs that differ cannot show it)");
  if (!o.reference.empty()) throw BadInput("check --reference: not in the band lane");
  if (o.regen && o.runs < kBandMinRuns)
    throw BadInput(
        fmt::format("check --regen --band --runs {}: a band needs at least {} runs (5 or 10 give a "
                    "usable width); the spread of fewer says nothing",
                    o.runs, kBandMinRuns));
  if (o.regen && o.band_k > 0) throw BadInput("check --band-k: only when holding a band golden, not with --regen");
  if (o.runs < 1 || o.runs > 100) throw BadInput(fmt::format("--runs {}: must be 1 to 100", o.runs));
}

// --restart-nproc N: a torchrun command killed and restarted on N processes per node, judged by
// the probe's records (reshard.h).
void check_restart_nproc(const CheckOptions& o) {
  if (o.restart_nproc < 1 || o.restart_nproc > 1024)
    throw BadInput(fmt::format("--restart-nproc {}: must be 1 to 1024", o.restart_nproc));
  if (o.kills < 1) throw BadInput("check --restart-nproc: only with --kills N (it is how each restart runs)");
  if (!o.probe)
    throw BadInput("check --restart-nproc: not with --no-probe (the resume is judged from the probe's sums)");
  const int from = nproc_per_node(o.command);
  if (from == 0) {
    with_nproc_per_node(o.command, o.restart_nproc);  // says what is missing, where nothing is
    throw BadInput(
        "check --restart-nproc: the command's --nproc-per-node is not a number (auto, gpu: torchrun's own "
        "choice); give it the number of processes the first run takes, so that the resume's world sizes are known");
  }
  if (from == o.restart_nproc)
    throw BadInput(
        fmt::format("check --restart-nproc {}: the command already runs {} process(es) per node; a resume "
                    "on as many is what --kills alone checks (bitwise)",
                    o.restart_nproc, from));
}

// What needs no run to be refused.
void check_options(const CheckOptions& o) {
  if (o.command.empty()) throw BadInput("check: give the training command after --");
  if (o.kills < 0) throw BadInput(fmt::format("--kills {}: must be 0 or more", o.kills));
  if (o.regen && o.golden.empty()) throw BadInput("check --regen: name the golden to write with --golden FILE");
  if (!o.reference.empty() && o.regen)
    throw BadInput("check --reference: not with --regen (a golden is made from runs of this check)");
  if (!o.reference.empty() && !fs::exists(o.reference))
    throw BadInput(fmt::format("{}: no such trace (--reference)", o.reference.string()));
  if (!o.replay.empty() && !o.keep.empty())
    throw BadInput("check --replay: not with --keep (it judges a kept folder, and runs nothing)");
  if (!o.replay.empty() && !fs::is_directory(o.replay))
    throw BadInput(fmt::format("{}: no such folder (--replay)", o.replay.string()));
}

// The folder the runs run in: --replay's (judged, nothing run), --keep's, or `temp`. A folder
// the runs run in gets work.txt (where they ran: the paths in their traces name it) and the
// options (check.json), for a replay of it.
fs::path work_folder(const CheckOptions& o, std::optional<TempDir>& temp) {
  if (!o.replay.empty()) return o.replay;
  fs::path work = o.keep;
  if (work.empty()) {
    temp.emplace("check");
    work = temp->path();
  } else {
    fs::create_directories(work);
  }
  std::ofstream(work / "work.txt") << fs::absolute(work).string() << "\n";
  keep_options(o, work);
  return work;
}

// The band lane: runs seeded apart, held to a band golden or made into one.
CheckReport band_check(const Launcher& launch, const CheckOptions& o, const std::optional<DeviceGolden>& golden,
                       Progress& progress) {
  const auto runs = band_runs(launch, o, o.runs, o.regen ? 0 : golden->band->runs, progress);
  CheckReport report;
  std::vector<Law> laws;
  report.findings = script_findings(runs[0]);
  if (!o.expect_lr.empty()) laws.push_back(schedule_law(runs[0], o));
  if (golden)
    for (auto& l : band_laws(*golden, runs, o)) laws.push_back(std::move(l));
  if (runs.size() > 1) laws.push_back(determinism_advice(runs));
  if (o.regen) report.golden = regen_band(runs, laws, o);
  report.laws.assign(laws.begin(), laws.end());
  return report;
}

// The exact lane as it goes: what it was given, the evidence so far, and what each law adds.
struct Checking {
  const CheckOptions& o;
  Launcher& launch;
  Progress& progress;
  const std::optional<DeviceGolden>& golden;
  ProcessRun first = {};  // the uninterrupted run (or --reference's)
  std::unique_ptr<OpReruns> reruns = {};
  std::optional<RecordedTrace> again = {};     // the second uninterrupted run
  std::optional<PreemptedRun> preempted = {};  // the killed and restarted run
  std::string runs_differ = {};                // where the two uninterrupted runs differ ("" bitwise equal)
  std::vector<Law> laws = {};
  CheckReport report = {};

  const RecordedTrace& straight() const { return first.main(); }
  void add(Law law, const std::vector<Finding>& findings = {}) {
    laws.push_back(std::move(law));
    report.findings.insert(report.findings.end(), findings.begin(), findings.end());
  }
};

// The uninterrupted run: it must work, and record something, before any law means anything.
// With --reference, an earlier check's uninterrupted trace stands in for it.
ProcessRun uninterrupted(const Checking& c) {
  if (!c.o.reference.empty()) {
    c.progress.note(
        fmt::format("the uninterrupted run: {} (--reference; determinism not checked)", c.o.reference.string()));
    return read_process_run(c.o.reference);
  }
  c.progress.run(fmt::format("uninterrupted: {}", fmt::join(c.o.command, " ")));
  const Run first = c.launch.make("uninterrupted-1");
  if (const int code = c.launch.finish(c.launch.start(first), first); code != 0)
    throw BadInput(
        fmt::format("check: the command failed on its first uninterrupted run (exit {}); its output ends:\n{}", code,
                    tail_of(first.log)));
  return read_process_run(first.trace_env);
}

// Two uninterrupted runs, bitwise equal (determinism_law).
void determinism(Checking& c) {
  if (!c.o.reference.empty() || c.o.runs < 2) return;
  c.progress.run("uninterrupted again (determinism)");
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

// --kills: the preempted run, bitwise the uninterrupted one (resume_law), or with
// --restart-nproc, resumed on another number of processes (reshard_law).
void exact_resume(Checking& c) {
  const CheckOptions& o = c.o;
  if (o.kills == 0) return;
  if (o.restart_nproc > 0) {
    c.progress.run(fmt::format("preempted: {} SIGKILL(s), restarted on {} process(es) per node after each", o.kills,
                               o.restart_nproc));
    ReshardVerdict v = reshard_law(c.launch, c.first, o, c.runs_differ, c.progress);
    return c.add(std::move(v.law), v.findings);
  }
  c.progress.run(fmt::format("preempted: {} SIGKILL(s), restarted after each", o.kills));
  ResumeVerdict v = resume_law(c.launch, c.straight(), {o.kills, o.seed, c.runs_differ, *c.reruns, false}, c.progress);
  if (c.runs_differ.empty()) v = judged_other_processes(c.first, std::move(v));
  c.add(std::move(v.law), v.findings);
  c.preempted = std::move(v.seen);
}

// --expect-lr: every step's lr is the schedule's (schedule_law).
void schedule(Checking& c) {
  if (!c.o.expect_lr.empty()) c.add(schedule_law(c.straight(), c.o));
}

// --golden: the recorded series within the golden's tolerances (golden_law).
void golden(Checking& c) {
  if (c.golden) c.add(golden_law(c.straight(), *c.golden, c.o, c.report.series));
}

// The laws of the exact lane, in the order the report lists them, each a function of the check
// so far. A new law is a function above, a row here, and its row in law_catalog() (findings.h).
constexpr void (*kExactLaws[])(Checking&) = {determinism, exact_resume, schedule, golden};

// The exact lane: the uninterrupted run, then each law in turn; --regen makes a golden of it.
CheckReport exact_check(Checking c) {
  c.first = uninterrupted(c);
  c.launch.follow(c.first.primary);
  c.progress.note(recorded_summary(c.first));
  c.report.findings = script_findings(c.straight());
  c.reruns = launched_op_reruns(c.launch, c.progress);
  for (const auto law : kExactLaws) law(c);
  c.report.run_plots =
      run_plots(c.straight(), c.again ? &*c.again : nullptr, c.preempted ? &*c.preempted : nullptr, c.report.findings);
  if (c.o.regen) c.report.golden = regen_golden(c.launch, c.straight(), c.laws, c.o, c.progress);
  c.report.laws.assign(c.laws.begin(), c.laws.end());
  return std::move(c.report);
}

}  // namespace

CheckReport check(const CheckOptions& given) {
  const CheckOptions o = with_kept_options(given);
  check_options(o);
  std::optional<DeviceGolden> golden;
  if (!o.regen && !o.golden.empty()) golden = load_check_golden(o.golden);
  const bool band = o.band || (golden && golden->band);
  check_lane_options(o, band);
  if (o.restart_nproc != 0) check_restart_nproc(o);
  const size_t paths = o.regen && !band ? regen_paths(o).size() : 0;  // refuses an unknown --paths now
  std::optional<TempDir> temp;
  const fs::path work = work_folder(o, temp);
  Launcher launch(o, work);
  Progress progress(
      (o.reference.empty() ? o.runs : 0) + (o.kills > 0 ? 1 : 0) + static_cast<int>(paths == 0 ? 0 : paths - 1),
      o.progress);
  CheckReport report = band ? band_check(launch, o, golden, progress) : exact_check({o, launch, progress, golden});
  return conclude(o, std::move(report), progress, work);
}

}  // namespace trainproof
