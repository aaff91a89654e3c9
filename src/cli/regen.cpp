// `trainproof regen`: regenerate goldens deliberately, printing what changed.
#include <memory>

#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/core/errors.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/runner.h"

namespace trainproof::cli {

CliCommand regen_command(CliEnv& env) {
  struct Options {
    RegenOptions regen;
    ReportFiles reports;
  };
  auto o = std::make_shared<Options>();
  return {[&env, o](CLI::App& app) {
            RegenOptions& r = o->regen;
            auto* regen = app.add_subcommand("regen", "Regenerate goldens deliberately, printing what changed");
            regen->add_option("scenarios", r.scenarios, "Scenario names (default: all)");
            regen->add_option("--device", r.device, "cpu, cuda or all (the devices present)")->capture_default_str();
            regen->add_option("--golden", env.golden_dir, "Folder of golden .h5 files");
            regen->add_flag("--dry-run", r.dry_run, "Show what would change without writing");
            add_report_options(regen, o->reports, ReportKind::kRegen);
            regen
                ->add_option("--path-set", r.path_set,
                             "Execution paths whose spread sets the cross-environment tolerances (comma-separated; "
                             "default all)")
                ->capture_default_str();
            regen->add_option("--jobs", r.jobs, "Path processes at a time")
                ->capture_default_str()
                ->check(CLI::Range(1, 64));
            regen
                ->add_option("--safety-factor", r.safety_factor, "Cross tolerance = measured spread x this (default 4)")
                ->check(CLI::Range(1.0, 1000.0));
            regen->add_flag("--force", r.force,
                            "Write goldens even when an invariant breaks or a series exceeds its ceiling (recorded in "
                            "the golden)");
            return regen;
          },
          [&env, o] {
            o->regen.golden_dir = env.golden_dir;
            o->regen.progress = stderr_progress();
            const RegenReport r = trainproof::regen(o->regen);
            emit_report(o->reports, [&](const Reporter& x) { return x.regen(r); });
            return static_cast<int>(r.refused.empty() ? kExitOk : kExitMismatch);
          }};
}

}  // namespace trainproof::cli
