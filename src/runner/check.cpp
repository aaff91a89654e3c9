// `trainproof check` (check.h): runs a user's training command as production does and holds
// its recorded trace to the laws; the runs themselves (starting, counting, watching) are
// check_runs.h's, the preempted run's law check_resume.cpp's. Progress goes to the caller's
// sink (CheckOptions::progress); the verdicts are returned as a report.
#include "trainproof/runner/check.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/core/envelope.h"
#include "src/process/exec_paths.h"
#include "src/process/process.h"
#include "src/runner/check_laws.h"
#include "src/runner/check_runs.h"
#include "src/runner/probe_findings.h"
#include "src/runner/trace_source.h"
#include "trainproof/core/band.h"
#include "trainproof/core/compare.h"
#include "trainproof/core/data_dirs.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/fingerprint.h"
#include "trainproof/runner/runner.h"

namespace trainproof {

namespace fs = std::filesystem;

// Where two traces first differ: the step (for per-step series) or the parameter, and the values.
std::string first_difference(const RecordedTrace& a, const RecordedTrace& b) {
  const Trace ta = to_trace(a), tb = to_trace(b);
  std::vector<int64_t> steps;
  for (const auto& [s, v] : a.steps) steps.push_back(s);
  for (const auto& c : compare_traces(ta, tb, /*cross_environment=*/false)) {
    if (c.passed()) continue;
    if (c.series.rfind("param.", 0) == 0)
      return fmt::format("final parameter {} differs ({})", c.series.substr(6), c.detail);
    const size_t i = static_cast<size_t>(std::max<int64_t>(c.first_divergence, 0));
    // Two values that differ: a series that only ends early or runs longer has none at its first
    // missing step (its golden and observed values are not set there), so it says how long each is.
    if (c.first_divergence >= 0 && i < steps.size() && i < std::min(c.golden_size, c.observed_size))
      return fmt::format("first at step {} in '{}': {:.9g} vs {:.9g}", steps[i], c.series, c.golden_value,
                         c.observed_value);
    if (c.verdict == Verdict::kLengthMismatch && i < steps.size())
      return fmt::format("from step {} in '{}': {} values against {}, none to compare there", steps[i], c.series,
                         c.golden_size, c.observed_size);
    return fmt::format("'{}': {}", c.series, c.detail);
  }
  return "";
}

namespace {

// The recorded lr of every step against the schedule, with the usual culprits named.
Law schedule_law(const RecordedTrace& t, const CheckOptions& o) {
  const std::string name = fmt::format("the schedule: every step's recorded lr is {}'s", o.expect_lr_spec);
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

// The group of a check golden, and what it means to compare against it here.
constexpr const char* kCheckGroup = "cpu";

// The trace against the golden's tolerances (cross-machine ones when the golden was made elsewhere).
// Read before anything runs, so that a missing or damaged golden is bad input at once.
DeviceGolden load_check_golden(const fs::path& path) {
  if (!fs::exists(path))
    throw BadInput(
        fmt::format("{}: no such golden; create it with --regen (trainproof check --regen --golden {} "
                    "-- CMD...)",
                    path.string(), path.string()));
  GoldenFile g = read_golden(path);
  const auto group = g.devices.find(kCheckGroup);
  if (group == g.devices.end())
    throw BadInput(
        fmt::format("{}: no /{} group: not a golden written by trainproof check --regen", path.string(), kCheckGroup));
  return std::move(group->second);
}

Law golden_law(const Trace& observed, const DeviceGolden& golden, const CheckOptions& o, VerifyReport& report) {
  const std::string name = fmt::format("the golden curve: within the tolerances of {}", o.golden.string());
  const auto diffs = fingerprint_diff(golden.fingerprint, current_fingerprint(c10::Device("cpu")));
  const bool cross = is_cross_environment(diffs);
  GoldenHold held = hold_to_golden("check", "golden", golden.trace, observed, cross);
  for (auto& row : held.rows) report.entries.push_back(std::move(row));
  const std::string verdict = environment_verdict(diffs, held.beyond_exact, held.beyond_envelope);
  const std::string why = verdict.empty() ? "" : ". Verdict: " + verdict;
  const std::string where = cross ? "made on another machine: cross-machine tolerances" : "made on this machine";
  if (held.failed)
    return {name, false,
            fmt::format("{} series outside their tolerances ({}), first {}{}", held.failed, where, held.first_failure,
                        why)};
  return {name, true, fmt::format("{} series within their tolerances ({}){}", golden.trace.series.size(), where, why)};
}

// The problems that refuse a golden before any path runs: each law broken.
std::vector<std::string> broken_laws(const std::vector<Law>& laws) {
  std::vector<std::string> problems;
  for (const auto& l : laws)
    if (l.failed()) problems.push_back(fmt::format("the law '{}' is broken", l.name));
  return problems;
}

// Refused (nothing written) while a law is broken or a series moves beyond its ceiling, unless
// --force (then each problem is kept in the golden as forced); otherwise the golden written
// atomically. `out` says which, and why.
void write_check_golden(const CheckOptions& o, std::vector<std::string> problems, int64_t schema, DeviceGolden group,
                        CheckGoldenWrite& out) {
  out.problems = std::move(problems);
  if (refuses_golden(out.problems, o.force)) return;
  group.forced = forced_problems(out.problems);
  GoldenFile g;
  g.schema_version = schema;
  g.scenario = o.golden.stem().string();
  g.trainproof_version = kTrainproofVersion;
  g.created_utc = utc_now();
  g.devices[kCheckGroup] = std::move(group);
  if (o.golden.has_parent_path()) fs::create_directories(o.golden.parent_path());
  write_golden(o.golden, g);
  out.written = true;
}

// The name a command's trace is recorded under, as a path's recording.
constexpr const char* kCommandName = "check";

// What a start of the command recorded, as a path's recording in the environment `fingerprint`.
Recording command_recording(const RecordedTrace& t, const std::string& fingerprint) {
  return {fingerprint, {{kCommandName, {"ok", "", to_trace(t)}}}};
}

// The command as a source of traces: one start per execution path, in the path's environment
// (trace_source.h); a start that fails is that path's error.
std::vector<PathRun> command_runs(const Launcher& launch, const std::vector<ExecPath>& paths,
                                  const std::string& fingerprint, Progress& progress) {
  std::vector<PathRun> runs;
  for (const auto& path : paths) {
    progress.run(fmt::format("execution path {} ({})", path.name, path.env_text()));
    const Run r = launch.make("path-" + path.name);
    PathRun& out = runs.emplace_back(PathRun{path, 0, 0, r.log, std::nullopt, ""});
    out.exit_code = launch.finish(launch.start(r, "start 1", path.child_env()), r);
    if (out.exit_code != 0)
      out.error = fmt::format("the command failed (exit {}); its output ends:\n{}", out.exit_code, tail_of(r.log));
    else
      out.recording = command_recording(read_recorded_trace(r.trace), fingerprint);
  }
  return runs;
}

// --regen: the command once more under each other execution path (the uninterrupted run is the
// first path's), the spread of every series across them, and the golden written atomically with
// what changed. Refused (nothing written) while a law is broken or a series moves beyond its
// ceiling, unless --force.
CheckGoldenWrite regen_golden(const Launcher& launch, const RecordedTrace& straight, const std::vector<Law>& laws,
                              const CheckOptions& o, const std::vector<ExecPath>& paths, Progress& progress) {
  std::vector<std::string> problems = broken_laws(laws);
  // A broken law refuses the golden whatever the paths measure: they are not run (but with --force).
  const bool run_paths = problems.empty() || o.force;
  if (!run_paths && paths.size() > 1)
    progress.note(
        fmt::format("the {} other execution path(s) not run: a broken law refuses the golden", paths.size() - 1));
  const std::string fingerprint = current_fingerprint(c10::Device("cpu"));
  std::vector<PathRun> runs{{paths[0], 0, 0, {}, command_recording(straight, fingerprint), ""}};
  if (o.ceiling)
    for (auto& s : runs[0].recording->scenarios.at(kCommandName).trace.series) s.ceiling = *o.ceiling;
  if (run_paths)
    for (auto& r : command_runs(launch, {paths.begin() + 1, paths.end()}, fingerprint, progress))
      runs.push_back(std::move(r));
  std::vector<ExecPath> measured;
  for (const auto& r : runs)
    if (r.recording) measured.push_back(r.path);
  const double factor = o.safety_factor > 0 ? o.safety_factor : kDefaultSafetyFactor;
  const GoldenRead old = read_old_golden(o.golden);
  GoldenDraft draft = draft_across_paths(kCommandName, runs, old.group(kCheckGroup),
                                         {.scenario = "check",
                                          .device = kCheckGroup,
                                          .safety_factor = factor,
                                          .old = nullptr,
                                          .previous = nullptr,
                                          .problems = std::move(problems),
                                          .ceiling_hint = " (--ceiling)",
                                          .force = o.force});
  if (!o.markdown.empty()) write_regen_markdown(o.markdown, draft.changes, draft.tolerances);
  CheckGoldenWrite out;
  out.path = o.golden.string();
  out.made_of = fmt::format("{} execution paths, safety factor {}", measured.size(), factor);
  out.changes = draft.changes;
  out.replaced = old.error;
  write_check_golden(o, std::move(draft.problems), kGoldenSchemaVersion,
                     {fingerprint, std::move(draft.trace), paths_json(measured), "", std::nullopt}, out);
  return out;
}

// The statistical lane (core/band.h), for a loop whose runs are not bitwise equal.

// N runs of the command, run i with seed first_seed + i under --seed-arg. A run that fails or
// records nothing is bad input: the band would stand on fewer runs than asked.
std::vector<RecordedTrace> band_runs(const Launcher& launch, const CheckOptions& o, int n, int64_t first_seed,
                                     Progress& progress) {
  const std::string what = o.regen ? "band run" : "run";
  std::vector<RecordedTrace> runs;
  for (int i = 0; i < n; ++i) {
    const auto seed = o.seed_arg.empty() ? std::nullopt : std::optional<int64_t>(first_seed + i);
    const Run r = launch.make(fmt::format("{}-{}", o.regen ? "band" : "run", i + 1), seed);
    progress.run(fmt::format("{} {} of {}{}", what, i + 1, n, seed ? fmt::format(" (seed {})", *seed) : ""));
    if (const int code = launch.finish(launch.start(r), r); code != 0)
      throw BadInput(
          fmt::format("check: {} {} failed (exit {}); its output ends:\n{}", what, i + 1, code, tail_of(r.log)));
    runs.push_back(read_recorded_trace(r.trace));
    if (runs.back().steps.empty()) throw BadInput(fmt::format("check: {} {} recorded no step", what, i + 1));
  }
  return runs;
}

// Runs that differ are what this lane is for: said, not held against the loop.
Law determinism_advice(const std::vector<RecordedTrace>& runs) {
  const std::string name = "determinism (advice in the band lane: runs may differ)";
  for (size_t r = 1; r < runs.size(); ++r)
    if (const std::string diff = first_difference(runs[0], runs[r]); !diff.empty())
      return {name, true, fmt::format("runs 1 and {} differ, {}: expected in this lane", r + 1, diff), true};
  return {name, true,
          fmt::format("the {} runs are bitwise equal: an exact golden (--regen without --band) holds this loop tighter",
                      runs.size()),
          true};
}

std::vector<Trace> traces_of(const std::vector<RecordedTrace>& runs) {
  std::vector<Trace> t;
  for (const auto& r : runs) t.push_back(to_trace(r));
  return t;
}

// --regen --band: the runs' mean and spread per series and step, and each run's final values.
CheckGoldenWrite regen_band(const std::vector<RecordedTrace>& runs, const std::vector<Law>& laws,
                            const CheckOptions& o) {
  const std::string varied =
      o.seed_arg.empty() ? "repeats" : fmt::format("{} (seeds 0..{})", o.seed_arg, runs.size() - 1);
  BandGolden b;
  try {
    b = make_band(traces_of(runs), varied);
  } catch (const std::invalid_argument& e) {
    throw BadInput(fmt::format("check --band: {}", e.what()));
  }
  CheckGoldenWrite out;
  out.path = o.golden.string();
  out.made_of = fmt::format(
      "a band of {} runs over {}; held at k = {:.3g} spreads by default, family-wise alpha {} over {} steps x series",
      b.band.runs, varied, default_band_k(b.band.runs, band_points(b.band)), kBandFamilyAlpha, band_points(b.band));
  for (const auto& [series, finals] : b.band.finals) {
    const auto& spread = b.band.spread.at(series);
    out.series.push_back(fmt::format("{:<12} final {:.9g} +- {:.3g} over the runs, widest step spread {:.3g}", series,
                                     b.mean.find(series)->values.back(), spread.back(),
                                     *std::max_element(spread.begin(), spread.end())));
  }
  write_check_golden(o, broken_laws(laws), kBandGoldenSchemaVersion,
                     {current_fingerprint(c10::Device("cpu")), std::move(b.mean), "[]", "", std::move(b.band)}, out);
  return out;
}

// A band golden held: every run within k spreads at every step, and with two runs or more
// their final loss (each series named like "loss") not higher than the golden's (one-sided
// Welch t-test, MLPerf's check of a convergence point; one test per loss series).
std::vector<Law> band_laws(const DeviceGolden& golden, const std::vector<RecordedTrace>& runs, const CheckOptions& o) {
  const Band& band = *golden.band;
  const double k = o.band_k > 0 ? o.band_k : default_band_k(band.runs, band_points(band));
  const auto diffs = fingerprint_diff(golden.fingerprint, current_fingerprint(c10::Device("cpu")));
  std::vector<std::string> fields;
  for (const auto& d : diffs) fields.push_back(d.field);
  const std::string env =
      is_cross_environment(diffs)
          ? fmt::format(". The golden was made in another environment ({}): its spread is that machine's",
                        fmt::join(fields, ", "))
          : "";
  const Series* steps = golden.trace.find("step");
  const std::vector<Trace> traces = traces_of(runs);
  std::vector<Law> laws;
  const std::string name =
      fmt::format("the band: every run within {:.3g} spreads of {}'s mean ({} runs; {})", k, o.golden.string(),
                  band.runs, o.band_k > 0 ? "--band-k" : "the default for that many");
  std::optional<Law> outside;
  for (size_t r = 0; r < traces.size() && !outside; ++r)
    if (const auto e = first_outside_band(golden.trace, band, traces[r], k)) {
      const int64_t step =
          steps && e->index < steps->ints.size() ? steps->ints[e->index] : static_cast<int64_t>(e->index);
      outside = Law{name, false, fmt::format("run {} of {} leaves it: {}{}", r + 1, traces.size(), e->str(step), env)};
    }
  laws.push_back(outside ? *outside
                         : Law{name, true, fmt::format("{} run(s), every step inside{}", traces.size(), env)});
  if (traces.size() < 2) return laws;

  std::vector<std::string> rose, each;
  for (const auto& [series, golden_finals] : band.finals) {
    if (series.find("loss") == std::string::npos) continue;  // the losses: the convergence the runs reach
    std::vector<double> finals;
    for (const auto& t : traces)
      if (const Series* s = t.find(series); s && s->size()) finals.push_back(s->at(s->size() - 1));
    if (finals.size() != traces.size()) continue;  // a run without it already left the band
    const WelchTest w = welch_higher(golden_finals, finals);
    each.push_back(fmt::format("'{}': {}", series, w.str()));
    if (w.higher()) rose.push_back(each.back());
  }
  if (each.empty()) return laws;  // no series named like a loss: the band alone holds the run
  laws.push_back(
      {fmt::format("the final loss: not higher than the golden's (one-sided Welch t-test, alpha {})", kBandFinalAlpha),
       rose.empty(), fmt::format("{}", fmt::join(rose.empty() ? each : rose, "; "))});
  return laws;
}

// Two runs parted: both reruns, with op-level digests, up to the step where they parted, and
// the first op with equal inputs and different outputs named (nondeterministic-op).
void op_rerun(const Launcher& launch, const RecordedTrace& a, const RecordedTrace& b, Progress& progress,
              std::vector<Finding>& findings) {
  const int64_t step = first_probe_step_difference(a, b);
  if (step <= 0) return;  // no probe records: not a Python command, or --no-probe
  std::vector<RecordedTrace> reruns;
  for (const char* name : {"op-digests-1", "op-digests-2"}) {
    progress.note(fmt::format("rerun up to step {} with op-level digests ({})", step, name));
    const Run r = launch.make(name);
    const int code = launch.finish(launch.start(r, "start 1", {{"TRAINPROOF_OP_DIGESTS", std::to_string(step)}}), r);
    if (code != 0) {
      progress.note(fmt::format("the rerun with op-level digests failed (exit {}); no op named", code));
      return;
    }
    reruns.push_back(read_recorded_trace(r.trace));
  }
  for (auto& f : first_parting_op(reruns[0], reruns[1], step)) findings.push_back(std::move(f));
}

// The findings as report entries (JUnit, HTML), each id once (the same id from two runs: a load
// in the first start and a restart); --allow accepts one knowingly.
void report_findings(VerifyReport& report, const std::vector<std::string>& allow) {
  std::vector<Finding> once;
  for (auto& f : report.findings)
    if (std::none_of(once.begin(), once.end(), [&](const Finding& g) { return g.id == f.id; })) once.push_back(f);
  report.findings = std::move(once);
  for (auto& f : report.findings) {
    f.allowed = std::find(allow.begin(), allow.end(), f.id) != allow.end();
    report.entries.emplace_back("check", "cmd", "finding", f.id, f.status(), "",
                                fmt::format("{}: {}", f.heading(), f.detail));
  }
}

// The laws, then the findings, as the report's entries, and what the console prints.
CheckReport conclude(const CheckOptions& o, std::vector<Law> laws, VerifyReport report,
                     std::optional<CheckGoldenWrite> golden, const Progress& progress, const fs::path& work) {
  report.entries.insert(report.entries.end(), laws.begin(), laws.end());
  report_findings(report, o.allow);
  report.seconds = progress.seconds();
  return {std::move(report), std::move(golden), o.keep.empty() ? "" : work.string()};
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

}  // namespace

CheckReport check(const CheckOptions& o) {
  if (o.command.empty()) throw BadInput("check: give the training command after --");
  if (o.kills < 0) throw BadInput(fmt::format("--kills {}: must be 0 or more", o.kills));
  if (o.regen && o.golden.empty()) throw BadInput("check --regen: name the golden to write with --golden FILE");
  if (!o.markdown.empty() && !o.regen) throw BadInput("check --markdown: only with --regen");
  if (!o.reference.empty() && o.regen)
    throw BadInput("check --reference: not with --regen (a golden is made from runs of this check)");

  if (!o.reference.empty() && !fs::exists(o.reference))
    throw BadInput(fmt::format("{}: no such trace (--reference)", o.reference.string()));
  std::optional<DeviceGolden> golden;
  if (!o.regen && !o.golden.empty()) golden = load_check_golden(o.golden);
  const bool band = o.band || (golden && golden->band);
  check_lane_options(o, band);
  const std::vector<ExecPath> paths =
      o.regen && !band ? select_paths(cpu_paths(cpu_flags()), o.path_set) : std::vector<ExecPath>{};
  std::optional<TempDir> temp;
  fs::path work = o.keep;
  if (work.empty()) {
    temp.emplace("check");
    work = temp->path();
  } else {
    fs::create_directories(work);
  }
  const Launcher launch(o, work);
  Progress progress((o.reference.empty() ? o.runs : 0) + (o.kills > 0 ? 1 : 0) +
                        static_cast<int>(paths.empty() ? 0 : paths.size() - 1),
                    o.progress);
  std::vector<Law> laws;
  VerifyReport report;
  std::optional<CheckGoldenWrite> written;
  if (band) {
    const auto runs = band_runs(launch, o, o.runs, o.regen ? 0 : golden->band->runs, progress);
    report.findings = script_findings(runs[0]);
    if (!o.expect_lr.empty()) laws.push_back(schedule_law(runs[0], o));
    if (golden)
      for (auto& l : band_laws(*golden, runs, o)) laws.push_back(std::move(l));
    if (runs.size() > 1) laws.push_back(determinism_advice(runs));
    if (o.regen) written = regen_band(runs, laws, o);
    return conclude(o, std::move(laws), std::move(report), std::move(written), progress, work);
  }

  // The uninterrupted run: it must work, and record something, before any law means anything.
  // With --reference, an earlier check's uninterrupted trace stands in for it.
  const auto uninterrupted = [&] {
    if (!o.reference.empty()) {
      progress.note(
          fmt::format("the uninterrupted run: {} (--reference; determinism not checked)", o.reference.string()));
      return read_recorded_trace(o.reference);
    }
    progress.run(fmt::format("uninterrupted: {}", fmt::join(o.command, " ")));
    const Run first = launch.make("uninterrupted-1");
    if (const int code = launch.finish(launch.start(first), first); code != 0)
      throw BadInput(
          fmt::format("check: the command failed on its first uninterrupted run (exit {}); its output "
                      "ends:\n{}",
                      code, tail_of(first.log)));
    return read_recorded_trace(first.trace);
  };
  const RecordedTrace a = uninterrupted();
  if (a.steps.empty() && a.params.empty())
    throw BadInput(
        fmt::format("check: the uninterrupted run holds no record: the command records no trace (a Python command is "
                    "recorded by the probe once it imports torch and steps an optimizer; otherwise call "
                    "trainproof.Recorder().log(step, ...) once per step)"));
  progress.note(fmt::format("{} steps and {} parameters recorded", a.steps.size(), a.params.size()));
  report.findings = script_findings(a);

  if (o.reference.empty() && o.runs > 1) {
    progress.run("uninterrupted again (determinism)");
    const Run second = launch.make("uninterrupted-2");
    if (const int code = launch.finish(launch.start(second), second); code != 0) {
      laws.push_back({"determinism: two uninterrupted runs are bitwise equal", false,
                      fmt::format("the second run failed (exit {}); its output ends:\n{}", code, tail_of(second.log))});
    } else {
      const RecordedTrace b = read_recorded_trace(second.trace);
      std::string diff = first_difference(a, b);
      if (diff.empty()) diff = first_probe_difference(a, b);
      if (!diff.empty()) op_rerun(launch, a, b, progress, report.findings);
      laws.push_back({"determinism: two uninterrupted runs are bitwise equal", diff.empty(),
                      diff.empty() ? fmt::format("{} steps, final parameters equal", a.steps.size())
                                   : diff + ". The usual causes: an unseeded RNG (torch, numpy, random), DataLoader "
                                            "shuffling without a seeded generator or with workers, non-deterministic "
                                            "kernels (torch.use_deterministic_algorithms(True))"});
    }
  }
  if (o.kills > 0) {
    progress.run(fmt::format("preempted: {} SIGKILL(s), restarted after each", o.kills));
    laws.push_back(resume_law(launch, a, o.kills, o.seed, progress, report.findings));
  }
  if (!o.expect_lr.empty()) laws.push_back(schedule_law(a, o));

  if (golden) laws.push_back(golden_law(to_trace(a), *golden, o, report));
  if (o.regen) written = regen_golden(launch, a, laws, o, paths, progress);
  return conclude(o, std::move(laws), std::move(report), std::move(written), progress, work);
}

}  // namespace trainproof
