// verify, regen, record and tolerances as functions the CLI calls: each prints its report,
// writes what it was asked to, and returns the exit code (0 pass, 1 mismatch or broken
// law, 2 bad input).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "trainproof/core/compare.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/scenario.h"

namespace trainproof {

std::vector<std::string> available_devices();
// "cpu", "cuda" or "all" (the devices present); BadInput for anything else or absent CUDA.
std::vector<std::string> resolve_devices(const std::string& flag);
// All registered scenarios when `names` is empty; BadInput naming an unknown one.
std::vector<ScenarioDef> resolve_scenarios(const std::vector<std::string>& names);
std::filesystem::path golden_path(const std::filesystem::path& dir, const std::string& scenario);

// The result tables of verify and compare: series (and run problems), then invariants.
void print_results(const std::vector<ReportEntry>& entries);
ReportEntry series_entry(const std::string& scenario, const std::string& dev, const SeriesComparison& c, bool cross);

// What verify does when a golden has no group for a device it runs: the CPU, and a device
// named by --device, need one (bad input); a GPU that `--device all` found is reported NOT
// VERIFIED (neither pass nor fail; exit 0) unless --require-all-devices.
enum class MissingGroup { kBadInput, kNotVerified };
MissingGroup missing_group_policy(const std::string& dev, const std::string& device_flag, bool require_all_devices);

struct VerifyOptions {
  std::vector<std::string> scenarios;
  std::string device = "all";
  std::filesystem::path golden_dir;
  std::string json, junit, html;
  bool force_cross = false;          // apply the cross-environment tolerances even on the golden's machine
  bool paths = false;                // run every scenario under each execution path, each in its own process
  std::string path_set = "all";      // which paths (comma-separated names)
  int jobs = 1;                      // path processes at a time
  bool require_all_devices = false;  // a present device without goldens is bad input, not NOT VERIFIED
};
int verify(const VerifyOptions& o);

struct RegenOptions {
  std::vector<std::string> scenarios;
  std::string device = "all";
  std::filesystem::path golden_dir;
  bool dry_run = false;
  std::string markdown;
  std::string path_set = "all";
  int jobs = 1;
  double safety_factor = 0;  // 0: kDefaultSafetyFactor
  bool force = false;        // write even what would be refused, and record that in the golden
};
int regen(const RegenOptions& o);

// What regen prints for each series of a fresh golden trace against the old one (null: a new
// golden), collected for --markdown; and each series' tolerance row.
void describe_changes(const Trace* old_trace, const Trace& fresh, const std::string& scenario, const std::string& dev,
                      std::vector<RegenChange>& changes);
void add_tolerance_rows(const std::string& scenario, const std::string& dev, const Trace& t,
                        std::vector<ToleranceRow>& rows);

// Runs scenarios in this process and writes their traces, invariants and this process's
// fingerprint to `out` (the child side of the path matrix).
int record(const std::vector<std::string>& scenarios, const std::string& device, const std::filesystem::path& out);

// Per series of the goldens: the cross-environment tolerance, where it came from, and the
// smallest relative change it catches; optionally as a Markdown table.
int show_tolerances(const std::vector<std::string>& scenarios, const std::filesystem::path& golden_dir,
                    const std::string& markdown);

}  // namespace trainproof
