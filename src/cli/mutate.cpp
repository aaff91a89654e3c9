// `trainproof mutate [check options] -- CMD [ARGS...]`: the documents' mistakes planted into
// copies of the team's script, each held to check (runner/mutate.h).
#include <memory>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/check/mutate.h"

namespace trainproof::cli {

CliCommand mutate_command() {
  auto o = std::make_shared<MutateOptions>();
  return {[o](CLI::App& app) {
            auto* mutate = app.add_subcommand(
                "mutate",
                "What check would catch on your script: plant each of the documents' mistakes into a copy of it "
                "and check each copy: trainproof mutate [check options] -- PYTHON SCRIPT.py [ARGS...]");
            add_check_options(mutate, o->check);
            mutate->add_option("--only", o->only, "Only these mutations (comma-separated ids)")
                ->delimiter(',')
                ->allow_extra_args(false);
            mutate->add_option("--json", o->json, "Write the mutants' outcomes as JSON");
            mutate->add_option("--junit", o->junit, "Write them as JUnit XML (a survivor is a failure)");
            mutate->add_option("--markdown", o->markdown, "Write them as a Markdown table");
            return mutate;
          },
          [o] {
            finish_check_options(o->check, "");
            const MutateReport r = trainproof::mutate(*o);
            fmt::print("{}", mutate_table(r));
            write_mutate_reports(*o, r);
            return exit_code(r);
          }};
}

}  // namespace trainproof::cli
