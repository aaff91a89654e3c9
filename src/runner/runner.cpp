// verify, regen, compare, record, tolerances and run (runner.h). Progress goes to the caller's
// sink; the reports go back to the caller.
#include "trainproof/runner/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <optional>
#include <sstream>

#include <ATen/Parallel.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/cuda.h>

#include "src/core/envelope.h"
#include "src/core/trace_json.h"
#include "src/process/exec_paths.h"
#include "src/process/path_matrix.h"
#include "src/runner/trace_source.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/hash.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/runner/fingerprint.h"
#include "trainproof/verdict/golden_draft.h"
#include "trainproof/verdict/golden_hold.h"

namespace trainproof {

namespace fs = std::filesystem;

std::vector<std::string> available_devices() {
  std::vector<std::string> d{"cpu"};
  if (torch::cuda::is_available()) d.push_back("cuda");
  return d;
}

std::vector<std::string> resolve_devices(const std::string& flag) {
  if (flag == "all") return available_devices();
  if (flag == "cpu") return {flag};
  if (flag == "cuda") {
    if (!torch::cuda::is_available())
      throw BadInput("--device cuda: CUDA is not available on this machine (use --device all to run what is present)");
    return {flag};
  }
  throw BadInput(fmt::format("--device: unknown device '{}' (expected cpu, cuda or all)", flag));
}

std::vector<ScenarioDef> resolve_scenarios(const std::vector<std::string>& names) {
  const auto& reg = Registry::instance();
  if (names.empty()) return reg.all();
  std::vector<ScenarioDef> out;
  for (const auto& n : names) {
    const ScenarioDef* d = reg.find(n);
    if (!d) {
      std::vector<std::string> known;
      for (const auto& k : reg.all()) known.push_back(k.name);
      throw BadInput(fmt::format("unknown scenario '{}' (known: {})", n, fmt::join(known, ", ")));
    }
    out.push_back(*d);
  }
  return out;
}

fs::path golden_path(const fs::path& dir, const std::string& scenario) {
  return dir / (scenario + ".h5");
}

MissingGroup missing_group_policy(const std::string& dev, const std::string& device_flag, bool require_all_devices) {
  // The CPU is always verified, and a device asked for by name must be; an accelerator that
  // `all` found here may not have goldens yet (they are made on such a machine).
  if (dev == "cpu" || device_flag != "all" || require_all_devices) return MissingGroup::kBadInput;
  return MissingGroup::kNotVerified;
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Each scenario's golden, or why it cannot be read.
std::map<std::string, GoldenRead> load_goldens(const std::vector<ScenarioDef>& defs, const fs::path& dir) {
  std::map<std::string, GoldenRead> out;
  for (const auto& def : defs) out[def.name] = try_read_golden(golden_path(dir, def.name));
  return out;
}

// The golden's group for `dev`, or a row saying why there is none: BAD INPUT, or NOT
// VERIFIED where the policy allows a device without goldens yet.
const DeviceGolden* golden_group(const GoldenRead& golden, const std::string& scenario, const std::string& dev,
                                 const std::string& label, const fs::path& dir, MissingGroup missing,
                                 VerifyReport& report) {
  if (!golden.file) {
    report.entries.emplace_back(scenario, label, EntryKind::kRun, "(golden)", Status::kBadInput, "", golden.error);
    return nullptr;
  }
  const DeviceGolden* g = golden.group(dev);
  if (!g) {
    const bool tolerated = missing == MissingGroup::kNotVerified;
    report.entries.emplace_back(
        scenario, label, EntryKind::kRun, "(golden)", tolerated ? Status::kNotVerified : Status::kBadInput, "",
        fmt::format("{}: no /{} group (run `trainproof regen {} --device {}` on such a machine)",
                    golden_path(dir, scenario).string(), dev, scenario, dev));
    return nullptr;
  }
  return g;
}

// Holds one observed run to its golden group (hold_to_golden) and its invariants: appends a row
// per series and invariant; returns the hold, whose `failed` counts broken invariants too.
GoldenHold check_run(const std::string& scenario, const std::string& label, const DeviceGolden& g,
                     const Trace& observed, bool cross, VerifyReport& report) {
  GoldenHold held = hold_to_golden(scenario, label, g.trace, observed, cross);
  for (auto& row : held.rows) report.entries.push_back(std::move(row));
  held.rows.clear();
  for (const auto& inv : observed.invariants) {
    held.failed += inv.held ? 0 : 1;
    report.entries.push_back(law_entry(scenario, label, inv.name, law_held(inv.held), inv.detail));
  }
  return held;
}

// The document's printed lines, exactly, then the lines the scenario declares beyond them
// (ScenarioInfo::prints, also_prints): one entry, which names the first line that differs.
// Where the golden was made on another machine (`cross`), a number may differ by one unit
// in its last printed digit; such lines are counted apart.
void check_printed_lines(const ScenarioDef& def, const std::string& label, const std::string& output, bool cross,
                         VerifyReport& report) {
  const auto& doc = def.info.prints;
  if (doc.empty()) return;
  const std::vector<std::string> want = def.info.printed_lines();
  std::vector<std::string> got;
  std::istringstream in(output);
  for (std::string l; std::getline(in, l);) got.push_back(l);
  size_t equal = 0, last_digit = 0;
  std::string first;
  for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    const bool both = i < want.size() && i < got.size();
    const bool same = both && want[i] == got[i];
    const bool near = both && !same && cross && within_last_digit(got[i], want[i]);
    if (i < doc.size()) equal += same, last_digit += near;
    if (same || near || !first.empty()) continue;
    const std::string whose = i < doc.size() ? "the document prints" : "the scenario declares (also_prints)";
    if (i >= got.size())
      first = fmt::format("line {}: not printed; {} \"{}\"", i + 1, whose, want[i]);
    else if (i >= want.size())
      first = fmt::format("line {}: printed \"{}\", which neither the document nor the scenario has", i + 1, got[i]);
    else
      first = fmt::format("line {}: printed \"{}\" where {} \"{}\"", i + 1, got[i], whose, want[i]);
  }
  report.document_lines += doc.size();
  report.document_lines_equal += equal;
  report.document_lines_last_digit += last_digit;
  std::string detail = first;
  if (first.empty()) {
    detail = fmt::format("{}/{} document lines exactly", equal, doc.size());
    if (last_digit) detail += fmt::format(", {} within one unit of a number's last digit (cross-machine)", last_digit);
  }
  report.entries.emplace_back(def.name, label, EntryKind::kDocument, "printed lines",
                              first.empty() ? Status::kPass : Status::kFail,
                              cross ? "exact, or the last digit +-1 [cross]" : "exact", detail);
}

// A key that is equal for two traces exactly when every series that is not informational
// (timings) is bitwise equal.
uint64_t trace_key(const Trace& t) {
  uint64_t h = kFnv1a64Offset;
  for (const auto& s : t.series) {
    if (s.cross.is_any() && !is_integer(s.produced)) continue;
    h = fnv1a64(s.name, h);
    h = is_integer(s.produced)
            ? fnv1a64({reinterpret_cast<const char*>(s.ints.data()), s.ints.size() * sizeof(int64_t)}, h)
            : fnv1a64({reinterpret_cast<const char*>(s.values.data()), s.values.size() * sizeof(double)}, h);
  }
  return h;
}

VerifyReport verify_paths(const VerifyOptions& o, const std::vector<ScenarioDef>& defs) {
  if (o.device == "cuda") throw BadInput("--paths simulates the CPU's execution paths: use it with --device cpu");
  const auto paths = select_paths(cpu_paths(cpu_flags()), o.path_set);
  const auto goldens = load_goldens(defs, o.golden_dir);
  VerifyReport report;
  report.force_cross = o.force_cross;
  const auto t0 = Clock::now();
  std::vector<std::string> names;
  for (const auto& def : defs)
    if (golden_group(goldens.at(def.name), def.name, "cpu", "cpu", o.golden_dir, MissingGroup::kBadInput, report))
      names.push_back(def.name);
  report_progress(o.progress, fmt::format("verify --paths: {} scenarios under {} execution paths, each in its own "
                                          "process\n",
                                          names.size(), paths.size()));
  TempDir work("paths");
  const auto runs =
      names.empty() ? std::vector<PathRun>{} : run_paths(paths, names, "cpu", work.path(), o.jobs, o.progress);

  // scenario -> groups of paths with bitwise identical results, in path order
  std::map<std::string, std::vector<std::pair<uint64_t, std::vector<std::string>>>> classes;
  for (const PathRun& run : runs) {
    PathSummary summary{run.path.name, run.path.env_text(), 0, 0, run.seconds, {}};
    const std::string label = "cpu@" + run.path.name;
    const size_t first = report.entries.size();
    if (!run.recording) {
      report.entries.emplace_back("(all)", label, EntryKind::kRun, "(path)", Status::kError, "", run.error);
    } else {
      bool noted = false;
      for (const auto& name : names) {
        const DeviceGolden& g = goldens.at(name).file->devices.at("cpu");
        const Trace* trace = recorded_trace(name, label, *run.recording, report);
        if (trace) {
          const auto diffs =
              fingerprint_diff(Fingerprint::parse(g.fingerprint), Fingerprint::parse(run.recording->fingerprint));
          if (!noted)
            for (const auto& d : diffs)
              summary.fingerprint.push_back(fmt::format("{}: {} -> {}", d.field, d.golden, d.current));
          noted = true;
          check_run(name, label, g, *trace, o.force_cross || is_cross_environment(diffs), report);
          auto& groups = classes[name];
          const uint64_t key = trace_key(*trace);
          auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == key; });
          if (it == groups.end()) it = groups.insert(groups.end(), {key, {}});
          it->second.push_back(run.path.name);
        }
      }
    }
    summary.checks = report.entries.size() - first;
    summary.failing = tally({report.entries.begin() + static_cast<long>(first), report.entries.end()}).failed;
    report.paths.push_back(std::move(summary));
  }
  for (auto& [name, groups] : classes) {
    PathAgreement a{name, {}};
    for (auto& [key, members] : groups) a.groups.push_back(std::move(members));
    report.agreement.push_back(std::move(a));
  }
  report.seconds = since(t0);
  return report;
}

}  // namespace

