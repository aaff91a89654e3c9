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
                           kGoldens = "DESIGN.md, golden traces (the documents' printed outputs)";

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

std::string law_heading(std::string_view id, std::string_view what) {
  const auto& rows = law_catalog();
  if (std::none_of(rows.begin(), rows.end(), [&](const LawKind& k) { return k.id == id; }))
    throw std::logic_error(fmt::format("law '{}' is not in the catalog (findings.h)", id));
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
      {kResumeMissingRngState, law::kExactResume, kExactly},
      {kResumeRngRedrawn, law::kExactResume, kExactly},
      {kResumeMissingOptimizerState, law::kExactResume, kExactly},
      {kResumeMissingSchedulerState, law::kExactResume, kExactly},
      {kResumeMissingDataPosition, law::kExactResume, kExactly},
      {kResumeMissingScalerState, law::kExactResume, kExactly},
      {kResumeParamsDiffer, law::kExactResume, kExactly},
      {kResumeStateEqualValuesDiffer, law::kExactResume, kExactly},
      {kNonAtomicCheckpoint, law::kExactResume, "003, Checkpoint and Resume — Exactly, \"write atomically\""},
      {kCheckpointMissingState, law::kCheckpoints, kExactly},
      {kReshardStateDiffers, law::kReshard, kAtAnotherSize},
      {kReshardSamplesDiffer, law::kReshard, kAtAnotherSize},
      {kUnsafeTorchLoad, law::kCheckpoints, kMistakes},
      {kZeroGradMissing, law::kTrainingLoop, kMistakes},
      {kEvalModeForgotten, law::kTrainingLoop, kMistakes},
      {kTrainModeForgotten, law::kTrainingLoop, kMistakes},
      {kValidationWithGrad, law::kTrainingLoop, "003, validate under no_grad", /*advice=*/true},
      {kSoftmaxBeforeCrossEntropy, law::kTrainingLoop, kMistakes},
      {kWeightDecayOnBiasOrNorm, law::kTrainingLoop, kMistakes},
      {kClipBeforeUnscale, law::kTrainingLoop, "000, A Mixed-Precision Training Loop"},
      {kSchedulerPerEpoch, law::kSchedule, "000, Learning Rate Warmup"},
      {kSchedulerBeforeOptimizer, law::kSchedule, kMistakes},
      {kUnseededRng, law::kDeterminism, kReproducibility},
      {kNondeterministicOp, law::kDeterminism, kReproducibility},
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
