// Every finding `trainproof check` can name, in one table: its id, the law it belongs to, the
// documents' passage it comes from, and whether it is advice (said, never breaking a law). The
// code that names a finding takes its id from finding_id below and the rest from the table
// (make_finding); `trainproof list --findings --json` exports the table, and the claims test
// holds docs/check.md's findings table and mutate.py's mutations to it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trainproof/verdict/outcome.h"

namespace trainproof {

namespace finding_id {
inline constexpr std::string_view kResumeMissingRngState = "resume-missing-rng-state";
inline constexpr std::string_view kResumeRngRedrawn = "resume-rng-redrawn";
inline constexpr std::string_view kResumeMissingOptimizerState = "resume-missing-optimizer-state";
inline constexpr std::string_view kResumeMissingSchedulerState = "resume-missing-scheduler-state";
inline constexpr std::string_view kResumeMissingDataPosition = "resume-missing-data-position";
inline constexpr std::string_view kResumeSampleValuesDiffer = "resume-sample-values-differ";
inline constexpr std::string_view kResumeMissingScalerState = "resume-missing-scaler-state";
inline constexpr std::string_view kResumeParamsDiffer = "resume-params-differ";
inline constexpr std::string_view kResumeStateEqualValuesDiffer = "resume-state-equal-values-differ";
inline constexpr std::string_view kResumeCarriedStateDiffers = "resume-carried-state-differs";
inline constexpr std::string_view kNonAtomicCheckpoint = "non-atomic-checkpoint";
inline constexpr std::string_view kCheckpointMissingState = "checkpoint-missing-state";
inline constexpr std::string_view kReshardStateDiffers = "reshard-state-differs";
inline constexpr std::string_view kReshardSamplesDiffer = "reshard-samples-differ";
inline constexpr std::string_view kUnsafeTorchLoad = "unsafe-torch-load";
inline constexpr std::string_view kZeroGradMissing = "zero-grad-missing";
inline constexpr std::string_view kEvalModeForgotten = "eval-mode-forgotten";
inline constexpr std::string_view kTrainModeForgotten = "train-mode-forgotten";
inline constexpr std::string_view kValidationWithGrad = "validation-with-grad";
inline constexpr std::string_view kSoftmaxBeforeCrossEntropy = "softmax-before-cross-entropy";
inline constexpr std::string_view kWeightDecayOnBiasOrNorm = "weight-decay-on-bias-or-norm";
inline constexpr std::string_view kClipBeforeUnscale = "clip-before-unscale";
inline constexpr std::string_view kSchedulerPerEpoch = "scheduler-per-epoch";
inline constexpr std::string_view kSchedulerBeforeOptimizer = "scheduler-before-optimizer";
inline constexpr std::string_view kUnseededRng = "unseeded-rng";
inline constexpr std::string_view kNondeterministicOp = "nondeterministic-op";
inline constexpr std::string_view kOptimizerStepChangesNothing = "optimizer-step-changes-nothing";
inline constexpr std::string_view kOptimizerParamWithoutGrad = "optimizer-param-without-grad";
inline constexpr std::string_view kTrainedParamInNoOptimizer = "trained-param-in-no-optimizer";
inline constexpr std::string_view kTrainOpInEvalMode = "train-op-in-eval-mode";
}  // namespace finding_id

// The laws: those check holds a run to (an entry of their own in its report, headed
// "<law>: <what it holds here>", law_heading), and the two that only findings break (the script's
// checkpoints and its training loop). Each finding names its law.
namespace law {
inline constexpr std::string_view kDeterminism = "determinism";
inline constexpr std::string_view kExactResume = "exact resume";
inline constexpr std::string_view kReshard = "resume at another world size";
inline constexpr std::string_view kSchedule = "the schedule";
inline constexpr std::string_view kGoldenCurve = "the golden curve";
inline constexpr std::string_view kBand = "the band";
inline constexpr std::string_view kFinalLoss = "the final loss";
inline constexpr std::string_view kCheckpoints = "checkpoints";
inline constexpr std::string_view kTrainingLoop = "the training loop";
}  // namespace law

struct LawKind {
  std::string_view id;
  std::string_view document;  // where it comes from
  bool judged = true;         // held or broken by a run (an entry of its own); else only findings break it
};
// Every law, in the order a report lists them.
const std::vector<LawKind>& law_catalog();
// Where `law` stands in law_catalog(); a law the catalog lacks is a bug of trainproof's
// (InternalError).
size_t law_place(std::string_view law);
// "<law>: <what>", the name of a law's entry in a report; a law the catalog lacks is a bug of
// trainproof's (InternalError).
std::string law_heading(std::string_view law, std::string_view what);
// The law a report entry's name is headed by (the catalog's longest id it begins with); "" for none.
std::string_view law_of(const std::string& entry_name);

// A row of the findings catalog.
struct FindingKind {
  std::string_view id;
  std::string_view law;       // law::kExactResume, law::kTrainingLoop, ...: as the report heads it
  std::string_view document;  // the documents' passage: "003, Common mistakes"
  bool advice = false;        // said, never breaking a law
  // The mutations of `trainproof mutate` (python/trainproof/mutate.py) that plant it: a mutant of
  // one of them is caught by this finding as expected.
  std::vector<std::string_view> planted_by = {};
};

// The catalog, in the order docs/check.md's findings table lists it.
const std::vector<FindingKind>& finding_catalog();

// The row of `id`; an id the catalog lacks is a bug of trainproof's (InternalError).
const FindingKind& finding_kind(std::string_view id);

// A finding of `id`, its law and advice from the catalog, at `step` (-1: none) and `where`.
Finding make_finding(std::string_view id, int64_t step, std::string where, std::string detail);

}  // namespace trainproof
