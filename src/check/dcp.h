// DCP checkpoints (torch.distributed.checkpoint) as check judges them: a folder every rank
// writes, `.metadata` last, after every rank's files. What the probe records of them is its Dcp
// part's (python/trainproof/probe/dcp.py); what check makes of those records is here, and the
// findings about checkpoints (probe_findings.h) ask it. Internal to src/check.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "trainproof/check/findings.h"
#include "trainproof/core/recorded_trace.h"

namespace trainproof {

// What a DCP save holds: the keys its metadata holds once written (the dcp-saved fact: the state
// the script's Stateful objects gave, which the probe never asks of them itself). nullopt for a
// torch.save, whose record says what the saved object holds.
std::optional<std::set<std::string>> dcp_saved_holds(const RecordedTrace& run, const ProbeFileOp& save);

// The folder a save writes into: a DCP checkpoint is a folder of its own.
std::string checkpoint_folder(const ProbeFileOp& save);

// Two saves of one checkpoint where one of them is DCP's: the other beside its folder (each rank's
// RNG state saved next to the DCP checkpoint's folder).
bool beside_dcp_folder(const ProbeFileOp& a, const ProbeFileOp& b);

// non-atomic-checkpoint for a restart that loaded a DCP folder without `.metadata`: a checkpoint a
// kill tore (one that loads only folders holding it loads whole checkpoints).
std::optional<Finding> torn_dcp_load(const RecordedTrace& resumed);

}  // namespace trainproof
