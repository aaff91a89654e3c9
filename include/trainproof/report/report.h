// The reporters of a command's outcome (verdict/outcome.h): the console for people, and JSON,
// JUnit XML (a testcase per scenario x device x series, invariant, law or finding), one
// self-contained HTML page (a plot per series) and Markdown (for a pull request) for CI systems.
// One interface serves them all, as google/benchmark's BenchmarkReporter does: each renders the
// reports it holds as text, and any of them can be the screen ("-") or a file (written
// atomically).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "trainproof/core/progress.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// A reporter renders a command's report as text. verify() takes the report of verify, compare
// and ddp-check (r.kind says which); a reporter renders only what its format holds
// (ReportFormat::holds): asked for another, it throws std::logic_error. Of check's report each
// renders every field (CheckReportTest holds them to it) but these: the plots of its runs, which
// the HTML draws and JSON holds as numbers (the console, JUnit and Markdown leave them to those);
// the console's tolerances of a golden written, which its changes' cross tolerances say; and
// Markdown's changes in words, which its change table says in columns, and its tolerance table
// the cross tolerances.
class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual std::string verify(const VerifyReport& r) const = 0;
  virtual std::string check(const CheckReport& r) const = 0;
  virtual std::string regen(const RegenReport& r) const;
  virtual std::string tolerances(const std::vector<ToleranceRow>& rows) const;
  virtual std::string mutate(const MutateReport& r) const;
};

// The console: what verify, compare, regen, check, ddp-check, tolerances and mutate print for people
// (warnings also on stderr as it renders them).
std::unique_ptr<Reporter> console_reporter();
std::unique_ptr<Reporter> json_reporter();
std::unique_ptr<Reporter> junit_reporter();
std::unique_ptr<Reporter> html_reporter();
std::unique_ptr<Reporter> markdown_reporter();

// A format a command's report is written as: its name, the options that ask for it, what it
// holds, and its reporter. A new format is a file with its reporter and a row in
// report_formats() (report.cpp); every command whose report it holds then takes its option.
struct ReportFormat {
  std::string name;     // "json": its key in ReportFiles
  std::string options;  // "--json,--report", as CLI11 takes names
  std::string help;
  std::vector<ReportKind> holds;
  std::unique_ptr<Reporter> (*make)();
};
// The formats besides the console, which is the screen unless one of them is asked for there.
const std::vector<ReportFormat>& report_formats();

// Where each format asked for goes: a path per format name, "-" for the screen; an empty one is
// not written.
using ReportFiles = std::map<std::string, std::string>;
// A command's report, rendered by each reporter asked for: the console on stdout (unless a
// format takes the screen, "-"), and each format asked for into its file, atomically, in
// report_formats()'s order.
void emit_report(const ReportFiles& files, const std::function<std::string(const Reporter&)>& render);

// The console's progress: on stderr as it comes (stdout stays the report).
ProgressSink stderr_progress();

}  // namespace trainproof
