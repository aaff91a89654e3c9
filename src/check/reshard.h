// A resume at another world size (check --restart-nproc N): a torchrun job SIGKILLed and restarted
// with N processes per node, its checkpoint resharded as it loads (DCP's). Bitwise equality cannot
// hold across the reshard (each step's reductions run in another order), so its law is:
//  - the state the restart trains from is the checkpoint's, element for element: its parameters and
//    optimizer state equal the uninterrupted run's at the step it resumed at (or, after a later
//    kill, the preempted run's own state there), compared by the ranks' layout-free sums
//    (python/trainproof/probe/layout.py): the sum of every rank's part, whatever the split;
//  - no sample is skipped or repeated: each step after the restart trains on the samples the
//    uninterrupted run's step of that number trained on (the sums of the steps' batches, exact);
//  - the later steps hold to a band of the uninterrupted run: the loss (the ranks' mean) within
//    kReshardBand, the learning rate exactly.
// Judging is a pure function of the two runs' records (judge_reshard); reshard_law runs the
// preempted run for it.
#pragma once

#include <string>
#include <vector>

#include "src/check/check_laws.h"
#include "src/check/processes.h"
#include "trainproof/check/check.h"

namespace trainproof {

// How far the loss of a step after the reshard may lie from the uninterrupted run's, relative.
// A changed reduction order moves a float32 loss by about 1e-7 over a short run (sharded_dcp.py,
// 2 ranks to 1); a skipped batch or a lost optimizer state by 1e-2 and more.
inline constexpr double kReshardBand = 1e-4;

struct ReshardVerdict {
  Law law;
  std::vector<Finding> findings;
};

// The law of the preempted run `preempted` (its processes' records, launch by launch) against the
// uninterrupted run `straight`, the restarts on `to` processes per node where the run began on
// `from`. `notes`: where the kills landed, said in the verdict.
ReshardVerdict judge_reshard(const ProcessRun& straight, const ProcessRun& preempted, int from, int to,
                             const std::vector<std::string>& notes);

// The preempted run, restarted with o.restart_nproc processes per node, judged. `runs_differ`
// (check_laws.h), asked where it departs: where two uninterrupted runs differ, the law is NOT TESTED.
ReshardVerdict reshard_law(const Launcher& launch, const ProcessRun& straight, const CheckOptions& o,
                           const RunsDiffer& runs_differ, Progress& progress);

}  // namespace trainproof
