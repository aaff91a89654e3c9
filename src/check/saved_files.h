// What a run's saves were, as the evidence shows them (the probe's `saved` and `dcp-saved` facts,
// written once a save returned): which saves finished, so that a kill before the first complete
// checkpoint is told from one after it; and what the files a run saves at its end hold, so that
// state the run carries outside its parameters (an EMA, an averaged model) is held to the
// uninterrupted run's too. Torch-free.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "trainproof/core/recorded_trace.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// Whether `save` finished: torch.save returned (a `saved` fact of the same start, step and path),
// or dcp.save did (`dcp-saved`: the folder holds `.metadata`). A save that started and was
// killed has its record (written before the save) and no such fact.
bool save_finished(const RecordedTrace& run, const ProbeFileOp& save);
// The first save of `start` (0: of any start) that finished, or null.
const ProbeFileOp* first_finished_save(const RecordedTrace& run, int start);

// A file saved at the end of a run's last start (at or after its last step), by its path in the
// run folder (its absolute path where it is outside): the digest of the tensors under each key.
struct SavedFile {
  std::string name, where;
  std::map<std::string, std::string> tensors;  // key -> digest
  std::set<std::string> rng;                   // the keys whose tensors are all RNG states
};
std::vector<SavedFile> final_saves(const RecordedTrace& run);

// The first file both runs saved at their end whose tensors differ: what differs, and the finding
// resume-carried-state-differs at the preempted run's save (advice where only RNG states differ).
struct FinalFileDifference {
  std::string detail;
  bool rng_only = false;
  Finding finding;
};
std::optional<FinalFileDifference> final_file_difference(const RecordedTrace& straight, const RecordedTrace& resumed);

}  // namespace trainproof
