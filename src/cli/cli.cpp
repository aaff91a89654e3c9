// The trainproof CLI. Progress goes to stderr, results to stdout.
#include "trainproof/cli/cli.h"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <optional>

#include <ATen/Parallel.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/cuda.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "src/cli/lr_curve.h"
#include "src/core/data_dirs.h"
#include "src/core/envelope.h"
#include "src/process/exec_paths.h"
#include "src/process/process.h"
#include "trainproof/core/compare.h"
#include "trainproof/core/errors.h"
#include "trainproof/distributed/distributed.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/check.h"
#include "trainproof/runner/fingerprint.h"
#include "trainproof/runner/runner.h"
#include "trainproof/runner/scenario.h"

#ifndef TRAINPROOF_DEFAULT_GOLDEN_DIR
#define TRAINPROOF_DEFAULT_GOLDEN_DIR "golden"
#endif

namespace trainproof {
namespace {

namespace fs = std::filesystem;

// ---- list -------------------------------------------------------------------------------

std::string golden_status(const fs::path& golden_dir, const std::string& scenario) {
  const fs::path p = golden_path(golden_dir, scenario);
  if (!fs::exists(p)) return "missing";
  try {
    std::vector<std::string> devs;
    for (const auto& [dev, dg] : read_golden(p).devices) devs.push_back(dev);
    return fmt::format("{}", fmt::join(devs, "+"));
  } catch (const BadInput&) {
    return "CORRUPT (verify says why)";
  }
}

// What tests and CI filters are derived from: each scenario's metadata and its negative
// controls (scenario.h), as JSON on stdout.
int cmd_list_json(const fs::path& golden_dir) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : Registry::instance().all()) {
    nlohmann::json controls = nlohmann::json::array();
    for (const auto& c : d.info.controls)
      controls.push_back({{"fault", c.fault}, {"breaks", c.breaks}, {"device", c.device}});
    out.push_back({{"name", d.name},
                   {"section", d.section},
                   {"document", d.info.document},
                   {"multi_process", d.info.multi_process},
                   {"prints_document", d.info.prints_document},
                   {"controls", controls},
                   {"golden", golden_status(golden_dir, d.name)}});
  }
  fmt::print("{}\n", out.dump(2));
  return kExitOk;
}

