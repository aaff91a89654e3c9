// Where the pipeline's traces come from, and the functions that take them whatever their source.
//
// Every source of traces under the execution paths (process/exec_paths.h; the first is this
// machine as it is) returns the same thing: per path, what each name recorded there, or why the
// path could not record (PathRun). Two run under paths:
//  - scenarios, each path one child of the CLI, `trainproof record` (run_paths, path_matrix.h):
//    verify --paths, regen; a data-parallel scenario's ranks are started by it;
//  - a team's training command, one start per path in the path's environment, recording the name
//    "check" (check.cpp's command_runs): check --regen, whose first path is the uninterrupted
//    run check has made already.
// The third runs in this process as it is: record_here() records scenarios the way a `record`
// child does (`record` itself, and verify without --paths, which holds each as it comes).
// Whatever the source, one function holds a trace to its golden (hold_to_golden, verdict/golden_hold.h:
// verify, check --golden, ddp-check) and one drafts a golden from every path's traces
// (draft_across_paths: regen, check --regen), with one refusal rule (refuses_golden; both in verdict/golden_draft.h).
// check's band lane holds and makes band goldens with band.h's statistics instead, and compare
// holds one golden file to another under the policy the user names.
#pragma once

#include <string>
#include <vector>

#include <c10/core/Device.h>

#include "src/process/path_matrix.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/runner/runner.h"
#include "trainproof/verdict/golden_draft.h"

namespace trainproof {

// The scenarios run here, one after another, on `device`: each ok with its trace, skipped
// (Skipped: it cannot run here) or error with the reason; a line of progress per scenario; the
// fingerprint taken after the runs (CUDA's determinism flags are set by then).
Recording record_here(const std::vector<ScenarioDef>& defs, c10::Device device, const ProgressSink& progress);

// What a recording holds of `name`, the one ladder of both verify loops: its trace, or null with
// the entry that says why (skipped, an error, not recorded) added to the report.
const Trace* recorded_trace(const std::string& name, const std::string& label, const Recording& recording,
                            VerifyReport& report);

// What each path recorded of `name`, as a golden is drafted from it (draft_across_paths,
// verdict/golden_draft.h); the traces stay in `runs`.
std::vector<PathTrace> path_traces(const std::string& name, const std::vector<PathRun>& runs);

}  // namespace trainproof
