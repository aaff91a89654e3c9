// The outcome of a command, one model for every command and every reporter: a status (which
// absorbs compare.h's verdicts), an entry per series, invariant, law, finding, document line or
// run, the findings of check, and each command's report (verify, compare, regen, check,
// ddp-check). The reporters (report/) render these; the judging (golden_hold.h, golden_draft.h,
// fingerprint.h) makes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "trainproof/core/compare.h"
#include "trainproof/core/trace.h"

namespace trainproof {

// A verdict's status, one for every kind of check: a series against its golden (pass, FAIL,
// MISSING, NEW, LENGTH, DTYPE: compare.h's verdicts), an invariant, a law or a finding (pass,
// BROKEN), a run (BAD INPUT, ERROR); and neither pass nor fail: skipped (the scenario cannot
// run here), NOT VERIFIED (no golden for this device yet), NOT TESTED (a law of check's that
// could not be put to the test: no kill landed in a write). Said but never broken: advice (a
// law of check's band lane, a finding the documents give as advice) and allowed (a finding
// accepted knowingly, check --allow); both count as passed.
enum class Status {
  kPass,
  kFail,
  kMissing,
  kNew,
  kLength,
  kDType,
  kBroken,
  kBadInput,
  kError,
  kSkipped,
  kNotVerified,
  kNotTested,
  kAdvice,
  kAllowed  // the last (status_from_text reads back every status up to it)
};
// As the reports print it and the JSON holds it: "pass", "FAIL", ..., "BAD INPUT", "skipped", "NOT VERIFIED",
// "NOT TESTED", "advice", "allowed".
const char* status_text(Status s);
// status_text() read back (a verdict that crossed a process boundary as text); nullopt for any
// other text.
std::optional<Status> status_from_text(const std::string& text);
// A law's status as check and ddp-check print it: "held" for pass, else status_text().
const char* law_status_text(Status s);
Status status_of(Verdict v);

// What an entry judges: a series against its golden; an invariant of a scenario or a law of
// check or ddp-check (one kind: a rule of the documents a run must hold); a finding in a
// team's script; a document's printed lines; or a run (bad input, a skip, an error).
enum class EntryKind { kSeries, kInvariant, kFinding, kDocument, kRun };
// "series", "invariant", "finding", "document", "run": as the JSON holds it.
const char* entry_kind_text(EntryKind k);
// entry_kind_text() read back (an entry that crossed a process boundary); nullopt for any other text.
std::optional<EntryKind> entry_kind_from_text(const std::string& text);

// One verdict: a series, an invariant, a law, a finding, a document's printed lines, or a run.
struct ReportEntry {
  std::string scenario, device;
  EntryKind kind = EntryKind::kRun;
  std::string name;  // series or invariant name
  Status status = Status::kPass;
  std::string tolerance, detail;
  double max_abs = 0, max_rel = 0;
  uint64_t max_ulp = 0;
  int64_t first_divergence = -1;
  bool cross_environment = false;
  std::vector<double> golden, observed;  // the series' values, for plots

