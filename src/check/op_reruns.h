// The reruns judging may ask for, handed to it as this narrow interface: the command run again
// with op-level digests (TRAINPROOF_OP_DIGESTS) up to where two runs parted, so that the first
// op with equal inputs and different outputs can be named. A live check runs them through its
// Launcher; a replay (check --replay) reads the runs an earlier check kept under the same names.
#pragma once

#include <memory>
#include <vector>

#include "src/check/check_laws.h"
#include "src/check/check_runs.h"
#include "src/check/probe_findings.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

class OpReruns {
 public:
  virtual ~OpReruns() = default;
  // Two uninterrupted runs `a` and `b` parted: both rerun up to the step where they parted, and
  // the first op with equal inputs and different outputs (nondeterministic-op); none where the
  // runs hold no probe records or a rerun failed.
  virtual std::vector<Finding> parting_op(const RecordedTrace& a, const RecordedTrace& b) const = 0;
  // A resume departed at `d` with every digest of the state equal: a run stopped where the
  // restart resumed and restarted, and the uninterrupted run, both digesting the departing step's
  // ops; `finding` with the first op that parts named (where and detail), or as it was.
  virtual Finding resume_parting_op(const RecordedTrace& straight, const ResumeDeparture& d, Finding finding) const = 0;
};

// The reruns as `launch` runs them (or replays them), each said on `progress`.
std::unique_ptr<OpReruns> launched_op_reruns(const Launcher& launch, Progress& progress);

}  // namespace trainproof
