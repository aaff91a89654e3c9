// `trainproof ddp-check`: run as every rank of a torchrun or srun job (distributed/ddp_main.h).
#include <memory>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/core/errors.h"
#include "trainproof/distributed/ddp_main.h"
#include "trainproof/runner/runner.h"

namespace trainproof::cli {

namespace {

// Each rank prints what it found; rank 0 then names every broken law with its rank and host,
// counts them, and writes the report files.
int print_ddp_check(const DdpCheckReport& r, const ReportFiles& reports) {
  const LaunchEnv& e = r.env;
  fmt::print("rank {} of {} (local rank {}, {} on {}, attempt {}) joined through the TCPStore at {}:{}\n", e.rank,
             e.world, e.local_rank, e.launcher, r.host, e.restart_count, e.master_addr, e.master_port);
  for (const auto& l : r.laws)
    fmt::print("rank {}: {:<8} {}{}\n", e.rank, ddp_row_status(l), l.heading(),
               l.detail.empty() ? "" : " (" + l.detail + ")");
  if (!r.ranks) return kExitOk;  // rank 0 decides the exit code
  fmt::print("ddp-check: {} ranks ({}), every rank's verdict:\n", e.world, e.launcher);
  emit_report(reports, [&](const Reporter& x) { return x.verify(*r.ranks); });
  return exit_code(*r.ranks);
}

}  // namespace

CliCommand ddp_check_command(CliEnv& env) {
  struct Options {
    DdpCheckOptions check;
    bool no_golden = false;
    ReportFiles reports;  // rank 0 writes them: every rank's laws
  };
  auto o = std::make_shared<Options>();
  return {[&env, o](CLI::App& app) {
            DdpCheckOptions& c = o->check;
            auto* ddp = app.add_subcommand("ddp-check",
                                           "Run as every rank of a torchrun or srun job: the data-parallel laws on "
                                           "those ranks, through a TCPStore");
            ddp->add_option("--run-dir", c.run_dir, "Checkpoints of the resume law (a folder every rank can reach)")
                ->required();
            add_report_options(ddp, o->reports, ReportKind::kDdpCheck);
            ddp->add_option("--golden", env.golden_dir, "Folder of golden .h5 files (ddp_equivalence.h5 is compared)");
            ddp->add_flag("--no-golden", o->no_golden, "Do not compare with the golden");
            ddp->add_option("--steps", c.steps, "Training steps of the resume law")
                ->capture_default_str()
                ->check(CLI::Range(2, 100000));
            ddp->add_option("--kill-at", c.kill_at, "The step after which the last rank SIGKILLs itself")
                ->capture_default_str()
                ->check(CLI::PositiveNumber);
            return ddp;
          },
          [&env, o] {
            DdpCheckOptions& c = o->check;
            if (c.kill_at >= c.steps)
              throw BadInput(fmt::format("--kill-at {} must be below --steps {}", c.kill_at, c.steps));
            if (!o->no_golden) c.golden = golden_path(env.golden_dir, "ddp_equivalence");
            return print_ddp_check(ddp_check(c), o->reports);
          }};
}

}  // namespace trainproof::cli
