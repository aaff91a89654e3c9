// The console reporter: what verify, compare, regen, check and tolerances print for people (stdout;
// warnings also on stderr). The file writers are in report.h.
#pragma once

#include <vector>

#include "trainproof/core/progress.h"
#include "trainproof/report/report.h"

namespace trainproof {

// Progress as the console shows it: on stderr as it comes (stdout stays the report).
ProgressSink stderr_progress();

// The result tables: series (and run problems), then invariants.
void print_results(const std::vector<ReportEntry>& entries);

// verify: the tables, the fingerprint notes, the summary line, devices not verified; with
// --paths the checks not passing, a row per path, and which paths agreed bitwise.
void print_verify_report(const VerifyReport& r);

// compare: the table and "compare: N series (...), all within tolerance | DIFFERENT".
void print_compare_report(const VerifyReport& r);

// regen: per device and scenario what changed, what refused it, and the files written.
void print_regen_report(const RegenReport& r);

// What a fresh golden changes, a series per two lines (regen, check --regen).
void print_changes(const std::vector<RegenChange>& changes);

// check: the golden written or refused (--regen), the laws, the findings, and a line of counts.
void print_check_report(const CheckReport& r);

// tolerances: a row per golden series.
void print_tolerances(const std::vector<ToleranceRow>& rows);

}  // namespace trainproof