// ---- verify -----------------------------------------------------------------------------

VerifyReport verify(const VerifyOptions& o) {
  const auto defs = resolve_scenarios(o.scenarios);
  if (o.paths) return verify_paths(o, defs);
  const auto devices = resolve_devices(o.device);
  const auto goldens = load_goldens(defs, o.golden_dir);
  VerifyReport report;
  report.force_cross = o.force_cross;
  std::map<std::string, std::vector<std::string>> unverified;  // device -> scenarios without its golden
  const size_t total = defs.size() * devices.size();
  size_t k = 0;
  const auto t_all = Clock::now();
  for (const auto& def : defs) {
    for (const auto& dev : devices) {
      report_progress(o.progress, fmt::format("[{}/{}] {} on {} ... ", ++k, total, def.name, dev));
      const auto t0 = Clock::now();
      const DeviceGolden* g = golden_group(goldens.at(def.name), def.name, dev, dev, o.golden_dir,
                                           missing_group_policy(dev, o.device, o.require_all_devices), report);
      if (!g) {
        report_progress(o.progress, fmt::format("{}\n", status_text(report.entries.back().status)));
        if (report.entries.back().status == Status::kNotVerified) unverified[dev].push_back(def.name);
        continue;
      }
      const Recording here = record_here({def}, c10::Device(dev), {});
      const Trace* trace = recorded_trace(def.name, dev, here, report);
      if (!trace) {
        const ReportEntry& why = report.entries.back();
        report_progress(o.progress, why.status == Status::kSkipped ? fmt::format("skipped ({})\n", why.detail)
                                                                   : std::string("ERROR\n"));
        continue;
      }
      const Trace& observed = *trace;
      if (!g->forced.empty())
        report.fingerprint_notes.push_back(
            fmt::format("  {}/{}: the golden was written with regen --force over: {}", def.name, dev, g->forced));
      const auto diffs = fingerprint_diff(Fingerprint::parse(g->fingerprint), Fingerprint::parse(here.fingerprint));
      for (const auto& d : diffs)
        report.fingerprint_notes.push_back(
            fmt::format("  {}/{}: {}: golden {} | here {}", def.name, dev, d.field, d.golden, d.current));
      const bool cross = o.force_cross || is_cross_environment(diffs);
      const GoldenHold held = check_run(def.name, dev, *g, observed, cross, report);
      bool ok = held.failed == 0;
      if (const std::string v = environment_verdict(diffs, held.beyond_exact, held.beyond_envelope); !v.empty())
        report.verdicts.push_back(fmt::format("{}/{}: {}", def.name, dev, v));
      if (dev == "cpu") {  // the documents printed their lines on a CPU
        check_printed_lines(def, dev, observed.output, cross, report);
        ok = ok && report.entries.back().passed();
      }
      report_progress(o.progress, fmt::format("{} ({:.2f} s)\n", ok ? "ok" : "MISMATCH", since(t0)));
    }
  }
  for (const auto& [dev, scenarios] : unverified)
    report.unverified_devices.push_back(fmt::format(
        "{}: NOT VERIFIED for {} of {} scenarios ({}): their goldens have no /{} group yet. Create them on this "
        "machine with `trainproof regen --device {}`; `verify --require-all-devices` makes this an error.",
        dev, scenarios.size(), defs.size(), fmt::join(scenarios, ", "), dev, dev));
  report.seconds = since(t_all);
  return report;
}

