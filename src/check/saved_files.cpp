// See saved_files.h: what the probe saw of the files a run saved once each save returned.
#include "src/check/saved_files.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "src/check/probe_findings.h"
#include "src/check/probe_records.h"
#include "trainproof/check/findings.h"

namespace trainproof {

using namespace probe_records;

namespace {

// The `saved` fact of a save: the same start, step and path, as torch.save returned.
const ProbeFact* saved_fact(const RecordedTrace& run, const ProbeFileOp& save) {
  for (const auto& f : run.facts)
    if (f.fact == "saved" && f.start == save.start && f.seq == save.seq && data_or(f, "path") == save.path) return &f;
  return nullptr;
}

// The last step a start recorded through the probe (0 where it recorded none).
int64_t last_step_of(const RecordedTrace& run, int start) {
  int64_t last = 0;
  for (const auto& p : run.probe)
    if (p.start == start) last = std::max(last, p.seq);
  return last;
}

// The last whole checkpoint the start before `run`'s last one saved: the one its restart could
// resume from.
const ProbeFileOp* last_whole_checkpoint_before_restart(const RecordedTrace& run) {
  const ProbeFileOp* last = nullptr;
  for (const auto& op : run.file_ops)
    if (op.start == run.starts - 1 && op.checkpoint && save_finished(run, op)) last = &op;
  return last;
}

}  // namespace

bool save_finished(const RecordedTrace& run, const ProbeFileOp& save) {
  if (save.kind != "save" || save.path.empty()) return false;
  if (!save.dcp) return saved_fact(run, save) != nullptr;
  return std::any_of(run.facts.begin(), run.facts.end(), [&](const ProbeFact& f) {
    return f.fact == "dcp-saved" && f.start == save.start && data_or(f, "path") == save.path;
  });
}

const ProbeFileOp* first_finished_save(const RecordedTrace& run, int start) {
  for (const auto& op : run.file_ops)
    if ((start == 0 || op.start == start) && save_finished(run, op)) return &op;
  return nullptr;
}

std::vector<SavedFile> final_saves(const RecordedTrace& run) {
  const int last_start = run.starts;
  const int64_t last_step = last_step_of(run, last_start);
  std::vector<SavedFile> out;
  for (const auto& f : run.facts) {
    if (f.fact != "saved" || f.start != last_start || f.seq < last_step) continue;
    SavedFile s;
    s.name = data_or(f, "in_run_dir");
    if (s.name.empty() || s.name == "null") s.name = data_or(f, "path");
    s.where = f.where;
    try {
      s.tensors = nlohmann::json::parse(data_or(f, "tensors")).get<std::map<std::string, std::string>>();
      for (const auto& k : nlohmann::json::parse(data_or(f, "rng")).get<std::vector<std::string>>()) s.rng.insert(k);
    } catch (const std::exception&) {
      continue;  // a fact without its digests says nothing of the file
    }
    // The last save of a name wins: a file saved twice at the end holds what was saved last.
    const auto same = std::find_if(out.begin(), out.end(), [&](const SavedFile& o) { return o.name == s.name; });
    if (same != out.end())
      *same = std::move(s);
    else
      out.push_back(std::move(s));
  }
  return out;
}

std::optional<FinalFileDifference> final_file_difference(const RecordedTrace& straight, const RecordedTrace& resumed) {
  const std::vector<SavedFile> want = final_saves(straight), got = final_saves(resumed);
  for (const auto& w : want) {
    const auto g = std::find_if(got.begin(), got.end(), [&](const SavedFile& s) { return s.name == w.name; });
    if (g == got.end()) continue;  // not saved at the end of the restart: nothing to hold it to
    std::vector<std::string> differ;
    bool rng_only = true;
    for (const auto& [key, digest] : w.tensors) {
      const auto it = g->tensors.find(key);
      if (it == g->tensors.end() || it->second == digest) continue;
      differ.push_back(key.empty() ? std::string("its tensor") : fmt::format("'{}'", key));
      rng_only = rng_only && w.rng.count(key) && g->rng.count(key);
    }
    // RNG states alone, of a loop whose steps draw from no RNG: the same loop, continued, would
    // draw from none either; nothing depends on them.
    if (differ.empty() || (rng_only && used_rngs(straight).empty())) continue;
    const size_t shown = std::min<size_t>(differ.size(), 4);
    const std::string keys =
        fmt::format("{}{}", fmt::join(differ.begin(), differ.begin() + shown, ", "),
                    differ.size() > shown ? fmt::format(" and {} more", differ.size() - shown) : std::string());
    FinalFileDifference d;
    d.rng_only = rng_only;
    d.detail = fmt::format(
        "the final file {} (saved at {}) differs from the uninterrupted run's under {} of its {} key(s) ({})", w.name,
        g->where, differ.size(), w.tensors.size(), keys);
    // Named at the checkpoint the restart resumed from, where the state is missing; the file shows it.
    const ProbeFileOp* checkpoint = last_whole_checkpoint_before_restart(resumed);
    Finding f = make_finding(finding_id::kResumeCarriedStateDiffers, -1, checkpoint ? checkpoint->where : g->where, "");
    f.detail = fmt::format(
        "{}: the run carries state from step to step that {} does not restore (an EMA or averaged model, a "
        "buffer, a generator it owns, a running statistic). Save it in the checkpoint and load it back on resume",
        d.detail,
        checkpoint ? fmt::format("the checkpoint the restart resumed from (saved at {})", checkpoint->where)
                   : std::string("its checkpoint"));
    if (rng_only) {
      f.advice = true;
      f.detail = fmt::format(
          "{}: only RNG states differ; every recorded value and the final parameters are still bitwise the "
          "uninterrupted run's, so nothing in this run depends on them yet",
          d.detail);
    }
    d.finding = std::move(f);
    return d;
  }
  return std::nullopt;
}

}  // namespace trainproof
