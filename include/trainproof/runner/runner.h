// verify, regen, tolerances and run as library functions (compare is verdict/golden_compare.h's):
// each returns its report (verdict/outcome.h), which the console reporter prints and the report
// writers write; exit_code() of a report is the process's. Progress goes to the options' sink.
// Bad input throws BadInput.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "trainproof/core/compare.h"
#include "trainproof/core/progress.h"
#include "trainproof/runner/scenario.h"
#include "trainproof/verdict/golden_compare.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

std::vector<std::string> available_devices();
// "cpu", "cuda" or "all" (the devices present); BadInput for anything else or absent CUDA.
std::vector<std::string> resolve_devices(const std::string& flag);
// All registered scenarios when `names` is empty; BadInput naming an unknown one.
std::vector<ScenarioDef> resolve_scenarios(const std::vector<std::string>& names);
std::filesystem::path golden_path(const std::filesystem::path& dir, const std::string& scenario);

// What verify does when a golden has no group for a device it runs: the CPU, and a device
// named by --device, need one (bad input); a GPU that `--device all` found is reported NOT
// VERIFIED (neither pass nor fail; exit 0) unless --require-all-devices.
enum class MissingGroup { kBadInput, kNotVerified };
MissingGroup missing_group_policy(const std::string& dev, const std::string& device_flag, bool require_all_devices);

struct VerifyOptions {
  std::vector<std::string> scenarios;
  std::string device = "all";
  std::filesystem::path golden_dir;
  bool force_cross = false;          // apply the cross-environment tolerances even on the golden's machine
  bool paths = false;                // run every scenario under each execution path, each in its own process
  std::string path_set = "all";      // which paths (comma-separated names)
  int jobs = 1;                      // path processes at a time
  bool require_all_devices = false;  // a present device without goldens is bad input, not NOT VERIFIED
  ProgressSink progress;             // a line per scenario (per path with --paths)
};
VerifyReport verify(const VerifyOptions& o);

struct RegenOptions {
  std::vector<std::string> scenarios;
  std::string device = "all";
  std::filesystem::path golden_dir;
  bool dry_run = false;
  std::string path_set = "all";
  int jobs = 1;
  double safety_factor = 0;  // 0: kDefaultSafetyFactor
  bool force = false;        // write even what would be refused, and record that in the golden
  ProgressSink progress;     // a line per execution path
};
// Writes the goldens it does not refuse (none with dry_run); a refused scenario is in
// `refused` and exit 1.
RegenReport regen(const RegenOptions& o);

// compare(): two golden files, or two folders of them (verdict/golden_compare.h).

// Runs one scenario, handing each document-style line to `echo` as it is printed (the CLI
// shows them); the report holds its broken invariants and skips (an empty report: everything held).
VerifyReport run(const std::string& scenario, const std::string& device, const LineSink& echo);

// Runs scenarios in this process and writes their traces, invariants and this process's
// fingerprint to `out` (the child side of the path matrix).
int record(const std::vector<std::string>& scenarios, const std::string& device, const std::filesystem::path& out,
           const ProgressSink& progress);

// Per series of the goldens: the cross-environment tolerance, where it came from, and the
// smallest relative change it catches.
std::vector<ToleranceRow> tolerances(const std::vector<std::string>& scenarios,
                                     const std::filesystem::path& golden_dir);

// What `list` shows of a scenario's golden: its device groups ("cpu+cuda"), "missing", or
// "CORRUPT (verify says why)".
std::string golden_status(const std::filesystem::path& golden_dir, const std::string& scenario);

// TRAINPROOF_THREADS sets LibTorch's intra-op thread count: how the execution-path matrix
// runs thread counts above the machine's cores (OMP_NUM_THREADS is capped at them).
void apply_thread_count();

}  // namespace trainproof
