// Drafting a golden group, the one way regen and check --regen draft theirs, whatever made the
// traces (scenarios under the execution paths, or a team's own command under them): each series'
// cross-environment tolerance from its spread across the paths, what it changes against the old
// golden, its tolerance row, and the one refusal rule.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "trainproof/core/trace.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/verdict/fingerprint.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// Each series' tolerance row: its cross-environment tolerance, where it came from, and the
// smallest relative change it catches.
void add_tolerance_rows(const std::string& scenario, const std::string& dev, const Trace& t,
                        std::vector<ToleranceRow>& rows);

// The one refusal rule of regen and check --regen (exact and band goldens alike): any problem
// refuses a golden unless --force; a forced golden keeps its problems, a line each.
bool refuses_golden(const std::vector<std::string>& problems, bool force);
std::string forced_problems(const std::vector<std::string>& problems);

// A fresh golden group, drafted the one way regen and check --regen draft theirs:
// - every series' cross-environment tolerance: its spread across the other execution paths'
//   traces, times the safety factor, and, where `previous` is a golden made on another machine,
//   that machine's values too where they still hold (a series some steps do not log keeps NaN);
// - what it changes against the old group's trace (`old`; null: a new golden), series by series;
// - each series' tolerance row;
// - the problems that refuse it: those given (a broken law or invariant, a path that failed)
//   and each series that moves beyond its ceiling. One rule: any problem refuses the golden,
//   unless --force (then the golden keeps them as forced).
struct GoldenDraftOptions {
  std::string scenario, device;
  double safety_factor = 0;         // the cross tolerance is the spread times this
  const Trace* old = nullptr;       // the golden group this one replaces
  const Trace* previous = nullptr;  // the old group, where it was made on another machine
  std::vector<std::string> problems;
  std::string ceiling_hint;  // appended to a series beyond its ceiling (check: " (--ceiling)")
  bool force = false;
};
struct GoldenDraft {
  Trace trace;
  std::vector<std::string> problems;
  std::vector<RegenChange> changes;
  std::vector<ToleranceRow> tolerances;
  bool refused = false;  // refuses_golden(problems, force): not to be written
};
GoldenDraft draft_golden(Trace fresh, const std::vector<std::pair<std::string, const Trace*>>& paths,
                         GoldenDraftOptions o);

// What one execution path made of the thing a golden is drafted for: its trace, or why it has
// none. The first path of a draft is the reference: its trace is the golden's values.
struct PathTrace {
  std::string path;                   // the execution path's name
  std::string missing;                // the path recorded nothing of it: why ("it was not recorded", the run's error)
  RunStatus status = RunStatus::kOk;  // else: how its run ended
  std::string reason;                 // why it was skipped or failed
  const Trace* trace = nullptr;       // with kOk
};

// A golden group drafted from what every path recorded of it (draft_golden): paths[0] is the
// reference and must have recorded. The problems of the paths join o.problems: it failed to run,
// a path could not record, a path's status differs from the reference's, an invariant is broken
// on a path. `old_group` is the group it replaces; where it was made in another environment than
// `here` (the reference's), its values also join the spread where they still hold (this sets
// o.old and o.previous from it).
GoldenDraft draft_across_paths(const std::vector<PathTrace>& paths, const Fingerprint& here,
                               const DeviceGolden* old_group, GoldenDraftOptions o);

}  // namespace trainproof
