// The golden lanes of `trainproof check` (check_golden.h): the exact golden, held against the
// golden's tolerances or regenerated across the execution paths, and the band golden of a loop
// whose runs differ (core/band.h).
#include "src/check/check_golden.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include "src/check/check_laws.h"
#include "src/check/check_runs.h"
#include "src/core/envelope.h"
#include "src/process/exec_paths.h"
#include "src/process/process.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/band.h"
#include "trainproof/core/compare.h"
#include "trainproof/core/data_dirs.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/verdict/fingerprint.h"
#include "trainproof/verdict/golden_draft.h"
#include "trainproof/verdict/golden_hold.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

// The group of a check golden, and what it means to compare against it here.
constexpr const char* kCheckGroup = "cpu";

}  // namespace

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

Fingerprint trained_fingerprint(const RecordedTrace& run) {
  Fingerprint f = host_fingerprint();
  if (run.env.empty()) return f;  // a Recorder's trace (a C++ loop): LibTorch's, this program's
  // The machine's facts stay (the CPU, its ISA); what describes a torch is the trained process's.
  // This program's compiler built no part of the training either.
  for (const char* field : {"libtorch_version", "threads", "cpu_capability", "deterministic_algorithms",
                            "cudnn_deterministic", "cudnn_benchmark", "compiler"})
    f.fields.erase(field);
  for (const auto& [k, v] : run.env) f.fields[k] = nlohmann::json(v).dump();  // fields hold JSON
  return f;
}

Law golden_law(const RecordedTrace& run, const DeviceGolden& golden, const CheckOptions& o,
               std::vector<ReportEntry>& series) {
  const std::string name =
      law_heading(law::kGoldenCurve, fmt::format("within the tolerances of {}", o.golden.string()));
  const Trace observed = to_trace(run);
  const auto diffs = fingerprint_diff(Fingerprint::parse(golden.fingerprint), trained_fingerprint(run));
  const bool cross = is_cross_environment(diffs);
  GoldenHold held = hold_to_golden("check", "golden", golden.trace, observed, cross);
  for (auto& row : held.rows) series.push_back(std::move(row));
  const std::string verdict = environment_verdict(diffs, held.beyond_exact, held.beyond_envelope);
  const std::string why = verdict.empty() ? "" : ". Verdict: " + verdict;
  // What moved, named: "torch 2.13.0 -> 2.14.1" (a venv's torch upgraded is the environment moving).
  const auto text = [](const std::string& json) {
    if (json.empty()) return std::string("(none)");
    const auto j = nlohmann::json::parse(json, nullptr, false);
    return j.is_string() ? j.get<std::string>() : json;
  };
  std::vector<std::string> moved;
  for (const auto& d : diffs) moved.push_back(fmt::format("{} {} -> {}", d.field, text(d.golden), text(d.current)));
  const std::string where =
      cross ? fmt::format("made in another environment ({}): cross-machine tolerances", fmt::join(moved, ", "))
            : "made in this environment";
  if (held.failed)
    return {name, false,
            fmt::format("{} series outside their tolerances ({}), first {}{}", held.failed, where, held.first_failure,
                        why)};
  return {name, true, fmt::format("{} series within their tolerances ({}){}", golden.trace.series.size(), where, why)};
}

namespace {

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

// One start of the command under an execution path: its trace, or why it has none.
struct CommandRun {
  ExecPath path;
  Trace trace;
  std::string error;  // the start failed
};

// The command as a source of traces: one start per execution path, in the path's environment
// (a PathTrace each, verdict/golden_draft.h); a start that fails is that path's error.
std::vector<CommandRun> command_runs(const Launcher& launch, const std::vector<ExecPath>& paths, Progress& progress) {
  std::vector<CommandRun> runs;
  for (const auto& path : paths) {
    progress.run(fmt::format("execution path {} ({})", path.name, path.env_text()));
    const Run r = launch.make("path-" + path.name);
    CommandRun& out = runs.emplace_back(CommandRun{path, {}, ""});
    if (const int code = launch.finish(launch.start(r, "start 1", path.child_env()), r); code != 0)
      out.error = fmt::format("the command failed (exit {}); its output ends:\n{}", code, tail_of(r.log));
    else
      out.trace = to_trace(read_recorded_trace(r.trace));
  }
  return runs;
}

}  // namespace

// --regen: the command once more under each other execution path (the uninterrupted run is the
// first path's), the spread of every series across them, and the golden written atomically with
// what changed. Refused (nothing written) while a law is broken or a series moves beyond its
// ceiling, unless --force.
std::vector<ExecPath> regen_paths(const CheckOptions& o) {
  return select_paths(cpu_paths(cpu_flags()), o.path_set);
}

