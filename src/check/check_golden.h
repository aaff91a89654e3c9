// The golden lanes of `trainproof check`: the exact lane's golden (held against its tolerances,
// or regenerated across the CPU execution paths) and the band lane (core/band.h) for a loop
// whose runs are not bitwise equal. Internal to src/check; check.cpp runs them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "src/check/check_laws.h"
#include "src/check/check_runs.h"
#include "src/process/exec_paths.h"
#include "trainproof/check/check.h"
#include "trainproof/core/progress.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/trace.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/verdict/fingerprint.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// The check golden's group at `path`. Read before anything runs, so that a missing or damaged
// golden is bad input at once.
DeviceGolden load_check_golden(const std::filesystem::path& path);

// The trace against the golden's tolerances (cross-machine ones when the golden was made
// elsewhere); each series' row goes into `series`.
Law golden_law(const RecordedTrace& run, const DeviceGolden& golden, const CheckOptions& o,
               std::vector<ReportEntry>& series);

// The fingerprint of the process that trained: this machine's (CPU, ISA), with what describes a
// torch taken from the probe's record of the trained process (its torch version and build,
// threads, ATen's CPU capability, Python, devices, frameworks) in place of this program's
// LibTorch. A Recorder's trace (no such record) keeps the host's whole.
Fingerprint trained_fingerprint(const RecordedTrace& run);

// --regen: the execution paths the golden's tolerances are measured on (--paths of this CPU's);
// the first is the uninterrupted run's.
std::vector<ExecPath> regen_paths(const CheckOptions& o);
// --regen: the command once more under each other execution path (the uninterrupted run
// `straight` is the first path's), and the golden written atomically, or refused.
CheckGoldenWrite regen_golden(const Launcher& launch, const RecordedTrace& straight, const std::vector<Law>& laws,
                              const CheckOptions& o, Progress& progress);

// The band lane: `n` runs of the command (run i with seed first_seed + i under --seed-arg).
std::vector<RecordedTrace> band_runs(const Launcher& launch, const CheckOptions& o, int n, int64_t first_seed,
                                     Progress& progress);
// Runs that differ are what the band lane is for: said, not held against the loop.
Law determinism_advice(const std::vector<RecordedTrace>& runs);
// --regen --band: the band golden written, or refused.
CheckGoldenWrite regen_band(const std::vector<RecordedTrace>& runs, const std::vector<Law>& laws,
                            const CheckOptions& o);
// A band golden held by `runs`.
std::vector<Law> band_laws(const DeviceGolden& golden, const std::vector<RecordedTrace>& runs, const CheckOptions& o);

}  // namespace trainproof
