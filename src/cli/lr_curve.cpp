// `trainproof lr-curve KIND [options]`: the rate a scheduler configuration gives at every step
// (training/lr_curve.h); `check --expect-lr` parses its SPEC with the same options.
#include <memory>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/core/errors.h"
#include "trainproof/training/lr_curve.h"

namespace trainproof::cli {
namespace {

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

int print_lr_curve(LrCurveCli& c, const std::vector<CLI::App*>& kinds) {
  const std::vector<double> lrs = parsed_lr_curve(c, kinds);
  std::string out;
  for (size_t i = 0; i < lrs.size(); ++i) out += fmt::format("{} {:.17g}\n", i, lrs[i]);
  fmt::print("{}", out);
  return kExitOk;
}

}  // namespace

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

CliCommand lr_curve_command() {
  struct State {
    LrCurveCli cli;
    std::vector<CLI::App*> kinds;
  };
  auto st = std::make_shared<State>();
  return {[st](CLI::App& app) {
            add_lr_curve(app, st->cli, st->kinds);
            return app.get_subcommand("lr-curve");
          },
          [st] { return print_lr_curve(st->cli, st->kinds); }};
}

}  // namespace trainproof::cli
