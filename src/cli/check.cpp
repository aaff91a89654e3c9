// `trainproof check [options] -- CMD [ARGS...]`: a team's own training command held to the
// documents' laws (runner/check.h).
#include <memory>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/check/check.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/tolerance.h"
#include "trainproof/report/report.h"

namespace trainproof::cli {
namespace {

// A tolerance option's text (`--ceiling 'rel(0.01)'`), or BadInput naming the option.
Tolerance tolerance_option(const std::string& option, const std::string& text) {
  try {
    return Tolerance::parse(text);
  } catch (const std::invalid_argument& e) {
    throw BadInput(fmt::format("{} '{}': {}", option, text, e.what()));
  }
}

}  // namespace

void add_check_options(CLI::App* cmd, CheckOptions& o) {
  cmd->add_option("command", o.command, "The training command, after -- (with --replay DIR: the one DIR kept)");
  cmd->add_option("--kills", o.kills, "SIGKILL a run this many times, restarting it after each")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  cmd->add_option("--seed", o.seed, "Where the kills land")->capture_default_str();
  cmd->add_option("--keep", o.keep, "Keep the runs' folders, traces and logs in this folder");
  cmd->add_option("--timeout", o.timeout_s, "Seconds one start of the command may take")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--expect-lr", o.expect_lr_spec,
                  "The schedule the recorded lr must follow, as `lr-curve` takes it, e.g. "
                  "'warmup-cosine --lr 3e-3 --warmup 6 --total 60'");
  cmd->add_option("--resume-args", o.resume_args,
                  "Append these arguments to the command on every restart after a kill, e.g. "
                  "'--init_from=resume' or '--resume {run_dir}/ckpt.pt'");
  cmd->add_option("--replay", o.replay,
                  "Judge the runs an earlier check --keep DIR kept, running nothing: with the options and "
                  "command it kept (check.json), or those given");
  cmd->add_option("--restart-nproc", o.restart_nproc,
                  "Restart a torchrun command on this many processes per node after each kill (its "
                  "--nproc-per-node rewritten): a resume at another world size, its checkpoint resharded");
  cmd->add_flag("--no-probe{false}", o.probe,
                "Do not load trainproof's probe into the command's Python processes (then only "
                "Recorder calls in the script record anything)");
  cmd->add_option("--reference", o.reference,
                  "An earlier check's uninterrupted trace (--keep DIR: DIR/uninterrupted-1.trace) stands "
                  "in for this check's uninterrupted runs; determinism is not checked (unless a resume "
                  "departs, as with --runs 1)");
  cmd->add_option("--runs", o.runs,
                  "Uninterrupted runs: 2 (default) checks determinism, 1 does not (the findings and the "
                  "laws one run shows) unless the preempted run departs: one more run then tells a resume "
                  "that departs from a loop that is not deterministic; with --band, the runs of the band or "
                  "of holding it")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  // One ID each time (a list would also take the `--` before the command as its end).
  cmd->add_option("--allow", o.allow, "Accept this finding knowingly (repeatable); the report says so")
      ->allow_extra_args(false);
}

namespace {

// check's golden options: hold the trace to a golden, or write one (--regen), exact or a band.
void add_golden_options(CLI::App* cmd, CheckOptions& o, std::string& ceiling) {
  cmd->add_option("--golden", o.golden, "Hold the trace to this golden (.h5); with --regen, write it");
  cmd->add_flag("--regen", o.regen,
                "Write the golden: the command also runs under each execution path, whose spread sets "
                "the cross-machine tolerances");
  cmd->add_option("--path-set", o.path_set, "With --regen: execution paths (comma-separated, or all)")
      ->capture_default_str();
  cmd->add_option("--safety-factor", o.safety_factor, "With --regen: cross tolerance = spread x this (4)")
      ->check(CLI::Range(1.0, 1000.0));
  cmd->add_option("--ceiling", ceiling,
                  "With --regen: the most any series may move across machines, e.g. 'rel(0.01)' "
                  "(default rel(1e-3) of its largest value)");
  cmd->add_flag("--force", o.force, "With --regen: write the golden although a law is broken");
  cmd->add_flag("--band", o.band,
                "With --regen: a loop whose runs differ; write a band golden (mean and spread per step) "
                "of --runs N (3 or more) runs");
  cmd->add_option("--seed-arg", o.seed_arg,
                  "In the band lane: append these arguments to each run, {seed} replaced by its seed, "
                  "e.g. '--seed {seed}' (a band over seeds, not repeats)");
  cmd->add_option("--band-k", o.band_k,
                  "Holding a band golden: its width in spreads (default from its number of runs, "
                  "printed)")
      ->check(CLI::PositiveNumber);
}

}  // namespace

void finish_check_options(CheckOptions& o, const std::string& ceiling) {
  if (!o.expect_lr_spec.empty()) o.expect_lr = expected_lr(o.expect_lr_spec);
  if (!ceiling.empty()) o.ceiling = tolerance_option("--ceiling", ceiling);
  o.progress = stderr_progress();
}

CliCommand check_command() {
  struct Options : CheckOptions {
    ReportFiles reports;
  };
  auto o = std::make_shared<Options>();
  auto ceiling = std::make_shared<std::string>();
  return {[o, ceiling](CLI::App& app) {
            auto* check = app.add_subcommand("check",
                                             "Hold your own training command to the documents' laws: trainproof check "
                                             "[options] -- CMD [ARGS...]");
            add_check_options(check, *o);
            add_golden_options(check, *o, *ceiling);
            add_report_options(check, o->reports, ReportKind::kCheck);
            return check;
          },
          [o, ceiling] {
            finish_check_options(*o, *ceiling);
            const CheckReport r = trainproof::check(*o);
            emit_report(o->reports, [&](const Reporter& x) { return x.check(r); });
            return exit_code(r);
          }};
}

}  // namespace trainproof::cli
