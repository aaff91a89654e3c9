// The trainproof CLI. Progress goes to stderr, results to stdout.
#include "harness/cli.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/cuda.h>

#include "harness/bench.h"
#include "harness/compare.h"
#include "harness/distributed.h"
#include "harness/process.h"
#include "harness/errors.h"
#include "harness/fingerprint.h"
#include "harness/golden_store.h"
#include "harness/lr_curve.h"
#include "harness/preempt.h"
#include "harness/report.h"
#include "harness/textclf.h"
#include "harness/scenario.h"

#ifndef TRAINPROOF_DEFAULT_GOLDEN_DIR
#define TRAINPROOF_DEFAULT_GOLDEN_DIR "golden"
#endif

namespace trainproof {
namespace {

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

fs::path golden_path(const fs::path& dir, const std::string& scenario) { return dir / (scenario + ".h5"); }

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string fmt_err(double v) {
  if (v == 0) return "0";
  return fmt::format("{:.3g}", v);
}

// ---- list -------------------------------------------------------------------------------

int cmd_list(const fs::path& golden_dir) {
  fmt::print("devices available: {}\n", fmt::join(available_devices(), ", "));
  fmt::print("golden folder: {}\n\n", golden_dir.string());
  fmt::print("{:<22} {:<28} {}\n", "scenario", "golden", "document section");
  for (const auto& d : Registry::instance().all()) {
    std::string status;
    const fs::path p = golden_path(golden_dir, d.name);
    if (!fs::exists(p)) {
      status = "missing";
    } else {
      try {
        const GoldenFile g = read_golden(p);
        std::vector<std::string> devs;
        for (const auto& [dev, dg] : g.devices) devs.push_back(dev);
        status = fmt::format("{}", fmt::join(devs, "+"));
      } catch (const BadInput&) {
        status = "CORRUPT (verify says why)";
      }
    }
    fmt::print("{:<22} {:<28} {}\n", d.name, status, d.section);
  }
  return kExitOk;
}

// ---- run --------------------------------------------------------------------------------

int cmd_run(const std::string& scenario, const std::string& device) {
  const auto defs = resolve_scenarios({scenario});
  int rc = kExitOk;
  for (const auto& dev : resolve_devices(device)) {
    try {
      const Trace t = run_scenario(defs[0], c10::Device(dev), /*echo=*/true);
      for (const auto& inv : t.invariants)
        if (!inv.held) {
          fmt::print(stderr, "invariant broken: {}: {}\n", inv.name, inv.detail);
          rc = kExitMismatch;
        }
    } catch (const Skipped& s) {
      fmt::print(stderr, "{} on {}: skipped: {}\n", scenario, dev, s.what());
    }
  }
  return rc;
}

// ---- verify -----------------------------------------------------------------------------

// The result tables of verify and compare: series (and run problems), then invariants.
void print_results(const std::vector<ReportEntry>& entries) {
  size_t wide = 6;  // the series column fits its longest name
  for (const auto& e : entries)
    if (e.kind != "invariant") wide = std::max(wide, e.name.size());
  fmt::print("\n{:<20} {:<5} {:<{}} {:<9} {:>9} {:>9} {:>6} {:>6}  {}\n", "scenario", "dev", "series", wide, "status",
             "max abs", "max rel", "ulp", "first", "tolerance");
  for (const auto& e : entries) {
    if (e.kind == "invariant") continue;
    const bool series = e.kind == "series";
    fmt::print("{:<20} {:<5} {:<{}} {:<9} {:>9} {:>9} {:>6} {:>6}  {}\n", e.scenario, e.device, e.name, wide, e.status,
               series ? fmt_err(e.max_abs) : "", series ? fmt_err(e.max_rel) : "", series ? std::to_string(e.max_ulp) : "",
               e.first_divergence >= 0 ? std::to_string(e.first_divergence) : (series ? "-" : ""),
               series ? e.tolerance + (e.cross_environment ? " [cross]" : "") : "");
    if (e.status != "pass" && !e.detail.empty()) fmt::print("    -> {}\n", e.detail);
  }
  bool header = false;
  for (const auto& e : entries) {
    if (e.kind != "invariant") continue;
    if (!header) fmt::print("\n{:<20} {:<5} {:<9} {}\n", "scenario", "dev", "status", "invariant");
    header = true;
    fmt::print("{:<20} {:<5} {:<9} {}\n", e.scenario, e.device, e.status, e.name);
    if (e.status != "pass" && !e.detail.empty()) fmt::print("    -> {}\n", e.detail);
  }
}

ReportEntry series_entry(const std::string& scenario, const std::string& dev, const SeriesComparison& c, bool cross) {
  ReportEntry e(scenario, dev, "series", c.series, std::string(verdict_name(c.verdict)), c.tolerance, c.detail);
  e.max_abs = c.max_abs;
  e.max_rel = c.max_rel;
  e.max_ulp = c.max_ulp;
  e.first_divergence = c.first_divergence;
  e.cross_environment = cross;
  return e;
}

struct VerifyOptions {
  std::vector<std::string> scenarios;
  std::string device = "all";
  fs::path golden_dir;
  std::string json, junit, html;
};

std::vector<double> values_of(const Trace& t, const std::string& name) {
  const Series* s = t.find(name);
  if (!s) return {};
  std::vector<double> v(s->size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = s->at(i);
  return v;
}

int cmd_verify(const VerifyOptions& o) {
  const auto defs = resolve_scenarios(o.scenarios);
  const auto devices = resolve_devices(o.device);
  std::vector<std::string> fingerprint_notes;
  VerifyReport report;
  bool bad_input = false, mismatch = false;
  const size_t total = defs.size() * devices.size();
  size_t k = 0;
  const auto t_all = std::chrono::steady_clock::now();

  for (const auto& def : defs) {
    std::optional<GoldenFile> golden;
    std::string golden_error;
    try {
      golden = read_golden(golden_path(o.golden_dir, def.name));
    } catch (const BadInput& e) {
      golden_error = e.what();
    }
    for (const auto& dev : devices) {
      ++k;
      fmt::print(stderr, "[{}/{}] {} on {} ... ", k, total, def.name, dev);
      const auto t0 = std::chrono::steady_clock::now();
      auto add_row = [&](std::string what, std::string status, std::string detail) {
        report.entries.emplace_back(def.name, dev, "run", std::move(what), std::move(status), "", std::move(detail));
      };
      if (!golden) {
        fmt::print(stderr, "BAD INPUT\n");
        add_row("(golden)", "BAD INPUT", golden_error);
        bad_input = true;
        continue;
      }
      auto g = golden->devices.find(dev);
      if (g == golden->devices.end()) {
        fmt::print(stderr, "BAD INPUT\n");
        add_row("(golden)", "BAD INPUT",
                fmt::format("{}: no /{} group (run `trainproof regen {} --device {}` on such a machine)",
                            golden_path(o.golden_dir, def.name).string(), dev, def.name, dev));
        bad_input = true;
        continue;
      }
      Trace observed;
      try {
        observed = run_scenario(def, c10::Device(dev), /*echo=*/false);
      } catch (const Skipped& s) {
        fmt::print(stderr, "skipped ({})\n", s.what());
        add_row("(all)", "skipped", s.what());
        continue;
      } catch (const std::exception& e) {
        fmt::print(stderr, "ERROR\n");
        add_row("(run)", "ERROR", e.what());
        mismatch = true;
        continue;
      }
      const auto diffs = fingerprint_diff(g->second.fingerprint, current_fingerprint(c10::Device(dev)));
      const bool cross = is_cross_environment(diffs);
      for (const auto& d : diffs)
        fingerprint_notes.push_back(fmt::format("  {}/{}: {}: golden {} | here {}", def.name, dev, d.field, d.golden, d.current));
      report.fingerprint_notes.insert(report.fingerprint_notes.end(), fingerprint_notes.end() - static_cast<long>(diffs.size()),
                                      fingerprint_notes.end());
      bool ok = true;
      for (const auto& c : compare_traces(g->second.trace, observed, cross)) {
        ok = ok && c.passed();
        ReportEntry e = series_entry(def.name, dev, c, cross);
        e.golden = values_of(g->second.trace, c.series);
        e.observed = values_of(observed, c.series);
        report.entries.push_back(std::move(e));
      }
      for (const auto& inv : observed.invariants) {
        ok = ok && inv.held;
        report.entries.emplace_back(def.name, dev, "invariant", inv.name, inv.held ? "pass" : "BROKEN", "", inv.detail);
      }
      mismatch = mismatch || !ok;
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      fmt::print(stderr, "{} ({:.2f} s)\n", ok ? "ok" : "MISMATCH", secs);
    }
  }

  print_results(report.entries);
  if (!fingerprint_notes.empty()) {
    fmt::print("\nfingerprint fields that differ from the golden's (cross-environment tolerances apply):\n");
    for (const auto& n : fingerprint_notes) fmt::print("{}\n", n);
  }
  size_t failed = 0;
  for (const auto& e : report.entries) failed += !e.passed();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_all).count();
  fmt::print("\nverify: {} checks, {} not passing, {:.1f} s\n", report.entries.size(), failed, secs);
  report.seconds = secs;
  if (!o.json.empty()) write_json_report(o.json, report);
  if (!o.junit.empty()) write_junit_report(o.junit, report);
  if (!o.html.empty()) write_html_report(o.html, report);
  if (bad_input) return kExitBadInput;
  return mismatch ? kExitMismatch : kExitOk;
}

// ---- regen ------------------------------------------------------------------------------

struct RegenOptions {
  std::vector<std::string> scenarios;
  std::string device = "all";
  fs::path golden_dir;
  bool dry_run = false;
  std::string markdown;
};

void describe_changes(const Trace* old_trace, const Trace& fresh, const std::string& scenario, const std::string& dev,
                      std::vector<RegenChange>& changes) {
  for (const auto& s : fresh.series) {
    const Series* old = old_trace ? old_trace->find(s.name) : nullptr;
    if (!old) {
      fmt::print("    {:<28} new ({} values, {})\n", s.name, s.size(), dtype_name(s.produced));
      changes.push_back({scenario, dev, s.name, "new", s.size(), 0, 0, ""});
      continue;
    }
    const auto c = compare_series_with(*old, s, Tolerance::exact());
    changes.push_back({scenario, dev, s.name, c.passed() ? "unchanged" : "changed", s.size(), c.divergent, c.max_rel, c.detail});
    if (c.passed()) {
      fmt::print("    {:<28} unchanged\n", s.name);
    } else if (c.verdict == Verdict::kFail) {
      fmt::print("    {:<28} changed: {} of {} values, max abs {}, max rel {}, max ulp {}, first at [{}]: {:.9g} -> {:.9g}\n",
                 s.name, c.divergent, c.golden_size, fmt_err(c.max_abs), fmt_err(c.max_rel), c.max_ulp,
                 c.first_divergence, c.golden_value, c.observed_value);
    } else {
      fmt::print("    {:<28} changed: {}\n", s.name, c.detail);
    }
  }
  if (old_trace)
    for (const auto& s : old_trace->series)
      if (!fresh.find(s.name)) {
        fmt::print("    {:<28} removed\n", s.name);
        changes.push_back({scenario, dev, s.name, "removed", s.size(), 0, 0, ""});
      }
}

int cmd_regen(const RegenOptions& o) {
  const auto defs = resolve_scenarios(o.scenarios);
  const auto devices = resolve_devices(o.device);
  std::error_code ec;
  std::vector<RegenChange> changes;
  if (!o.dry_run) fs::create_directories(o.golden_dir, ec);
  for (const auto& def : defs) {
    const fs::path path = golden_path(o.golden_dir, def.name);
    GoldenFile g;
    bool had_old = false;
    if (fs::exists(path)) {
      try {
        g = read_golden(path);
        had_old = true;
      } catch (const BadInput& e) {
        fmt::print(stderr, "note: the old golden is unreadable and will be replaced: {}\n", e.what());
      }
    }
    GoldenFile fresh = had_old ? g : GoldenFile{};
    fresh.scenario = def.name;
    fresh.trainproof_version = kTrainproofVersion;
    fresh.created_utc = utc_now();
    fresh.schema_version = kGoldenSchemaVersion;
    bool changed_any = false;
    for (const auto& dev : devices) {
      fmt::print("{} on {}:\n", def.name, dev);
      Trace t;
      try {
        t = run_scenario(def, c10::Device(dev), /*echo=*/false);
      } catch (const Skipped& s) {
        fmt::print("    skipped ({}); the golden's /{} group is left as it was\n", s.what(), dev);
        continue;
      }
      for (const auto& inv : t.invariants)
        if (!inv.held) fmt::print(stderr, "warning: {} on {}: invariant broken: {}: {}\n", def.name, dev, inv.name, inv.detail);
      auto old = had_old ? g.devices.find(dev) : g.devices.end();
      describe_changes(old != g.devices.end() ? &old->second.trace : nullptr, t, def.name, dev, changes);
      t.invariants.clear();
      fresh.devices[dev] = DeviceGolden{current_fingerprint(c10::Device(dev)), std::move(t)};
      changed_any = true;
    }
    if (!changed_any) continue;
    if (o.dry_run) {
      fmt::print("    (dry run: {} not written)\n", path.string());
    } else {
      write_golden(path, fresh);
      fmt::print("    wrote {}\n", path.string());
    }
  }
  if (!o.markdown.empty()) write_regen_markdown(o.markdown, changes);
  return kExitOk;
}

// ---- compare ------------------------------------------------------------------------------

// Compares the traces in two golden files, `observed` against `reference`, for one device:
// with --tolerance, that policy for every series; otherwise each observed series' own.
int cmd_compare(const fs::path& reference, const fs::path& observed, const std::string& device,
                const std::string& tolerance) {
  const GoldenFile a = read_golden(reference), b = read_golden(observed);
  auto ga = a.devices.find(device), gb = b.devices.find(device);
  if (ga == a.devices.end()) throw BadInput(fmt::format("{}: no /{} group", reference.string(), device));
  if (gb == b.devices.end()) throw BadInput(fmt::format("{}: no /{} group", observed.string(), device));
  std::optional<Tolerance> policy;
  if (!tolerance.empty()) {
    try {
      policy = Tolerance::parse(tolerance);
    } catch (const std::invalid_argument& e) {
      throw BadInput(fmt::format("--tolerance: {}", e.what()));
    }
  }
  std::vector<ReportEntry> rows;
  bool ok = true;
  for (auto c : compare_traces(ga->second.trace, gb->second.trace, false)) {
    if (policy && (c.verdict == Verdict::kPass || c.verdict == Verdict::kFail)) {
      const Series* g = ga->second.trace.find(c.series);
      c = compare_series_with(*g, *gb->second.trace.find(c.series), *policy);
    }
    ok = ok && c.passed();
    rows.push_back(series_entry(b.scenario, device, c, false));
  }
  print_results(rows);
  fmt::print("\ncompare: {} series, {}\n", rows.size(), ok ? "all within tolerance" : "DIFFERENT");
  return ok ? kExitOk : kExitMismatch;
}

// ---- bench --------------------------------------------------------------------------------

int cmd_bench(const std::vector<std::string>& names, int warmup, int repeat, double store_elements) {
  if (store_elements > 0) {
    const auto r = measure_store(static_cast<uint64_t>(store_elements));
    const double mb = static_cast<double>(r.bytes) / 1e6;
    fmt::print("store {} elements, {:.1f} MB: write {:.2f} s, read {:.2f} s, compare {:.2f} s, read+compare {:.0f} MB/s\n",
               r.elements, mb, r.write_s, r.read_s, r.compare_s, mb / (r.read_s + r.compare_s));
    return kExitOk;
  }
  for (const auto& def : resolve_scenarios(names)) {
    const Timing t = time_scenario(def.name, warmup, repeat);
    fmt::print("{} {:.3f} {}\n", def.name, t.median(), fmt::join(t.ms, ","));
  }
  return kExitOk;
}

// ---- lr-curve -----------------------------------------------------------------------------

struct LrCurveCli {
  LrCurveSpec spec;
  std::string anneal = "cos", mode = "min", threshold_mode = "rel";
};

// One sub-subcommand per scheduler; every option not given keeps PyTorch's default.
void add_lr_curve(CLI::App& app, LrCurveCli& c, std::vector<CLI::App*>& kinds) {
  auto* lr = app.add_subcommand("lr-curve", "Print `STEP LR` for a scheduler configuration")->require_subcommand(1);
  auto& s = c.spec;
  auto* wc = lr->add_subcommand("warmup-cosine", "LambdaLR with the documents' linear warmup, then cosine to 0");
  wc->add_option("--lr", s.lr, "Peak learning rate")->required();
  wc->add_option("--warmup", s.warmup, "Warmup steps")->required();
  wc->add_option("--total", s.total, "Total steps")->required();
  auto* oc = lr->add_subcommand("onecycle", "OneCycleLR");
  oc->add_option("--max-lr", s.onecycle.max_lr, "max_lr")->required();
  oc->add_option("--total-steps", s.onecycle.total_steps, "total_steps")->required();
  oc->add_option("--pct-start", s.onecycle.pct_start, "pct_start")->capture_default_str();
  oc->add_option("--anneal", c.anneal, "anneal_strategy")->check(CLI::IsMember({"cos", "linear"}))->capture_default_str();
  oc->add_option("--div-factor", s.onecycle.div_factor, "div_factor")->capture_default_str();
  oc->add_option("--final-div-factor", s.onecycle.final_div_factor, "final_div_factor")->capture_default_str();
  oc->add_flag("--three-phase", s.onecycle.three_phase, "three_phase");
  auto* co = lr->add_subcommand("cosine", "CosineAnnealingLR (chainable form)");
  co->add_option("--lr", s.lr, "Initial learning rate")->required();
  co->add_option("--t-max", s.t_max, "T_max")->required();
  co->add_option("--eta-min", s.eta_min, "eta_min")->capture_default_str();
  co->add_option("--steps", s.steps, "Steps to print")->required();
  auto* st = lr->add_subcommand("step", "StepLR");
  st->add_option("--lr", s.lr, "Initial learning rate")->required();
  st->add_option("--step-size", s.step_size, "step_size")->required();
  st->add_option("--gamma", s.gamma, "gamma")->capture_default_str();
  st->add_option("--steps", s.steps, "Steps to print")->required();
  auto* pl = lr->add_subcommand("plateau", "ReduceLROnPlateau: the rate after step(metric), per metric");
  pl->add_option("--lr", s.lr, "Initial learning rate")->required();
  pl->add_option("--mode", c.mode, "mode")->check(CLI::IsMember({"min", "max"}))->capture_default_str();
  pl->add_option("--patience", s.plateau.patience, "patience")->capture_default_str();
  pl->add_option("--factor", s.plateau.factor, "factor")->capture_default_str();
  pl->add_option("--threshold", s.plateau.threshold, "threshold")->capture_default_str();
  pl->add_option("--threshold-mode", c.threshold_mode, "threshold_mode")->check(CLI::IsMember({"rel", "abs"}))->capture_default_str();
  pl->add_option("--cooldown", s.plateau.cooldown, "cooldown")->capture_default_str();
  pl->add_option("--min-lr", s.plateau.min_lr, "min_lr")->capture_default_str();
  pl->add_option("--eps", s.plateau.eps, "eps")->capture_default_str();
  pl->add_option("--metrics", s.metrics, "Validation metrics, comma-separated")->required()->delimiter(',');
  kinds = {wc, oc, co, st, pl};
}

int cmd_lr_curve(LrCurveCli& c, const std::vector<CLI::App*>& kinds) {
  for (auto* k : kinds)
    if (*k) c.spec.kind = k->get_name();
  c.spec.onecycle.anneal = c.anneal == "linear" ? OneCycleOptions::Anneal::kLinear : OneCycleOptions::Anneal::kCos;
  c.spec.plateau.mode = c.mode == "max" ? PlateauOptions::Mode::kMax : PlateauOptions::Mode::kMin;
  c.spec.plateau.threshold_mode =
      c.threshold_mode == "abs" ? PlateauOptions::ThresholdMode::kAbs : PlateauOptions::ThresholdMode::kRel;
  std::vector<double> lrs;
  try {
    lrs = lr_curve(c.spec);
  } catch (const std::invalid_argument& e) {
    throw BadInput(fmt::format("lr-curve {}: {}", c.spec.kind, e.what()));
  }
  std::string out;
  for (size_t i = 0; i < lrs.size(); ++i) out += fmt::format("{} {:.17g}\n", i, lrs[i]);
  fmt::print("{}", out);
  return kExitOk;
}

}  // namespace

int cli_main(int argc, char** argv, const char* default_golden_dir) {
  set_cli_executable("/proc/self/exe");  // child processes (preempt trials, ranks) run this CLI
  CLI::App app{"trainproof: proves a LibTorch training loop does what the best-practice documents say"};
  app.require_subcommand(1);
  fs::path golden_dir = default_golden_dir ? default_golden_dir : TRAINPROOF_DEFAULT_GOLDEN_DIR;
  if (const char* env = std::getenv("TRAINPROOF_GOLDEN_DIR")) golden_dir = env;

  auto* list = app.add_subcommand("list", "Scenarios, devices available, golden status");
  list->add_option("--golden", golden_dir, "Folder of golden .h5 files");

  std::string run_scenario_name, run_device = "cpu";
  auto* run = app.add_subcommand("run", "Run one scenario and print its document-style output");
  run->add_option("scenario", run_scenario_name, "Scenario name")->required();
  run->add_option("--device", run_device, "cpu, cuda or all")->capture_default_str();

  VerifyOptions vo;
  auto* verify = app.add_subcommand("verify", "Run scenarios and compare their traces with the goldens");
  verify->add_option("scenarios", vo.scenarios, "Scenario names (default: all)");
  verify->add_option("--device", vo.device, "cpu, cuda or all (the devices present)")->capture_default_str();
  verify->add_option("--golden", golden_dir, "Folder of golden .h5 files");
  verify->add_option("--json,--report", vo.json, "Write the results as JSON to this file");
  verify->add_option("--junit", vo.junit, "Write JUnit XML (one testcase per scenario x device x series) to this file");
  verify->add_option("--html", vo.html, "Write one self-contained HTML page with a plot per series to this file");

  RegenOptions ro;
  auto* regen = app.add_subcommand("regen", "Regenerate goldens deliberately, printing what changed");
  regen->add_option("scenarios", ro.scenarios, "Scenario names (default: all)");
  regen->add_option("--device", ro.device, "cpu, cuda or all (the devices present)")->capture_default_str();
  regen->add_option("--golden", golden_dir, "Folder of golden .h5 files");
  regen->add_flag("--dry-run", ro.dry_run, "Show what would change without writing");
  regen->add_option("--markdown", ro.markdown, "Write a Markdown summary of what changed (for a pull-request comment)");

  std::string cmp_a, cmp_b, cmp_device = "cpu", cmp_tolerance;
  auto* compare = app.add_subcommand("compare", "Compare the traces of two golden files (OBSERVED against REFERENCE)");
  compare->add_option("reference", cmp_a, "Reference .h5")->required();
  compare->add_option("observed", cmp_b, "Observed .h5")->required();
  compare->add_option("--device", cmp_device, "Device group to compare")->capture_default_str();
  compare->add_option("--tolerance", cmp_tolerance, "One policy for every series (default: each series' own)");

  std::vector<std::string> bench_names;
  int bench_warmup = 1, bench_repeat = 5;
  double bench_store = 0;
  auto* bench = app.add_subcommand("bench", "Time scenarios in-process (median ms), or golden store throughput");
  bench->add_option("scenarios", bench_names, "Scenario names (default: all)");
  bench->add_option("--warmup", bench_warmup, "Untimed runs first")->capture_default_str()->check(CLI::NonNegativeNumber);
  bench->add_option("--repeat", bench_repeat, "Timed runs")->capture_default_str()->check(CLI::PositiveNumber);
  bench->add_option("--store-elements", bench_store, "Measure golden read+compare throughput on this many float32 values");

  TextClfOptions tc;
  std::string tc_device = "cpu";
  auto* train = app.add_subcommand("train", "Train a model with the documents' loop, resuming from checkpoints");
  auto* textclf = train->add_subcommand("textclf", "Text classifier on the fortunes corpus")->fallthrough();
  train->require_subcommand(1);
  textclf->add_option("--ckpt-dir", tc.ckpt_dir, "Checkpoint folder (resumes from its newest valid checkpoint)")->required();
  textclf->add_option("--steps", tc.steps, "Optimizer steps")->capture_default_str()->check(CLI::PositiveNumber);
  textclf->add_option("--ckpt-every", tc.ckpt_every, "Steps between checkpoints")->capture_default_str()->check(CLI::PositiveNumber);
  textclf->add_option("--device", tc_device, "cpu or cuda")->capture_default_str()->check(CLI::IsMember({"cpu", "cuda"}));
  textclf->add_option("--amp", tc.amp, "auto, bf16 or fp16 (fp16 adds a GradScaler)")->capture_default_str();
  textclf->add_option("--corpus", tc.corpus, "Folder of fortune files")->capture_default_str();
  textclf->add_option("--seed", tc.seed, "Seed")->capture_default_str();
  textclf->add_option("--sabotage", tc.sabotage, "Negative control for preempt")->capture_default_str();

  PreemptOptions po;
  auto* preempt = app.add_subcommand("preempt", "Kill and resume `train textclf` for real; compare bitwise with an uninterrupted run");
  preempt->add_option("--trials", po.trials, "Trials")->capture_default_str();
  preempt->add_option("--seed", po.seed, "Seed of the kill schedule")->capture_default_str();
  preempt->add_option("--sabotage", po.sabotage,
                      "none | drop-optimizer | drop-scheduler | drop-scaler | drop-rng | drop-data-position | non-atomic-save")
      ->capture_default_str()
      ->check(CLI::IsMember({"none", "drop-optimizer", "drop-scheduler", "drop-scaler", "drop-rng", "drop-data-position",
                             "non-atomic-save"}));
  preempt->add_option("--steps", po.steps, "Optimizer steps per run")->capture_default_str()->check(CLI::PositiveNumber);
  preempt->add_option("--ckpt-every", po.ckpt_every, "Steps between checkpoints")->capture_default_str()->check(CLI::PositiveNumber);
  preempt->add_option("--corpus", po.corpus, "Folder of fortune files");

  WorkerOptions wo;
  bool wo_even = false;
  auto* worker = app.add_subcommand("ddp-worker", "(internal) one rank of a data-parallel run, started by the launcher");
  worker->group("");  // not listed in --help: the launcher starts it
  worker->add_option("--rank", wo.rank)->required();
  worker->add_option("--world", wo.world)->required()->check(CLI::Range(1, 64));
  worker->add_option("--store", wo.store)->required();
  worker->add_option("--task", wo.task)->check(CLI::IsMember({"grad", "train"}));
  worker->add_option("--backend", wo.backend)->check(CLI::IsMember({"gloo", "nccl"}));
  worker->add_option("--steps", wo.steps)->check(CLI::PositiveNumber);
  worker->add_option("--ckpt-every", wo.ckpt_every)->check(CLI::PositiveNumber);
  worker->add_option("--sabotage", wo.sabotage)->check(CLI::IsMember({"none", "drop-rng"}));
  worker->add_option("--rule", wo.rule)->check(CLI::IsMember({"mean", "size"}));
  worker->add_option("--total", wo.total)->check(CLI::PositiveNumber);
  worker->add_option("--seed", wo.seed);
  worker->add_option("--out", wo.out)->required();
  worker->add_flag("--uneven", wo.uneven);
  worker->add_flag("--even", wo_even);

  LrCurveCli lr_curve_cli;
  std::vector<CLI::App*> lr_kinds;
  add_lr_curve(app, lr_curve_cli, lr_kinds);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message
    return kExitBadInput;
  }

  try {
    if (*list) return cmd_list(golden_dir);
    if (*run) return cmd_run(run_scenario_name, run_device);
    if (*verify) {
      vo.golden_dir = golden_dir;
      return cmd_verify(vo);
    }
    if (*regen) {
      ro.golden_dir = golden_dir;
      return cmd_regen(ro);
    }
    if (*textclf) {
      if (tc_device == "cuda") resolve_devices("cuda");  // a clear exit 2 without CUDA
      tc.device = c10::Device(tc_device);
      return train_textclf(tc);
    }
    if (*preempt) return run_preempt(po);
    if (*worker) return ddp_worker_main(wo);
    if (*bench) return cmd_bench(bench_names, bench_warmup, bench_repeat, bench_store);
    if (*compare) return cmd_compare(cmp_a, cmp_b, cmp_device, cmp_tolerance);
    if (*app.get_subcommand("lr-curve")) return cmd_lr_curve(lr_curve_cli, lr_kinds);
  } catch (const BadInput& e) {
    fmt::print(stderr, "trainproof: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "trainproof: internal error: {}\n", e.what());
    return kExitMismatch;
  }
  return kExitBadInput;
}

}  // namespace trainproof
