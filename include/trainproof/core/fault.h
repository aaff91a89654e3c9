// Deliberate faults for negative controls. TRAINPROOF_INJECT_FAULT=name[,name...] makes the
// named mistake on purpose, so a test can prove that the check guarding against it fails.
// Each scenario lists the faults that must break its invariants (TRAINPROOF_SCENARIO_INFO;
// `trainproof list --json` prints them all). Besides those:
//   sampler-no-base-seed   ShuffledBatches skips DataLoader's base-seed draw (oracle control)
//   rank<r>-dies, rank<r>-hangs, rank<r>-skips-allreduce   one data-parallel rank misbehaves
//                          (distributed_test: the launcher names the rank)
//   throw-in-<scenario>    the scenario fails to run (an internal error, exit 3)
//   kill-misses-other-sessions   a kill reaches the child's process group only, not its
//                          descendants in sessions of their own (check_process_tree_test)
//   spawn-inherits-parent-state   a child keeps the parent's descriptors above 2, blocked
//                          signals and ignored ones (process_test)
//   resume-trusts-one-run  check names a departed resume's missing state without a second run
//                          to show the loop deterministic (check_values_law_test: clock-control)
//   crash-at-start         the CLI raises SIGSEGV as it starts (cli_test: the crash report)
// Unset (always, outside such tests) every component behaves as documented.
#pragma once

#include <string_view>

namespace trainproof {

bool fault_injected(std::string_view name);

}  // namespace trainproof