  ReportEntry() = default;
  ReportEntry(std::string scenario_, std::string device_, EntryKind kind_, std::string name_, Status status_,
              std::string tolerance_, std::string detail_)
      : scenario(std::move(scenario_)),
        device(std::move(device_)),
        kind(kind_),
        name(std::move(name_)),
        status(status_),
        tolerance(std::move(tolerance_)),
        detail(std::move(detail_)) {}
  bool passed() const { return status == Status::kPass || status == Status::kAdvice || status == Status::kAllowed; }
  bool skipped() const {
    return status == Status::kSkipped || status == Status::kNotVerified || status == Status::kNotTested;
  }
  bool failed() const { return !passed() && !skipped(); }
  // What a row names as a report lists it: a series as "golden loss within ulp(4)", else its name.
  std::string heading() const;
};

// An invariant of a scenario, or a law of check or ddp-check (a rule of the documents a run
// must hold), as every report holds it: an entry of kind "invariant"; held is pass, else
// BROKEN (or skipped, advice).
ReportEntry law_entry(std::string scenario, std::string device, std::string name, Status status,
                      std::string detail = "");
inline Status law_held(bool held) {
  return held ? Status::kPass : Status::kBroken;
}
// A difference or spread as reports print it: three significant digits ("0", "1.2e-07", "inf").
std::string short_num(double v);

// How many checks passed, failed, and were skipped (never counted as passes).
struct Tally {
  size_t passed = 0, failed = 0, skipped = 0;
  std::string str() const;  // "12 passed, 0 failed, 1 skipped"
};
Tally tally(const std::vector<ReportEntry>& entries);

// verify --paths: what one execution path found, and what it changes in the fingerprint.
struct PathSummary {
  std::string name, env;
  size_t checks = 0, failing = 0;
  double seconds = 0;
  std::vector<std::string> fingerprint;  // "field: golden -> path"; empty: the golden's own environment
};
// verify --paths: per scenario, the paths grouped by bitwise identical traces, in path order.
struct PathAgreement {
  std::string scenario;
  std::vector<std::vector<std::string>> groups;
};

// A mistake `trainproof check` names in a user's script: a fixed id, the step it shows at, the
// script's own file:line, and what was seen. It breaks its law unless it is advice or allowed.
struct Finding {
  std::string id;      // resume-missing-rng-state, non-atomic-checkpoint, ...
  std::string law;     // the law it breaks ("exact resume", ...)
  int64_t step = -1;   // -1: not tied to one step
  std::string where;   // file:line
  std::string detail;  // what differs and what to fix
  bool advice = false;
  bool allowed = false;  // accepted knowingly (--allow ID)
  bool breaks() const { return !advice && !allowed; }
  // "exact resume at step 12 (train.py:88)": the law, the step and the line, as every report heads it.
  std::string heading() const;
  Status status() const;  // kBroken, kAdvice or kAllowed
};

// check: one recorded scalar across the command's runs, as its HTML report plots it: a line per
// run (the uninterrupted run first) over the uninterrupted run's steps (NaN where a run has no
// value), the steps after which the preempted run was killed and at which each restart resumed,
// the step it first departs at, and each finding at the step it names.
struct RunPlot {
  struct Line {
    std::string run;  // "uninterrupted", "uninterrupted again", "killed and restarted"
    std::vector<double> values;
  };
  struct Mark {
    int64_t step = 0;
    std::string what;  // a finding's id
  };
  std::string series;
  std::vector<int64_t> steps;
  std::vector<Line> lines;
  std::vector<int64_t> kills, restarts;
  int64_t departure = -1;
  std::vector<Mark> findings;
};

// The commands whose reports there are: a reporter renders each (report/report.h).
enum class ReportKind { kVerify, kCompare, kCheck, kDdpCheck, kRegen, kTolerances, kMutate };
// "verify", "compare", "check", "ddp-check", "regen", "tolerances", "mutate"
const char* report_kind_text(ReportKind k);

// What verify, compare and ddp-check found (`kind` says whose); check has its own (CheckReport).
struct VerifyReport {
  ReportKind kind = ReportKind::kVerify;
  std::vector<ReportEntry> entries;
  std::vector<std::string> fingerprint_notes;
  // "scenario/device: verdict" where a golden failed or held only by its envelope: whether the
  // environment moved, the code, or both (verdict/fingerprint.h, environment_verdict).
  std::vector<std::string> verdicts;
  // Devices present here that were not verified, each with the reason and the command that
  // creates their goldens (verify --device all on a GPU machine with CPU-only goldens).
  std::vector<std::string> unverified_devices;
  double seconds = 0;
  bool force_cross = false;              // --cross: cross tolerances applied on the golden's own environment
  std::vector<PathSummary> paths;        // verify --paths only
  std::vector<PathAgreement> agreement;  // verify --paths only
  // What the report was made under, as "name: value" pairs (ddp-check: the launcher, the world
  // size, the launcher's restart attempt).
  std::vector<std::pair<std::string, std::string>> context;
  // verify on the CPU: the documents' printed lines, and how many of them the runs printed exactly
  // (document_lines_last_digit: where the golden was made elsewhere, lines whose numbers
  // differ from the document's by one unit of the last printed digit)
  size_t document_lines = 0, document_lines_equal = 0, document_lines_last_digit = 0;
};

// The exit code of a report (errors.h): bad input outranks an internal error, which outranks
// a mismatch or broken invariant; skipped and NOT VERIFIED checks are neither.
int exit_code(const VerifyReport& r);

// One line per series of a fresh golden against the old one (and for a pull-request comment).
struct RegenChange {
  std::string scenario, device, series, change;  // change: new, unchanged, changed, removed
  size_t values = 0, changed_values = 0;
  double max_rel = 0;
  std::string detail;
  std::string what;   // the change in words: "unchanged", "new (60 values, float32)", "changed: ..."
  std::string cross;  // its cross-environment tolerance, and the spread that set it
};
// Per series of a golden: its cross-environment tolerance, where it came from, and the
// smallest relative change it catches (every value scaled by 1 + r).
struct ToleranceRow {
  std::string scenario, device, series, dtype, cross, provenance;
  double spread_rel = 0;
  std::string differing;  // paths not bitwise equal to the reference
  double catches = 0;     // infinity: informational
};
// What regen did on one device: the paths that ran, and per scenario what changed and what
// refused it (a broken law, a series beyond its ceiling).
struct RegenScenario {
  std::string scenario, device;
  std::string skipped;  // why it did not run on this device ("" = it ran); its group is kept
  std::vector<RegenChange> changes;
  std::vector<std::string> problems;  // each refuses the golden unless --force
  bool refused = false;               // problems, no --force: not written
};
struct RegenDevice {
  std::string device;
  std::vector<std::string> paths;  // execution paths whose spread set the cross tolerances
  double safety_factor = 0;
  std::vector<RegenScenario> scenarios;
};
struct RegenReport {
  std::vector<RegenDevice> devices;
  std::vector<ToleranceRow> tolerances;
  std::vector<std::string> written;  // golden files written (dry run: that would be)
  bool dry_run = false;
  std::vector<std::string> refused;   // scenarios whose golden was not written
  std::vector<std::string> replaced;  // old goldens that could not be read, and why: replaced
};

// check --regen: the golden written, or refused.
struct CheckGoldenWrite {
  std::string path;
  std::string made_of;                   // "3 execution paths, safety factor 4", or the band's runs and width
  std::vector<RegenChange> changes;      // an exact golden: each series against the old golden's
  std::vector<ToleranceRow> tolerances;  // an exact golden: each series' tolerance row
  std::vector<std::string> series;       // a band golden: a line per series (its final value and spread)
  std::vector<std::string> problems;     // each refuses the golden, unless --force (then kept in it as forced)
  std::string replaced;                  // why the old golden could not be read ("": read, or none)
  bool written = false;
  // What each problem made of the golden, as every report heads it.
  const char* problem_status() const { return written ? "FORCED (--force)" : "REFUSED"; }
};
// What check found, each thing once; every reporter renders each field its format holds
// (report/report.h says which), and CheckReportTest.EveryReporterRendersEveryFieldItHolds fails on
// one dropped.
struct CheckReport {
  std::vector<ReportEntry> laws;           // kind "invariant", in the order held: pass, BROKEN, NOT TESTED or advice
  std::vector<ReportEntry> series;         // --golden: each recorded series held to the golden (kind "series")
  std::vector<Finding> findings;           // each once, in the order named
  std::vector<RunPlot> run_plots;          // its runs, a plot per recorded scalar
  std::optional<CheckGoldenWrite> golden;  // --regen: the golden written or refused
  std::string kept;                        // --keep: where the runs are
  double seconds = 0;
};
// Its verdicts as report entries, as JSON's results and JUnit's testcases list them: the
// series, the laws, then the findings.
std::vector<ReportEntry> check_entries(const CheckReport& r);
// Its laws counted (advice is said, not counted): held is passed, broken failed, NOT TESTED skipped.
Tally law_tally(const CheckReport& r);
// 1 when a law or a finding breaks, or the golden was refused; else 4 when a law could not be
// tested (NOT TESTED); else 0.
int exit_code(const CheckReport& r);

// mutate: one mutant, a mistake planted at a line, and what check made of it.
struct MutantResult {
  std::string id;     // the mutation: delete-zero-grad, drop-checkpoint-key, ...
  std::string what;   // "zero_grad() deleted"
  std::string where;  // file:line where it was planted (the same in the script and the mutant)
  enum class Outcome { kCaught, kSurvived, kNotApplicable } outcome = Outcome::kNotApplicable;
  std::string by;   // caught: the finding (id, step, line) or the broken law
  std::string why;  // survived or not applicable: why, as far as check can tell, and what would show it
};
// "caught", "SURVIVED", "not applicable"
const char* outcome_text(MutantResult::Outcome o);

// What mutate found: each mutant's outcome, and what the unmutated script draws.
struct MutateReport {
  std::vector<MutantResult> mutants;
  std::vector<std::string> base_findings;  // what the unmutated script draws (not evidence against a mutant)
  size_t caught = 0, survived = 0, not_applicable = 0;
  std::string summary() const;  // "mutate: N mutants, C caught, S survived, A not applicable"
};
// 0 when no mutant survived, 1 when one did.
int exit_code(const MutateReport& r);

}  // namespace trainproof
