// What `trainproof check` concludes from the probe's records (python/trainproof/probe/):
// where each restart of a preempted run resumed, found by content, and which piece of state a
// broken resume is missing. Torch-free; the probe only observes, every judgement is here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "trainproof/core/recorded_trace.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// Where one restart of a preempted run picked up: its first optimizer step is the
// uninterrupted run's step `step` (1-based), found as `how`.
struct RestartAlignment {
  int start = 0;         // the restart's start number (2 = after kill 1)
  int64_t step = 0;      // 1: it began again at the first step
  std::string how;       // "parameter digest", "optimizer step counter", or "not found: ..."
  bool initial = false;  // aligned by the initial parameters: it began from the first step's state
};

// Aligns each restart of `resumed` with `straight` (both probe traces) by the parameters'
// digest before its first step (ties broken by the most other equal digests), else by the
// optimizer's own step counter, else assumes it began again at step 1.
std::vector<RestartAlignment> align_restarts(const RecordedTrace& straight, const RecordedTrace& resumed);

// Each start's offset: its `seq`th step is the uninterrupted run's step offset + seq (the first
// start, not among the restarts, 0).
std::map<int, int64_t> step_offsets(const std::vector<RestartAlignment>& restarts);

// The preempted run's steps as the uninterrupted run numbers them, later starts overwriting
// the steps they redo: what the exact-resume law compares.
void renumber_steps(RecordedTrace& resumed, const std::vector<RestartAlignment>& restarts);

// The RNG digests that change during the reference run's first start: the RNGs the loop draws
// from. The others (an RNG the loop never uses, seeded from the OS at import) are not compared.
std::set<std::string> used_rngs(const RecordedTrace& reference);

// The digests of `a` that differ from `b`'s, in the order a diagnosis names them (params,
// optimizer, scheduler, lr values, the RNGs of `rngs`, batch, order: its samples' indices, scaler).
std::vector<std::string> differing_state(const ProbeStep& a, const ProbeStep& b, const std::set<std::string>& rngs);

// Where a preempted run first departs from the uninterrupted one: in which restart (resumed at
// which step), at which step of the uninterrupted run, and which digests differ there (none,
// with values that differ: state the probe does not see).
struct ResumeDeparture {
  RestartAlignment restart;
  int64_t step = 0;  // 1-based, as the uninterrupted run numbers it
  std::vector<std::string> differing;
};
std::optional<ResumeDeparture> first_departure(const RecordedTrace& straight, const RecordedTrace& resumed,
                                               const std::vector<RestartAlignment>& restarts);

// The missing piece(s) of state named where the preempted run (`resumed`) first departs:
//   resume-params-differ, resume-missing-optimizer-state, resume-missing-scheduler-state,
//   resume-missing-rng-state, resume-rng-redrawn (the torch RNG restored from the checkpoint,
//   then drawn from again before the step: a re-drawn shuffle, or with the same samples the
//   workers' base seed), resume-missing-data-position (the batch differs while every RNG agrees:
//   other samples), resume-sample-values-differ (the same samples' indices, other values: a
//   transform seeded anew), resume-missing-scaler-state;
//   resume-state-equal-values-differ (every digest equal: check reruns the step with op-level
//   digests, see parting_op_after_restart).
std::vector<Finding> diagnose_resume(const RecordedTrace& resumed, const ResumeDeparture& departure);

// non-atomic-checkpoint: a torch.save straight onto the file a restart then loads with
// torch.load (a kill during that save leaves the checkpoint torn; the atomic way saves to
// another name and renames it).
// `killed_writing`: the file kill 1 landed in the write of (empty: none), which confirms it;
// written by other means than torch.save, it is named where a restart then torch.load'ed it.
std::vector<Finding> non_atomic_saves(const RecordedTrace& resumed, const std::string& killed_writing);

// checkpoint-missing-state for a file a restart loads that holds a model's state_dict alone (a
// dict of tensors, nothing beside it in its folder): the optimizer, the step and the RNG state
// the run has are not resumed. Judged on the preempted run, where the restart's load shows.
std::vector<Finding> model_only_resumes(const RecordedTrace& resumed);

// What a checkpoint holds: the pieces of state of `save` and of every file saved beside it (the
// same folder, after the same step: Trainer's checkpoint-N/, accelerate's save_state folder),
// and the step where the folder is named by it.
std::set<std::string> checkpoint_holds(const RecordedTrace& run, const ProbeFileOp& save);
// What the run has that the checkpoint `save` belongs to does not hold, in the order of its needs.
std::vector<std::string> checkpoint_lacks(const RecordedTrace& run, const ProbeFileOp& save);

// What the run's first checkpoint (with steps after it) lacks of the state the run has, as its
// saves' keys and shapes suggest: a guess that a restart from it shows or refutes.
std::vector<std::string> first_checkpoint_lacks(const RecordedTrace& run);

// Two runs whose torch.manual_seed() was given different values (a seed drawn with random, the
// time, the pid, os.urandom): unseeded-rng at the line that drew it, else at the manual_seed line.
std::vector<Finding> seed_drawn_anew(const RecordedTrace& a, const RecordedTrace& b);

// The documents' mistakes in the script itself, from the probe's facts of the run's first
// start (document 003, "Common mistakes"), each with its id, step and file:line:
//   zero-grad-missing, eval-mode-forgotten, train-mode-forgotten, softmax-before-cross-entropy,
//   weight-decay-on-bias-or-norm, clip-before-unscale, scheduler-per-epoch,
//   scheduler-before-optimizer, unsafe-torch-load, checkpoint-missing-state, unseeded-rng,
//   validation-with-grad (advice).
std::vector<Finding> script_findings(const RecordedTrace& run);
// unsafe-torch-load: a torch.load(..., weights_only=False) in any start (a restart loads).
std::vector<Finding> unsafe_loads(const RecordedTrace& run);

// The step (1-based) where two runs' probe records first differ; 0 when they agree.
int64_t first_probe_step_difference(const RecordedTrace& a, const RecordedTrace& b);

// nondeterministic-op: from two reruns with op-level digests up to the step where the runs
// part, the first op whose inputs were bitwise equal and whose outputs were not, with its line
// (a random op on an unseeded generator, a kernel with atomics). Empty when none is found.
std::vector<Finding> first_parting_op(const RecordedTrace& a, const RecordedTrace& b, int64_t step);

// After a resume that departs with every digest equal: from the restart's and the
// uninterrupted run's op records of the departing step, aligned at their ends (the restart's
// begin with building the model and loading the checkpoint), the first op with equal inputs
// and different outputs, and what it means. Empty when none is found.
struct PartingOp {
  ProbeOp op;
  std::string meaning;  // what state the checkpoint lacks, and the fix
};
std::optional<PartingOp> parting_op_after_restart(const std::vector<ProbeOp>& restart,
                                                  const std::vector<ProbeOp>& straight);

// The first step where two uninterrupted runs' probe records differ, and what differs there
// ("" when they agree): the determinism law's evidence beyond the scalar series.
std::string first_probe_difference(const RecordedTrace& a, const RecordedTrace& b);
// The first of the probe's final digests (the parameters at exit) both runs hold and that differs:
// its key ("params", "params.1"), or "" where none does.
std::string differing_final_digest(const RecordedTrace& a, const RecordedTrace& b);

}  // namespace trainproof
