// `trainproof record` (internal): the child side of the execution-path matrix.
#include <memory>

#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "src/process/process.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/runner.h"

namespace trainproof::cli {

CliCommand record_command() {
  struct Options {
    std::vector<std::string> scenarios;
    std::string device = "cpu", out;
  };
  auto o = std::make_shared<Options>();
  return {[o](CLI::App& app) {
            auto* rec = app.add_subcommand(
                kRecordEntry, "(internal) run scenarios and write their traces as JSON, for the path matrix");
            rec->group("");
            rec->add_option("scenarios", o->scenarios, "Scenario names (default: all)");
            rec->add_option("--device", o->device, "cpu or cuda")->capture_default_str();
            rec->add_option("--out", o->out, "Output file")->required();
            return rec;
          },
          [o] { return record(o->scenarios, o->device, o->out, stderr_progress()); }};
}

}  // namespace trainproof::cli
