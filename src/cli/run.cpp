// `trainproof run SCENARIO [--device D]`: one scenario, printing what its document prints.
#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/runner/runner.h"

namespace trainproof::cli {

CliCommand run_command() {
  struct Options {
    std::string scenario, device = "cpu";
  };
  auto o = std::make_shared<Options>();
  return {[o](CLI::App& app) {
            auto* run = app.add_subcommand("run", "Run one scenario and print its document-style output");
            run->add_option("scenario", o->scenario, "Scenario name")->required();
            run->add_option("--device", o->device, "cpu, cuda or all")->capture_default_str();
            return run;
          },
          [o] {
            const VerifyReport r = trainproof::run(o->scenario, o->device, [](const std::string& line) {
              fmt::print("{}\n", line);
              std::fflush(stdout);  // live: a scenario can run for a minute
            });
            for (const auto& e : r.entries) {
              if (e.skipped())
                fmt::print(stderr, "{} on {}: skipped: {}\n", e.scenario, e.device, e.detail);
              else
                fmt::print(stderr, "invariant broken: {}: {}\n", e.name, e.detail);
            }
            return exit_code(r);
          }};
}

}  // namespace trainproof::cli