int cmd_list(const fs::path& golden_dir, bool json) {
  if (json) return cmd_list_json(golden_dir);
  fmt::print("devices available: {}\n", fmt::join(available_devices(), ", "));
  std::vector<std::string> paths;
  for (const auto& p : cpu_paths(cpu_flags())) paths.push_back(p.name);
  fmt::print("CPU execution paths (verify --paths, regen): {}\n", fmt::join(paths, ", "));
  fmt::print("golden folder: {}\n\n", golden_dir.string());
  fmt::print("{:<22} {:<28} {}\n", "scenario", "golden", "document section");
  for (const auto& d : Registry::instance().all())
    fmt::print("{:<22} {:<28} {}\n", d.name, golden_status(golden_dir, d.name), d.section);
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

// ---- compare ------------------------------------------------------------------------------

// Compares the traces in two golden files, `observed` against `reference`, for one device:
// with --tolerance, that policy for every series; otherwise the reference's own (same
// environment unless --cross).
// `--tolerance ceiling` compares each series within the most its scenario lets any machine
// move it (the ceiling regen records); with --observed-device another device's group is the
// observed one (CPU against CUDA), and a series only one device records is noted, not failed.
int cmd_compare(const fs::path& reference, const fs::path& observed, const std::string& device,
                std::string observed_device, const std::string& tolerance, bool cross) {
  if (observed_device.empty()) observed_device = device;
  const GoldenFile a = read_golden(reference), b = read_golden(observed);
  auto ga = a.devices.find(device), gb = b.devices.find(observed_device);
  if (ga == a.devices.end()) throw BadInput(fmt::format("{}: no /{} group", reference.string(), device));
  if (gb == b.devices.end()) throw BadInput(fmt::format("{}: no /{} group", observed.string(), observed_device));
  const bool by_ceiling = tolerance == "ceiling", across = observed_device != device;
  std::optional<Tolerance> policy;
  if (!tolerance.empty() && !by_ceiling) {
    try {
      policy = Tolerance::parse(tolerance);
    } catch (const std::invalid_argument& e) {
      throw BadInput(fmt::format("--tolerance: {}", e.what()));
    }
  }
  const std::string label = across ? device + "/" + observed_device : device;
  std::vector<ReportEntry> rows;
  bool ok = true;
  for (auto c : compare_traces(ga->second.trace, gb->second.trace, cross)) {
    const Series* g = ga->second.trace.find(c.series);
    if ((policy || by_ceiling) && (c.verdict == Verdict::kPass || c.verdict == Verdict::kFail)) {
      const double ceiling = by_ceiling ? ceiling_allowance(*g) : 0;
      const Tolerance t = policy ? *policy : ceiling > 0 ? Tolerance::abs(ceiling) : Tolerance::exact();
      c = compare_series_with(*g, *gb->second.trace.find(c.series), t);
    }
    if (across && (c.verdict == Verdict::kMissingSeries || c.verdict == Verdict::kNewSeries)) {
      rows.emplace_back(
          b.scenario, label, "series", c.series, "skipped", "",
          fmt::format("recorded on {} only", c.verdict == Verdict::kNewSeries ? observed_device : device));
      continue;
    }
    ok = ok && c.passed();
    rows.push_back(series_entry(b.scenario, label, c, cross && !policy && !by_ceiling));
  }
  print_results(rows);
  fmt::print("\ncompare: {} series ({}), {}\n", rows.size(), tally(rows).str(),
             ok ? "all within tolerance" : "DIFFERENT");
  return ok ? kExitOk : kExitMismatch;
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
  auto* wl = lr->add_subcommand("warmup-linear",
                                "SequentialLR: LinearLR warmup to the peak, then LinearLR decay to 0 at --total");
  wl->add_option("--lr", s.lr, "Peak learning rate")->required();
  wl->add_option("--warmup", s.warmup, "Warmup steps")->required();
  wl->add_option("--total", s.total, "Total steps")->required();
  auto* oc = lr->add_subcommand("onecycle", "OneCycleLR");
  oc->add_option("--max-lr", s.onecycle.max_lr, "max_lr")->required();
  oc->add_option("--total-steps", s.onecycle.total_steps, "total_steps")->required();
  oc->add_option("--pct-start", s.onecycle.pct_start, "pct_start")->capture_default_str();
  oc->add_option("--anneal", c.anneal, "anneal_strategy")
      ->check(CLI::IsMember({"cos", "linear"}))
      ->capture_default_str();
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
  pl->add_option("--threshold-mode", c.threshold_mode, "threshold_mode")
      ->check(CLI::IsMember({"rel", "abs"}))
      ->capture_default_str();
  pl->add_option("--cooldown", s.plateau.cooldown, "cooldown")->capture_default_str();
  pl->add_option("--min-lr", s.plateau.min_lr, "min_lr")->capture_default_str();
  pl->add_option("--eps", s.plateau.eps, "eps")->capture_default_str();
  pl->add_option("--metrics", s.metrics, "Validation metrics, comma-separated")->required()->delimiter(',');
  kinds = {wc, wl, oc, co, st, pl};
}

// The rates of the parsed lr-curve options.
std::vector<double> parsed_lr_curve(LrCurveCli& c, const std::vector<CLI::App*>& kinds) {
  for (auto* k : kinds)
    if (*k) c.spec.kind = k->get_name();
  c.spec.onecycle.anneal = c.anneal == "linear" ? OneCycleOptions::Anneal::kLinear : OneCycleOptions::Anneal::kCos;
  c.spec.plateau.mode = c.mode == "max" ? PlateauOptions::Mode::kMax : PlateauOptions::Mode::kMin;
  c.spec.plateau.threshold_mode =
      c.threshold_mode == "abs" ? PlateauOptions::ThresholdMode::kAbs : PlateauOptions::ThresholdMode::kRel;
  try {
    return lr_curve(c.spec);
  } catch (const std::invalid_argument& e) {
    throw BadInput(fmt::format("lr-curve {}: {}", c.spec.kind, e.what()));
  }
}

// `check --expect-lr SPEC`: SPEC is what follows `trainproof lr-curve`, parsed the same way.
std::vector<double> expected_lr(const std::string& spec) {
  CLI::App app;
  LrCurveCli c;
  std::vector<CLI::App*> kinds;
  add_lr_curve(app, c, kinds);
  try {
    app.parse("lr-curve " + spec, /*program_name_included=*/false);
  } catch (const CLI::ParseError& e) {
    throw BadInput(
        fmt::format("--expect-lr '{}': {} (SPEC is what `trainproof lr-curve` takes, e.g. "
                    "'warmup-cosine --lr 3e-3 --warmup 6 --total 60')",
                    spec, e.what()));
  }
  return parsed_lr_curve(c, kinds);
}

int cmd_lr_curve(LrCurveCli& c, const std::vector<CLI::App*>& kinds) {
  const std::vector<double> lrs = parsed_lr_curve(c, kinds);
  std::string out;
  for (size_t i = 0; i < lrs.size(); ++i) out += fmt::format("{} {:.17g}\n", i, lrs[i]);
  fmt::print("{}", out);
  return kExitOk;
}

// TRAINPROOF_THREADS sets LibTorch's intra-op thread count: how the execution-path matrix
// runs thread counts above the machine's cores (OMP_NUM_THREADS is capped at them).
void apply_thread_count() {
  const char* env = std::getenv("TRAINPROOF_THREADS");
  if (!env || !*env) return;
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != '\0' || n < 1 || n > 1024)
    throw BadInput(fmt::format("TRAINPROOF_THREADS: '{}' is not a thread count between 1 and 1024", env));
  at::set_num_threads(static_cast<int>(n));
}

}  // namespace

