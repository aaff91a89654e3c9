// `trainproof check` (check.h): runs a user's training command as production does and holds
// its recorded trace to the laws; the runs themselves (starting, counting, watching) are
// check_runs.h's, the preempted run's law check_resume.cpp's. Progress goes to the caller's
// sink (CheckOptions::progress); the verdicts are returned as a report.
#include "trainproof/check/check.h"
#include "trainproof/check/findings.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/check_golden.h"
#include "src/check/check_laws.h"
#include "src/check/check_runs.h"
#include "src/check/checking.h"
#include "src/check/op_reruns.h"
#include "src/check/probe_findings.h"
#include "src/check/processes.h"
#include "src/check/reshard.h"
#include "trainproof/core/data_dirs.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

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

// The exact lane: the uninterrupted run, then each law in turn; --regen makes a golden of it.
CheckReport exact_check(Checking c) {
  c.first = uninterrupted(c);
  c.launch.follow(c.first.primary);
  c.progress.note(recorded_summary(c.first));
  c.report.findings = script_findings(c.straight());
  c.reruns = launched_op_reruns(c.launch, c.progress);
  for (const CheckLaw* law : exact_laws()) law->judge(c);
  c.report.run_plots =
      run_plots(c.straight(), c.again ? &*c.again : nullptr, c.preempted ? &*c.preempted : nullptr, c.report.findings);
  if (c.o.regen) c.report.golden = regen_golden(c.launch, c.straight(), c.laws, c.o, c.progress);
  c.report.laws.assign(c.laws.begin(), c.laws.end());
  return std::move(c.report);
}

}  // namespace

// Each file of src/check/laws/ defines its law as check_law_<its name>; the build lists them.
#define TRAINPROOF_CHECK_LAW(NAME) extern const CheckLaw check_law_##NAME;
#include "check_laws.inc"
#undef TRAINPROOF_CHECK_LAW

const std::vector<const CheckLaw*>& exact_laws() {
  static const std::vector<const CheckLaw*> laws = [] {
#define TRAINPROOF_CHECK_LAW(NAME) &check_law_##NAME,
    std::vector<const CheckLaw*> all = {
#include "check_laws.inc"
    };
#undef TRAINPROOF_CHECK_LAW
    std::stable_sort(all.begin(), all.end(),
                     [](const CheckLaw* a, const CheckLaw* b) { return law_place(a->law) < law_place(b->law); });
    return all;
  }();
  return laws;
}

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
