// `trainproof ddp-worker` (internal): one rank of a data-parallel run, started by the launcher.
#include <memory>

#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "src/process/process.h"
#include "trainproof/distributed/ddp_main.h"
#include "trainproof/report/report.h"

namespace trainproof::cli {

CliCommand ddp_worker_command() {
  auto o = std::make_shared<WorkerOptions>();
  return {
      [o](CLI::App& app) {
        auto* worker =
            app.add_subcommand(kDdpWorkerEntry, "(internal) one rank of a data-parallel run, started by the launcher");
        worker->group("");  // not listed in --help: the launcher starts it
        // Without --store, the rank and the world come from torchrun's or srun's environment.
        auto* rank = worker->add_option("--rank", o->rank);
        auto* world = worker->add_option("--world", o->world)->check(CLI::Range(1, 64));
        worker->add_option("--store", o->store)->needs(rank)->needs(world);
        worker->add_option("--task", o->task, "A registered rank task (include/trainproof/distributed/rank_task.h)");
        worker->add_option("--options", o->options, "The task's options: JSON, or @FILE holding it");
        worker->add_option("--backend", o->backend)->check(CLI::IsMember({"gloo", "nccl"}));
        worker->add_option("--out", o->out, "The run's folder")->required();
        return worker;
      },
      [o] {
        o->progress = stderr_progress();
        return ddp_worker_main(*o);
      }};
}

}  // namespace trainproof::cli
