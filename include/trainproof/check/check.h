// `trainproof check -- CMD [ARGS...]`: the documents' laws applied to a team's own training
// command, in any language, run the way production runs it: repeated, and SIGKILLed and
// restarted. The command records its trace through python/trainproof (or the C++ Recorder
// of core/recorded_trace.h) into $TRAINPROOF_TRACE, and keeps its checkpoints in
// $TRAINPROOF_RUN_DIR (also substituted for {run_dir} in its arguments).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "trainproof/core/progress.h"
#include "trainproof/core/tolerance.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

struct CheckOptions {
  std::vector<std::string> command;  // CMD ARGS...
  int kills = 0;                     // SIGKILLs of one run, each followed by a restart
  uint64_t seed = 0;                 // where the kills land
  std::filesystem::path keep;        // keep the runs' folders and traces here (default: a temporary folder)
  double timeout_s = 600;            // per start of the command
  // --resume-args ARGS: appended (split as a shell splits words, {run_dir} substituted) to the
  // command on every restart after a kill, for scripts that resume on a flag
  // (--init_from=resume, --resume PATH).
  std::string resume_args;
  // The probe (python/trainproof/probe/) in every Python process the command starts: what
  // the script did, with no recorder calls in it. --no-probe turns it off.
  bool probe = true;
  // --reference TRACE: the uninterrupted run's trace from an earlier check (--keep DIR keeps it
  // as DIR/uninterrupted-1.trace) stands in for this check's uninterrupted runs; determinism is
  // then not checked. For checking several resume variants of one script against one run.
  std::filesystem::path reference;
  // --restart-nproc N: each restart after a kill runs torchrun with N processes per node instead
  // (--nproc-per-node rewritten): a resume at another world size, held to the resharded resume's
  // law (reshard.h) instead of the bitwise one.
  int restart_nproc = 0;
  // --replay DIR: judge the runs an earlier `check --keep DIR` kept (with the same options and
  // command), running nothing: its judging alone, from recorded evidence, in milliseconds.
  std::filesystem::path replay;
  int runs = 2;  // uninterrupted runs: 2 checks determinism, 1 does not (findings and one-run laws only)
  std::vector<std::string> allow;  // --allow ID: findings accepted knowingly (reported as allowed)

  // --expect-lr SPEC: the rate each recorded step must log as "lr" (lr_curve(SPEC), one per
  // step in step order), and the SPEC as the user wrote it.
  std::vector<double> expect_lr;
  std::string expect_lr_spec;

  // --golden FILE: the trace must lie within the tolerances of this golden (schema of
  // golden_store.h, one "cpu" group). With --regen it is written instead, its cross-machine
  // tolerances measured by running the command under each execution path of `path_set`.
  std::filesystem::path golden;
  bool regen = false;
  std::string path_set = "all";      // --regen: execution paths whose spread sets the tolerances
  double safety_factor = 0;          // --regen: 0 = kDefaultSafetyFactor
  std::optional<Tolerance> ceiling;  // --regen: the most a series may move across machines (default: rel(1e-3))
  bool force = false;                // --regen: write although a law is broken

  // The band lane (core/band.h), for a loop whose runs are not bitwise equal: --regen --band
  // writes a band golden (golden schema 3) of --runs N >= 3 runs; a band golden given to
  // --golden is held by --runs M runs (each within k spreads; with M >= 2 their final values
  // by a one-sided Welch t-test); determinism is then advice, not a law.
  bool band = false;
  // --seed-arg ARGS: appended to each run's command in this lane, {seed} replaced by the run's
  // seed (0..N-1 for the band, N.. for the runs that hold it): a band over seeds, not repeats.
  std::string seed_arg;
  double band_k = 0;  // --band-k: the band's width in spreads (0: default_band_k of the golden's runs)

  ProgressSink progress;  // which run of how many, and the time so far
};

// Laws, each held or broken:
//  - determinism: two uninterrupted runs record bitwise equal traces and final parameters;
//  - exact resume (--kills K): a run SIGKILLed K times (the first kill on its first write
//    into the run folder after a recorded step, found with inotify; the others at recorded
//    steps) and restarted each time ends with the uninterrupted run's trace and parameters,
//    bitwise; a restart that fails is a broken law, not a harness error;
//  - the schedule (--expect-lr): the recorded "lr" of every step equals the schedule's;
//  - the golden curve (--golden): the trace lies within the golden's tolerances (--regen
//    writes the golden instead, refusing while a law is broken unless --force); when it fails,
//    or holds only by the cross-machine envelope, the verdict says whether the environment
//    moved, the code, or both;
//  - in the band lane: the band and the final values (CheckOptions::band).
// Findings (probe_findings.h) name what breaks a law: the missing piece of state of a broken
// resume (resume-missing-rng-state, ...), a non-atomic checkpoint; each with the step and the
// script's file:line.
// Returns the report (report.h; console.h prints it, exit_code() is its exit code: 0 all hold,
// 1 one is broken). Bad input (the command is not found, fails on its first uninterrupted run,
// records no trace, the golden is missing or unreadable) throws BadInput: exit 2.
CheckReport check(const CheckOptions& o);

}  // namespace trainproof
