// `trainproof mutate [check options] -- CMD [ARGS...]`: the documents' mistakes planted into
// copies of the team's script, each held to check (check/mutate.h).
#include <memory>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/check/mutate.h"
#include "trainproof/report/report.h"

namespace trainproof::cli {

CliCommand mutate_command() {
  struct Options : MutateOptions {
    ReportFiles reports;
  };
  auto o = std::make_shared<Options>();
  return {[o](CLI::App& app) {
            auto* mutate = app.add_subcommand(
                "mutate",
                "What check would catch on your script: plant each of the documents' mistakes into a copy of it "
                "and check each copy: trainproof mutate [check options] -- PYTHON SCRIPT.py [ARGS...]");
            add_check_options(mutate, o->check);
            mutate->add_option("--only", o->only, "Only these mutations (comma-separated ids)")
                ->delimiter(',')
                ->allow_extra_args(false);
            add_report_options(mutate, o->reports, ReportKind::kMutate);
            return mutate;
          },
          [o] {
            finish_check_options(o->check, "");
            const MutateReport r = trainproof::mutate(*o);
            emit_report(o->reports, [&](const Reporter& x) { return x.mutate(r); });
            return exit_code(r);
          }};
}

}  // namespace trainproof::cli
