// Deliberate faults for negative controls. TRAINPROOF_INJECT_FAULT=name[,name...] makes the
// named component misbehave, so a test can prove that the check guarding it fails:
//   sampler-no-base-seed   ShuffledBatches skips DataLoader's base-seed draw
//   scaler-no-backoff      GradScaler keeps its scale after an inf step
//   lambda-off-by-one      LambdaLR evaluates its function one step ahead
//   rank<r>-dies, rank<r>-hangs, rank<r>-skips-allreduce   a data-parallel rank misbehaves
//   throw-in-<scenario>    the scenario fails to run (an internal error, exit 3)
// Unset (always, outside such tests) every component behaves as documented.
#pragma once

#include <string_view>

namespace trainproof {

bool fault_injected(std::string_view name);

}  // namespace trainproof
