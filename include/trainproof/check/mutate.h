// `trainproof mutate [check options] -- CMD`: what `check` would catch on the team's own script,
// measured by planting the documents' mistakes into copies of it (python/trainproof/mutate.py
// finds the sites and writes each mutant) and running `check` on each.
#pragma once

#include <string>
#include <vector>

#include "trainproof/check/check.h"

namespace trainproof {

struct MutateOptions {
  CheckOptions check;                 // as `check` takes them: each mutant is checked with these
  std::vector<std::string> only;      // --only ID,ID: these mutations only
  std::string json, junit, markdown;  // report files (empty: not written)
};

// One mutant: a mistake planted at a line, and what check made of it.
struct MutantResult {
  std::string id;     // the mutation: delete-zero-grad, drop-checkpoint-key, ...
  std::string what;   // "zero_grad() deleted"
  std::string where;  // file:line where it was planted (the same in the script and the mutant)
  enum class Outcome { kCaught, kSurvived, kNotApplicable } outcome = Outcome::kNotApplicable;
  std::string by;   // caught: the finding (id, step, line) or the broken law
  std::string why;  // survived or not applicable: why, as far as check can tell, and what would show it
};

struct MutateReport {
  std::vector<MutantResult> mutants;
  std::vector<std::string> base_findings;  // what the unmutated script draws (not evidence against a mutant)
  size_t caught = 0, survived = 0, not_applicable = 0;
  std::string summary() const;  // "mutate: N mutants, C caught, S survived, A not applicable"
};

// Runs check on the unmutated command, then on each mutant, one after another. Bad input (no
// Python script in the command, a script that does not parse, an --only ID no mutation has)
// throws BadInput.
MutateReport mutate(const MutateOptions& o);

// 0 when no mutant survived, 1 when one did.
int exit_code(const MutateReport& r);

// The report files o asks for (JSON, JUnit, Markdown), each written atomically.
void write_mutate_reports(const MutateOptions& o, const MutateReport& r);
// One row per mutant, then the summary line, as the console shows it.
std::string mutate_table(const MutateReport& r);

}  // namespace trainproof