int cli_main(int argc, char** argv, const char* default_golden_dir, const std::vector<CliCommand>& extra) {
  set_cli_executable("/proc/self/exe");  // child processes (preempt trials, ranks) run this CLI
  CLI::App app{"trainproof: proves a LibTorch training loop does what the best-practice documents say"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("trainproof ") + kTrainproofVersion);
  // A consumer's own CLI names its folder; ours uses the installed goldens when installed.
  fs::path golden_dir = default_golden_dir ? fs::path(default_golden_dir) : installed_data_dir("golden");
  if (golden_dir.empty()) golden_dir = TRAINPROOF_DEFAULT_GOLDEN_DIR;
  if (const char* env = std::getenv("TRAINPROOF_GOLDEN_DIR")) golden_dir = env;

  auto* list = app.add_subcommand("list", "Scenarios, devices available, golden status");
  list->add_option("--golden", golden_dir, "Folder of golden .h5 files");
  bool list_json = false;
  list->add_flag("--json", list_json, "Scenario metadata and negative controls as JSON");

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
  verify->add_flag("--cross", vo.force_cross,
                   "Apply the goldens' cross-environment tolerances even where the fingerprint matches");
  verify->add_flag("--require-all-devices", vo.require_all_devices,
                   "With --device all: a device present here whose goldens lack its group is bad input (exit 2), "
                   "not NOT VERIFIED");
  verify->add_flag("--paths", vo.paths,
                   "Run every scenario under each CPU execution path (ATen capability, MKL/oneDNN limits, threads), "
                   "each in its own process: simulates other machines on this one");
  verify
      ->add_option("--path-set", vo.path_set, "With --paths: comma-separated path names (`trainproof list` shows them)")
      ->capture_default_str();
  verify->add_option("--jobs", vo.jobs, "With --paths: path processes at a time")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));

  RegenOptions ro;
  auto* regen = app.add_subcommand("regen", "Regenerate goldens deliberately, printing what changed");
  regen->add_option("scenarios", ro.scenarios, "Scenario names (default: all)");
  regen->add_option("--device", ro.device, "cpu, cuda or all (the devices present)")->capture_default_str();
  regen->add_option("--golden", golden_dir, "Folder of golden .h5 files");
  regen->add_flag("--dry-run", ro.dry_run, "Show what would change without writing");
  regen->add_option(
      "--markdown", ro.markdown,
      "Write a Markdown summary of what changed and of every series' tolerance (for a pull-request comment)");
  regen
      ->add_option("--path-set", ro.path_set,
                   "Execution paths whose spread sets the cross-environment tolerances (comma-separated; default all)")
      ->capture_default_str();
  regen->add_option("--jobs", ro.jobs, "Path processes at a time")->capture_default_str()->check(CLI::Range(1, 64));
  regen->add_option("--safety-factor", ro.safety_factor, "Cross tolerance = measured spread x this (default 4)")
      ->check(CLI::Range(1.0, 1000.0));
  regen->add_flag(
      "--force", ro.force,
      "Write goldens even when an invariant breaks or a series exceeds its ceiling (recorded in the golden)");

  std::vector<std::string> rec_names;
  std::string rec_device = "cpu", rec_out;
  auto* rec =
      app.add_subcommand("record", "(internal) run scenarios and write their traces as JSON, for the path matrix");
  rec->group("");
  rec->add_option("scenarios", rec_names, "Scenario names (default: all)");
  rec->add_option("--device", rec_device, "cpu or cuda")->capture_default_str();
  rec->add_option("--out", rec_out, "Output file")->required();

  std::vector<std::string> tol_names;
  std::string tol_markdown;
  auto* tolerances = app.add_subcommand(
      "tolerances",
      "Per golden series: the cross-environment tolerance, its provenance, the smallest change it catches");
  tolerances->add_option("scenarios", tol_names, "Scenario names (default: all)");
  tolerances->add_option("--golden", golden_dir, "Folder of golden .h5 files");
  tolerances->add_option("--markdown", tol_markdown, "Also write the table as Markdown to this file");

  std::string cmp_a, cmp_b, cmp_device = "cpu", cmp_tolerance;
  auto* compare = app.add_subcommand("compare", "Compare the traces of two golden files (OBSERVED against REFERENCE)");
  compare->add_option("reference", cmp_a, "Reference .h5")->required();
  compare->add_option("observed", cmp_b, "Observed .h5")->required();
  std::string cmp_observed_device;
  compare->add_option("--device", cmp_device, "Device group to compare")->capture_default_str();
  compare->add_option("--observed-device", cmp_observed_device,
                      "The observed file's device group, when it is another (cpu against cuda)");
  compare->add_option("--tolerance", cmp_tolerance,
                      "One policy for every series, or 'ceiling': each series within its scenario's ceiling "
                      "(default: each reference series' own tolerance)");
  bool cmp_cross = false;
  compare->add_flag("--cross", cmp_cross, "Apply the reference's cross-environment tolerances");

  WorkerOptions wo;
  auto* worker =
      app.add_subcommand("ddp-worker", "(internal) one rank of a data-parallel run, started by the launcher");
  worker->group("");  // not listed in --help: the launcher starts it
  // Without --store, the rank and the world come from torchrun's or srun's environment.
  auto* w_rank = worker->add_option("--rank", wo.rank);
  auto* w_world = worker->add_option("--world", wo.world)->check(CLI::Range(1, 64));
  worker->add_option("--store", wo.store)->needs(w_rank)->needs(w_world);
  worker->add_option("--task", wo.task, "A registered rank task (include/trainproof/distributed/rank_task.h)");
  worker->add_option("--options", wo.options, "The task's options: JSON, or @FILE holding it");
  worker->add_option("--backend", wo.backend)->check(CLI::IsMember({"gloo", "nccl"}));
  worker->add_option("--out", wo.out, "The run's folder")->required();

  CheckOptions cko;
  auto* check_cmd = app.add_subcommand(
      "check", "Hold your own training command to the documents' laws: trainproof check [options] -- CMD [ARGS...]");
  check_cmd->add_option("command", cko.command, "The training command, after --")->required();
  check_cmd->add_option("--kills", cko.kills, "SIGKILL a run this many times, restarting it after each")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  check_cmd->add_option("--seed", cko.seed, "Where the kills land")->capture_default_str();
  check_cmd->add_option("--keep", cko.keep, "Keep the runs' folders, traces and logs in this folder");
  check_cmd->add_option("--timeout", cko.timeout_s, "Seconds one start of the command may take")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  check_cmd->add_option("--json", cko.json, "Write the verdicts as JSON to this file");
  check_cmd->add_option("--junit", cko.junit, "Write JUnit XML to this file");
  check_cmd->add_option("--html", cko.html, "Write an HTML page to this file");
  check_cmd->add_option("--expect-lr", cko.expect_lr_spec,
                        "The schedule the recorded lr must follow, as `lr-curve` takes it, e.g. "
                        "'warmup-cosine --lr 3e-3 --warmup 6 --total 60'");
  check_cmd->add_option("--golden", cko.golden, "Hold the trace to this golden (.h5); with --regen, write it");
  check_cmd->add_flag("--regen", cko.regen,
                      "Write the golden: the command also runs under each execution path, whose spread sets the "
                      "cross-machine tolerances");
  check_cmd->add_option("--markdown", cko.markdown, "With --regen: write what changed as Markdown (for a PR)");
  check_cmd->add_option("--path-set", cko.path_set, "With --regen: execution paths (comma-separated, or all)")
      ->capture_default_str();
  check_cmd->add_option("--safety-factor", cko.safety_factor, "With --regen: cross tolerance = spread x this (4)")
      ->check(CLI::Range(1.0, 1000.0));
  check_cmd->add_option("--ceiling", cko.ceiling,
                        "With --regen: the most any series may move across machines, e.g. 'rel(0.01)' "
                        "(default rel(1e-3) of its largest value)");
  check_cmd->add_flag("--force", cko.force, "With --regen: write the golden although a law is broken");

  DdpCheckOptions dco;
  bool dco_no_golden = false;
  auto* ddp_check = app.add_subcommand(
      "ddp-check",
      "Run as every rank of a torchrun or srun job: the data-parallel laws on those ranks, through a TCPStore");
  ddp_check->add_option("--run-dir", dco.run_dir, "Checkpoints of the resume law (a folder every rank can reach)")
      ->required();
  ddp_check->add_option("--out", dco.out, "Rank 0 writes the combined result of every rank here (JSON)");
  ddp_check->add_option("--golden", golden_dir, "Folder of golden .h5 files (ddp_equivalence.h5 is compared)");
  ddp_check->add_flag("--no-golden", dco_no_golden, "Do not compare with the golden");
  ddp_check->add_option("--steps", dco.steps, "Training steps of the resume law")
      ->capture_default_str()
      ->check(CLI::Range(2, 100000));
  ddp_check->add_option("--kill-at", dco.kill_at, "The step after which the last rank SIGKILLs itself")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);

  LrCurveCli lr_curve_cli;
  std::vector<CLI::App*> lr_kinds;
  add_lr_curve(app, lr_curve_cli, lr_kinds);
  std::vector<CLI::App*> extra_apps;
  for (const auto& c : extra) extra_apps.push_back(c.add(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);  // prints the message
    return kExitBadInput;
  }

  try {
    apply_thread_count();
    if (*list) return cmd_list(golden_dir, list_json);
    if (*run) return cmd_run(run_scenario_name, run_device);
    if (*verify) {
      vo.golden_dir = golden_dir;
      return trainproof::verify(vo);
    }
    if (*regen) {
      ro.golden_dir = golden_dir;
      return trainproof::regen(ro);
    }
    if (*rec) return record(rec_names, rec_device, rec_out);
    if (*tolerances) return show_tolerances(tol_names, golden_dir, tol_markdown);
    if (*worker) return ddp_worker_main(wo);
    if (*check_cmd) {
      if (!cko.expect_lr_spec.empty()) cko.expect_lr = expected_lr(cko.expect_lr_spec);
      return trainproof::check(cko);
    }
    if (*ddp_check) {
      if (dco.kill_at >= dco.steps)
        throw BadInput(fmt::format("--kill-at {} must be below --steps {}", dco.kill_at, dco.steps));
      if (!dco_no_golden) dco.golden = golden_path(golden_dir, "ddp_equivalence");
      return ddp_check_main(dco);
    }
    if (*compare) return cmd_compare(cmp_a, cmp_b, cmp_device, cmp_observed_device, cmp_tolerance, cmp_cross);
    if (*app.get_subcommand("lr-curve")) return cmd_lr_curve(lr_curve_cli, lr_kinds);
    for (size_t i = 0; i < extra.size(); ++i)
      if (*extra_apps[i]) return extra[i].run();
  } catch (const BadInput& e) {
    fmt::print(stderr, "trainproof: error: {}\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "trainproof: internal error (exit {}): {}\n", static_cast<int>(kExitInternal), e.what());
    return kExitInternal;
  }
  return kExitBadInput;
}

}  // namespace trainproof
