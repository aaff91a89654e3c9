// See dcp.h.
#include "src/check/dcp.h"

#include <sstream>

#include <fmt/format.h>

#include "src/check/probe_records.h"

namespace trainproof {

using namespace probe_records;

std::optional<std::set<std::string>> dcp_saved_holds(const RecordedTrace& run, const ProbeFileOp& save) {
  if (!save.dcp) return std::nullopt;
  for (const auto& f : run.facts)
    if (f.fact == "dcp-saved" && f.start == save.start && f.data.count("path") && f.data.at("path") == save.path) {
      std::set<std::string> holds;
      std::stringstream list(f.data.count("holds") ? f.data.at("holds") : "");
      for (std::string h; std::getline(list, h, ',');)
        if (!h.empty()) holds.insert(h);
      return holds;
    }
  return std::nullopt;
}

std::string checkpoint_folder(const ProbeFileOp& save) {
  return save.dcp ? save.path : parent_of(save.path);
}

bool beside_dcp_folder(const ProbeFileOp& a, const ProbeFileOp& b) {
  return (a.dcp || b.dcp) && parent_of(a.path) == parent_of(b.path);
}

std::optional<Finding> torn_dcp_load(const RecordedTrace& resumed) {
  for (const auto& f : resumed.file_ops)
    if (f.kind == "load" && f.dcp && !f.complete)
      return make_finding(
          finding_id::kNonAtomicCheckpoint, -1, f.where,
          fmt::format("dcp.load was given {}/, a checkpoint folder without .metadata: DCP writes .metadata last, "
                      "after every rank's files, so a folder without it is a checkpoint a kill tore. Take the newest "
                      "folder that holds .metadata",
                      name_of(f.path)));
  return std::nullopt;
}

}  // namespace trainproof
