// `trainproof train textclf` and `trainproof preempt` (textclf_cli.h).
#include "workloads/textclf/textclf_cli.h"

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "trainproof/runner/runner.h"
#include "workloads/textclf/preempt.h"
#include "workloads/textclf/textclf.h"

namespace trainproof {

std::vector<CliCommand> textclf_commands() {
  struct Train {
    TextClfOptions o;
    std::string device = "cpu";
  };
  auto tc = std::make_shared<Train>();
  auto po = std::make_shared<PreemptOptions>();
  CliCommand train{
      [tc](CLI::App& app) {
        auto* train = app.add_subcommand("train", "Train a model with the documents' loop, resuming from checkpoints");
        auto* textclf = train->add_subcommand("textclf", "Text classifier on the fortunes corpus")->fallthrough();
        train->require_subcommand(1);
        auto& o = tc->o;
        textclf->add_option("--ckpt-dir", o.ckpt_dir, "Checkpoint folder (resumes from its newest valid checkpoint)")
            ->required();
        textclf->add_option("--steps", o.steps, "Optimizer steps")->capture_default_str()->check(CLI::PositiveNumber);
        textclf->add_option("--ckpt-every", o.ckpt_every, "Steps between checkpoints")
            ->capture_default_str()
            ->check(CLI::PositiveNumber);
        textclf->add_option("--device", tc->device, "cpu or cuda")
            ->capture_default_str()
            ->check(CLI::IsMember({"cpu", "cuda"}));
        textclf->add_option("--amp", o.amp, "auto, bf16 or fp16 (fp16 adds a GradScaler)")->capture_default_str();
        textclf->add_option("--corpus", o.corpus, "Folder of fortune files")->capture_default_str();
        textclf->add_option("--seed", o.seed, "Seed")->capture_default_str();
        textclf->add_option("--sabotage", o.sabotage, "Negative control for preempt")->capture_default_str();
        return train;
      },
      [tc] {
        if (tc->device == "cuda") resolve_devices("cuda");  // a clear exit 2 without CUDA
        tc->o.device = c10::Device(tc->device);
        return train_textclf(tc->o);
      }};
  CliCommand preempt{[po](CLI::App& app) {
                       auto* preempt = app.add_subcommand(
                           "preempt",
                           "Kill and resume `train textclf` for real; compare bitwise with an uninterrupted run");
                       preempt->add_option("--trials", po->trials, "Trials")->capture_default_str();
                       preempt->add_option("--seed", po->seed, "Seed of the kill schedule")->capture_default_str();
                       preempt
                           ->add_option("--sabotage", po->sabotage,
                                        "none | drop-optimizer | drop-scheduler | drop-scaler | drop-rng | "
                                        "drop-data-position | non-atomic-save")
                           ->capture_default_str()
                           ->check(CLI::IsMember({"none", "drop-optimizer", "drop-scheduler", "drop-scaler", "drop-rng",
                                                  "drop-data-position", "non-atomic-save"}));
                       preempt->add_option("--steps", po->steps, "Optimizer steps per run")
                           ->capture_default_str()
                           ->check(CLI::PositiveNumber);
                       preempt->add_option("--ckpt-every", po->ckpt_every, "Steps between checkpoints")
                           ->capture_default_str()
                           ->check(CLI::PositiveNumber);
                       preempt->add_option("--corpus", po->corpus, "Folder of fortune files");
                       return preempt;
                     },
                     [po] { return run_preempt(*po); }};
  return {train, preempt};
}

}  // namespace trainproof