// ---- regen ------------------------------------------------------------------------------

RegenReport regen(const RegenOptions& o) {
  const auto defs = resolve_scenarios(o.scenarios);
  const auto devices = resolve_devices(o.device);
  const double factor = o.safety_factor > 0 ? o.safety_factor : kDefaultSafetyFactor;
  std::vector<std::string> names;
  for (const auto& d : defs) names.push_back(d.name);

  // The old goldens: kept groups of devices not run, and the baseline for "what changed".
  RegenReport report;
  report.dry_run = o.dry_run;
  std::map<std::string, GoldenRead> old;
  std::map<std::string, GoldenFile> fresh;
  for (const auto& def : defs) {
    const GoldenRead& g = old[def.name] = read_old_golden(golden_path(o.golden_dir, def.name));
    if (!g.error.empty()) report.replaced.push_back(g.error);
  }
  for (const auto& dev : devices) {
    // CUDA: one path (this GPU); its cross tolerances are the dtype floors until GPUs are compared.
    const auto paths = dev == "cpu" ? select_paths(cpu_paths(cpu_flags()), o.path_set)
                                    : std::vector<ExecPath>{{"native", "this GPU", {}}};
    RegenDevice& rd = report.devices.emplace_back();
    rd.device = dev;
    rd.safety_factor = factor;
    for (const auto& p : paths) rd.paths.push_back(p.name);
    report_progress(o.progress, fmt::format("regen on {}: {} scenarios under {} execution paths\n", dev, names.size(),
                                            paths.size()));
    TempDir work("regen");
    const auto runs = run_paths(paths, names, dev, work.path(), o.jobs, o.progress);
    for (const auto& run : runs)
      if (!run.recording)
        throw std::runtime_error(fmt::format("execution path {} could not record, so no spread can be measured: {}",
                                             run.path.name, run.error));
    for (const auto& def : defs) {
      RegenScenario& rs = rd.scenarios.emplace_back();
      rs.scenario = def.name;
      rs.device = dev;
      if (const ScenarioRecord& ref = runs[0].recording->scenarios.at(def.name); ref.status == RunStatus::kSkipped) {
        rs.skipped = ref.reason;
        continue;
      }
      const GoldenRead& old_file = old.at(def.name);
      GoldenDraft draft = draft_across_paths(path_traces(def.name, runs),
                                             Fingerprint::parse(runs[0].recording->fingerprint), old_file.group(dev),
                                             {.scenario = def.name,
                                              .device = dev,
                                              .safety_factor = factor,
                                              .old = nullptr,
                                              .previous = nullptr,
                                              .problems = {},
                                              .ceiling_hint = "",
                                              .force = o.force});
      rs.problems = draft.problems;
      rs.changes = std::move(draft.changes);
      for (auto& row : draft.tolerances) report.tolerances.push_back(std::move(row));
      if (draft.refused) {
        rs.refused = true;
        report.refused.push_back(def.name);
        continue;
      }
      GoldenFile& g = fresh.try_emplace(def.name, old_file.file.value_or(GoldenFile{})).first->second;
      g.devices[dev] = DeviceGolden{runs[0].recording->fingerprint, std::move(draft.trace), paths_json(paths),
                                    forced_problems(draft.problems), std::nullopt};
    }
  }
  for (auto& [name, g] : fresh) {
    if (std::find(report.refused.begin(), report.refused.end(), name) != report.refused.end()) continue;
    g.scenario = name;
    g.trainproof_version = kTrainproofVersion;
    g.created_utc = utc_now();
    g.schema_version = kGoldenSchemaVersion;
    const fs::path path = golden_path(o.golden_dir, name);
    if (!o.dry_run) {
      fs::create_directories(o.golden_dir);
      write_golden(path, g);
    }
    report.written.push_back(path.string());
  }
  return report;
}

}  // namespace trainproof
