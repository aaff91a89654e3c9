// `trainproof tolerances`: per golden series, its cross tolerance, provenance and power.
#include <memory>

#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/core/errors.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/runner.h"

namespace trainproof::cli {

CliCommand tolerances_command(CliEnv& env) {
  struct Options {
    std::vector<std::string> scenarios;
    ReportFiles reports;
  };
  auto o = std::make_shared<Options>();
  return {[&env, o](CLI::App& app) {
            auto* tol = app.add_subcommand("tolerances",
                                           "Per golden series: the cross-environment tolerance, its provenance, the "
                                           "smallest change it catches");
            tol->add_option("scenarios", o->scenarios, "Scenario names (default: all)");
            tol->add_option("--golden", env.golden_dir, "Folder of golden .h5 files");
            add_report_options(tol, o->reports, ReportKind::kTolerances);
            return tol;
          },
          [&env, o] {
            const auto rows = tolerances(o->scenarios, env.golden_dir);
            emit_report(o->reports, [&](const Reporter& x) { return x.tolerances(rows); });
            return static_cast<int>(kExitOk);
          }};
}

}  // namespace trainproof::cli