CheckGoldenWrite regen_golden(const Launcher& launch, const RecordedTrace& straight, const std::vector<Law>& laws,
                              const CheckOptions& o, Progress& progress) {
  const std::vector<ExecPath> paths = regen_paths(o);
  std::vector<std::string> problems = broken_laws(laws);
  // A broken law refuses the golden whatever the paths measure: they are not run (but with --force).
  const bool run_paths = problems.empty() || o.force;
  if (!run_paths && paths.size() > 1)
    progress.note(
        fmt::format("the {} other execution path(s) not run: a broken law refuses the golden", paths.size() - 1));
  const Fingerprint here = trained_fingerprint(straight);
  std::vector<CommandRun> runs{{paths[0], to_trace(straight), ""}};
  if (o.ceiling)
    for (auto& s : runs[0].trace.series) s.ceiling = *o.ceiling;
  if (run_paths)
    for (auto& r : command_runs(launch, {paths.begin() + 1, paths.end()}, progress)) runs.push_back(std::move(r));
  std::vector<ExecPath> measured;
  std::vector<PathTrace> traces;
  for (const auto& r : runs) {
    if (r.error.empty()) measured.push_back(r.path);
    traces.push_back({r.path.name, r.error, RunStatus::kOk, "", r.error.empty() ? &r.trace : nullptr});
  }
  const double factor = o.safety_factor > 0 ? o.safety_factor : kDefaultSafetyFactor;
  const GoldenRead old = read_old_golden(o.golden);
  GoldenDraft draft = draft_across_paths(traces, here, old.group(kCheckGroup),
                                         {.scenario = "check",
                                          .device = kCheckGroup,
                                          .safety_factor = factor,
                                          .old = nullptr,
                                          .previous = nullptr,
                                          .problems = std::move(problems),
                                          .ceiling_hint = " (--ceiling)",
                                          .force = o.force});
  CheckGoldenWrite out;
  out.path = o.golden.string();
  out.made_of = fmt::format("{} execution paths, safety factor {}", measured.size(), factor);
  out.changes = draft.changes;
  out.tolerances = draft.tolerances;
  out.replaced = old.error;
  write_check_golden(o, std::move(draft.problems), kGoldenSchemaVersion,
                     {here.json(), std::move(draft.trace), paths_json(measured), "", std::nullopt}, out);
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
  const std::string name = fmt::format("{} (advice in the band lane: runs may differ)", law::kDeterminism);
  for (size_t r = 1; r < runs.size(); ++r)
    if (const std::string diff = first_difference(runs[0], runs[r]); !diff.empty())
      return {name, true, fmt::format("runs 1 and {} differ, {}: expected in this lane", r + 1, diff), true};
  return {name, true,
          fmt::format("the {} runs are bitwise equal: an exact golden (--regen without --band) holds this loop tighter",
                      runs.size()),
          true};
}

namespace {

std::vector<Trace> traces_of(const std::vector<RecordedTrace>& runs) {
  std::vector<Trace> t;
  for (const auto& r : runs) t.push_back(to_trace(r));
  return t;
}

}  // namespace

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
                     {trained_fingerprint(runs[0]).json(), std::move(b.mean), "[]", "", std::move(b.band)}, out);
  return out;
}

// A band golden held: every run within k spreads at every step, and with two runs or more
// their final loss (each series named like "loss") not higher than the golden's (one-sided
// Welch t-test, MLPerf's check of a convergence point; one test per loss series).
std::vector<Law> band_laws(const DeviceGolden& golden, const std::vector<RecordedTrace>& runs, const CheckOptions& o) {
  const Band& band = *golden.band;
  const double k = o.band_k > 0 ? o.band_k : default_band_k(band.runs, band_points(band));
  const auto diffs = fingerprint_diff(Fingerprint::parse(golden.fingerprint), trained_fingerprint(runs[0]));
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
  const std::string name = law_heading(
      law::kBand, fmt::format("every run within {:.3g} spreads of {}'s mean ({} runs; {})", k, o.golden.string(),
                              band.runs, o.band_k > 0 ? "--band-k" : "the default for that many"));
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
      {law_heading(law::kFinalLoss,
                   fmt::format("not higher than the golden's (one-sided Welch t-test, alpha {})", kBandFinalAlpha)),
       rose.empty(), fmt::format("{}", fmt::join(rose.empty() ? each : rose, "; "))});
  return laws;
}

}  // namespace trainproof
