// `trainproof verify`: run scenarios and compare their traces with the goldens.
#include <memory>

#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/runner.h"

namespace trainproof::cli {

CliCommand verify_command(CliEnv& env) {
  struct Options {
    VerifyOptions verify;
    ReportFiles reports;
  };
  auto o = std::make_shared<Options>();
  return {[&env, o](CLI::App& app) {
            VerifyOptions& v = o->verify;
            auto* verify = app.add_subcommand("verify", "Run scenarios and compare their traces with the goldens");
            verify->add_option("scenarios", v.scenarios, "Scenario names (default: all)");
            verify->add_option("--device", v.device, "cpu, cuda or all (the devices present)")->capture_default_str();
            verify->add_option("--golden", env.golden_dir, "Folder of golden .h5 files");
            add_report_options(verify, o->reports, ReportKind::kVerify);
            verify->add_flag("--cross", v.force_cross,
                             "Apply the goldens' cross-environment tolerances even where the fingerprint matches");
            verify->add_flag("--require-all-devices", v.require_all_devices,
                             "With --device all: a device present here whose goldens lack its group is bad input "
                             "(exit 2), not NOT VERIFIED");
            verify->add_flag("--paths", v.paths,
                             "Run every scenario under each CPU execution path (ATen capability, MKL/oneDNN limits, "
                             "threads), each in its own process: simulates other machines on this one");
            verify
                ->add_option("--path-set", v.path_set,
                             "With --paths: comma-separated path names (`trainproof list` shows them)")
                ->capture_default_str();
            verify->add_option("--jobs", v.jobs, "With --paths: path processes at a time")
                ->capture_default_str()
                ->check(CLI::Range(1, 64));
            return verify;
          },
          [&env, o] {
            o->verify.golden_dir = env.golden_dir;
            o->verify.progress = stderr_progress();
            const VerifyReport r = trainproof::verify(o->verify);
            emit_report(o->reports, [&](const Reporter& x) { return x.verify(r); });
            return exit_code(r);
          }};
}

}  // namespace trainproof::cli
