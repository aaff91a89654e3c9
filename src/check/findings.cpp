// The catalog of findings (trainproof/check/findings.h).
#include "trainproof/check/findings.h"

#include <algorithm>

#include <fmt/format.h>

#include <stdexcept>

namespace trainproof {

namespace {

constexpr std::string_view kExactly = "003, Checkpoint and Resume — Exactly", kMistakes = "003, Common mistakes",
                           kReproducibility = "003, Reproducibility",
                           kAtAnotherSize =
                               "003, Checkpoint and Resume — Exactly, at "
                               "another world size",
                           kGoldens = "DESIGN.md, golden traces (the documents' printed outputs)",
                           kSilent = "beyond the documents: a silent bug, shown by the run";

}  // namespace

const std::vector<LawKind>& law_catalog() {
  static const std::vector<LawKind> rows = {
      {law::kDeterminism, kReproducibility},
      {law::kExactResume, kExactly},
      {law::kReshard, kAtAnotherSize},
      {law::kSchedule, "000, Learning Rate Warmup"},
      {law::kGoldenCurve, kGoldens},
      {law::kBand, kGoldens},
      {law::kFinalLoss, kGoldens},
      {law::kCheckpoints, kExactly, /*judged=*/false},
      {law::kTrainingLoop, kMistakes, /*judged=*/false},
  };
  return rows;
}

size_t law_place(std::string_view law) {
  const auto& rows = law_catalog();
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const LawKind& k) { return k.id == law; });
  if (it == rows.end()) throw std::logic_error(fmt::format("law '{}' is not in the catalog (findings.h)", law));
  return static_cast<size_t>(it - rows.begin());
}

std::string law_heading(std::string_view id, std::string_view what) {
  law_place(id);  // a law the catalog lacks throws
  return fmt::format("{}: {}", id, what);
}

std::string_view law_of(const std::string& entry_name) {
  std::string_view best;
  for (const auto& k : law_catalog())
    if (entry_name.rfind(k.id, 0) == 0 && k.id.size() > best.size()) best = k.id;
  return best;
}

const std::vector<FindingKind>& finding_catalog() {
  using namespace finding_id;
  static const std::vector<FindingKind> rows = {
      {kResumeMissingRngState,
       law::kExactResume,
       kExactly,
       false,
       {"delete-restore", "save-only-model", "unseedable-sampler", "drop-checkpoint-key"}},
      {kResumeRngRedrawn, law::kExactResume, kExactly, false, {"ignore-data-skip"}},
      {kResumeMissingOptimizerState,
       law::kExactResume,
       kExactly,
       false,
       {"delete-restore", "save-only-model", "drop-checkpoint-key"}},
      {kResumeMissingSchedulerState,
       law::kExactResume,
       kExactly,
       false,
       {"delete-restore", "save-only-model", "drop-checkpoint-key"}},
      {kResumeMissingDataPosition,
       law::kExactResume,
       kExactly,
       false,
       {"delete-restore", "ignore-data-skip", "unseedable-sampler", "drop-checkpoint-key"}},
      {kResumeSampleValuesDiffer, law::kExactResume, kExactly},
      {kResumeMissingScalerState, law::kExactResume, kExactly, false, {"delete-restore", "drop-checkpoint-key"}},
      {kResumeParamsDiffer, law::kExactResume, kExactly, false, {"delete-restore"}},
      {kResumeStateEqualValuesDiffer, law::kExactResume, kExactly},
      {kResumeCarriedStateDiffers, law::kExactResume, kExactly},
      {kNonAtomicCheckpoint,
       law::kExactResume,
       "003, Checkpoint and Resume — Exactly, \"write atomically\"",
       false,
       {"atomic-save-made-direct"}},
      {kCheckpointMissingState,
       law::kCheckpoints,
       kExactly,
       false,
       {"delete-restore", "save-only-model", "drop-checkpoint-key"}},
      {kReshardStateDiffers, law::kReshard, kAtAnotherSize},
      {kReshardSamplesDiffer, law::kReshard, kAtAnotherSize},
      {kUnsafeTorchLoad, law::kCheckpoints, kMistakes, false, {"weights-only-false"}},
      {kZeroGradMissing, law::kTrainingLoop, kMistakes, false, {"delete-zero-grad"}},
      {kEvalModeForgotten, law::kTrainingLoop, kMistakes, false, {"delete-eval"}},
      {kTrainModeForgotten, law::kTrainingLoop, kMistakes, false, {"delete-train"}},
      {kValidationWithGrad, law::kTrainingLoop, "003, validate under no_grad", /*advice=*/true, {"delete-no-grad"}},
      {kSoftmaxBeforeCrossEntropy, law::kTrainingLoop, kMistakes, false, {"softmax-before-cross-entropy"}},
      {kWeightDecayOnBiasOrNorm, law::kTrainingLoop, kMistakes, false, {"no-decay-group-decayed"}},
      {kClipBeforeUnscale, law::kTrainingLoop, "000, A Mixed-Precision Training Loop", false, {"delete-unscale"}},
      {kSchedulerPerEpoch, law::kSchedule, "000, Learning Rate Warmup", false, {"scheduler-per-epoch"}},
      {kSchedulerBeforeOptimizer, law::kSchedule, kMistakes, false, {"scheduler-before-optimizer"}},
      {kUnseededRng, law::kDeterminism, kReproducibility, false, {"delete-manual-seed"}},
      {kNondeterministicOp, law::kDeterminism, kReproducibility, false, {"delete-manual-seed"}},
      {kOptimizerStepChangesNothing, law::kTrainingLoop, kSilent, false, {"optimizer-lr-zero"}},
      {kOptimizerParamWithoutGrad, law::kTrainingLoop, kSilent, false, {"freeze-after-optimizer"}},
      {kTrainedParamInNoOptimizer, law::kTrainingLoop, kSilent, false, {"optimizer-drops-a-parameter"}},
      {kTrainOpInEvalMode, law::kTrainingLoop, kSilent, false, {"functional-training-true"}},
  };
  return rows;
}

const FindingKind& finding_kind(std::string_view id) {
  const auto& rows = finding_catalog();
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const FindingKind& k) { return k.id == id; });
  if (it == rows.end()) throw std::logic_error(fmt::format("finding '{}' is not in the catalog (findings.h)", id));
  return *it;
}

Finding make_finding(std::string_view id, int64_t step, std::string where, std::string detail) {
  const FindingKind& k = finding_kind(id);
  Finding f;
  f.id = std::string(k.id);
  f.law = std::string(k.law);
  f.step = step;
  f.where = std::move(where);
  f.detail = std::move(detail);
  f.advice = k.advice;
  return f;
}

}  // namespace trainproof
