// `trainproof mutate [check options] -- CMD`: what `check` would catch on the team's own script,
// measured by planting the documents' mistakes into copies of it (python/trainproof/mutate.py
// finds the sites and writes each mutant) and running `check` on each.
#pragma once

#include <string>
#include <vector>

#include "trainproof/check/check.h"

namespace trainproof {

struct MutateOptions {
  CheckOptions check;             // as `check` takes them: each mutant is checked with these
  std::vector<std::string> only;  // --only ID,ID: these mutations only
};

// Runs check on the unmutated command, then on each mutant, one after another (the outcome:
// MutateReport, verdict/outcome.h; its reporters: report/report.h). Bad input (no
// Python script in the command, a script that does not parse, an --only ID no mutation has)
// throws BadInput.
MutateReport mutate(const MutateOptions& o);

}  // namespace trainproof
