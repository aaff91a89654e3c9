// See probe_findings.h. Document 003, "Checkpoint and Resume — Exactly": a resumed run is
// bitwise the uninterrupted one only if the checkpoint holds model, optimizer, scheduler,
// scaler, step, data position and every RNG state, and is written atomically. Here: where each
// restart resumed, where it departed, and which state it missed.
#include "src/check/probe_findings.h"
#include "trainproof/check/findings.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/dcp.h"
#include "src/check/probe_records.h"

namespace trainproof {

using namespace probe_records;

std::set<std::string> used_rngs(const RecordedTrace& reference) {
  std::set<std::string> used;
  const auto first = steps_of_start(reference, first_start(reference));
  for (const auto* p : first)
    for (const auto& [k, v] : p->digests)
      if (k.rfind("rng.", 0) == 0 && first.front()->digests.count(k) && first.front()->digests.at(k) != v)
        used.insert(k);
  return used;
}

namespace {

std::string digest_or(const ProbeStep& p, const std::string& key) {
  const auto it = p.digests.find(key);
  return it == p.digests.end() ? "" : it->second;
}

size_t equal_digests(const ProbeStep& a, const ProbeStep& b) {
  size_t n = 0;
  for (const auto& [k, v] : a.digests) n += digest_or(b, k) == v;
  return n;
}

// How a piece of state is restored, for the finding's advice.
std::string rng_call(const std::string& key) {
  if (key == "rng.torch") return "torch.get_rng_state()";
  if (key == "rng.numpy") return "numpy.random.get_state()";
  if (key == "rng.random") return "random.getstate()";
  if (key.rfind("rng.cuda", 0) == 0) return fmt::format("torch.cuda.get_rng_state({})", key.substr(8));
  return key;
}

std::string rng_name(const std::string& key) {
  if (key == "rng.torch") return "torch CPU RNG";
  if (key == "rng.numpy") return "numpy's global RNG";
  if (key == "rng.random") return "Python's random";
  if (key.rfind("rng.cuda", 0) == 0) return "CUDA RNG of device " + key.substr(8);
  return key;
}

// The steps of one aligned restart, each with its step as the uninterrupted run numbers it.
std::vector<std::pair<int64_t, const ProbeStep*>> enumerate_steps(const RecordedTrace& t, const RestartAlignment& r) {
  std::vector<std::pair<int64_t, const ProbeStep*>> out;
  for (const ProbeStep* p : steps_of_start(t, r.start)) out.emplace_back(r.step - 1 + p->seq, p);
  return out;
}

// Where a restart restored the torch RNG to a state a checkpoint saved (the probe's rng-restored
// and rng-at-save facts): the line of that restore, or empty when it restored none.
std::string rng_restored_from_checkpoint(const RecordedTrace& resumed, int start) {
  std::set<std::string> saved;
  for (const auto& f : resumed.facts)
    if (f.fact == "rng-at-save" && f.data.count("digest")) saved.insert(f.data.at("digest"));
  for (const auto& f : resumed.facts)
    if (f.fact == "rng-restored" && f.start == start && f.data.count("digest") && saved.count(f.data.at("digest")))
      return f.where.empty() ? std::string("?") : f.where;
  return "";
}

}  // namespace

std::vector<RestartAlignment> align_restarts(const RecordedTrace& straight, const RecordedTrace& resumed) {
  std::vector<RestartAlignment> out;
  const auto reference = steps_of_start(straight, first_start(straight));
  std::set<int> starts;
  for (const auto& p : resumed.probe) starts.insert(p.start);
  for (const int start : starts) {
    if (start == first_start(resumed)) continue;  // the first start
    const auto steps = steps_of_start(resumed, start);
    const ProbeStep& first = *steps.front();
    // The step whose state this restart's first step starts from: the one with the most equal
    // digests (and the same optimizer step counter); on a tie, the one with equal parameters,
    // then the earliest. A step of the uninterrupted run, or of an earlier restart that had
    // departed before it wrote the checkpoint this one loaded (its state is no step of the
    // uninterrupted run's). Never step 1 of the uninterrupted run with other parameters than
    // its initial ones: a restart that began again has them; one that loaded the model and
    // nothing else (a fresh optimizer, freshly seeded RNGs: step 1's state, each) has not.
    RestartAlignment a{start, 1, "nothing matched: assumed it began again at step 1"};
    int best = -1;
    bool best_params = false;
    const auto consider = [&](const ProbeStep& candidate, int64_t step, const std::string& whose) {
      const bool same_params = digest_or(candidate, "params") == digest_or(first, "params");
      const bool same_counter = first.opt_step && candidate.opt_step == first.opt_step;
      if (step == 1 && whose.empty() && !same_params) return;
      const int score = static_cast<int>(equal_digests(first, candidate)) + (same_counter ? 1 : 0);
      if (score == 0 || score < best || (score == best && (best_params || !same_params))) return;
      best = score;
      best_params = same_params;
      const std::string how = same_params    ? "parameter digest"
                              : same_counter ? "optimizer step counter"
                                             : fmt::format("{} equal digests of its state", score);
      const bool initial = whose.empty() && same_params && step == 1;
      a = {start, step,
           !whose.empty() ? fmt::format("{}, a step of {}", how, whose)
           : initial      ? how + ": the initial parameters, trained again from the start"
                          : how,
           initial};
    };
    for (size_t j = 0; j < reference.size(); ++j) consider(*reference[j], static_cast<int64_t>(j) + 1, "");
    for (const auto& e : out) {
      const std::string whose =
          fmt::format("restart {}: it loaded a checkpoint that restart wrote after it had departed", e.start - 1);
      for (const auto& [step, candidate] : enumerate_steps(resumed, e)) consider(*candidate, step, whose);
    }
    out.push_back(a);
  }
  return out;
}

std::map<int, int64_t> step_offsets(const std::vector<RestartAlignment>& restarts) {
  std::map<int, int64_t> offset;
  for (const auto& r : restarts) offset[r.start] = r.step - 1;
  return offset;
}

void renumber_steps(RecordedTrace& resumed, const std::vector<RestartAlignment>& restarts) {
  resumed.steps.clear();
  auto offset = step_offsets(restarts);
  for (const auto& p : resumed.probe) resumed.steps[offset[p.start] + p.seq] = p.values;
}

std::vector<std::string> differing_state(const ProbeStep& a, const ProbeStep& b, const std::set<std::string>& rngs) {
  std::vector<std::string> out;
  const auto digest = [&](const std::string& k) {
    if (digest_or(a, k) != digest_or(b, k)) out.push_back(k);
  };
  digest("params");
  digest("optimizer");
  digest("scheduler");
  for (const auto& [k, v] : a.values)
    if (k.rfind("lr", 0) == 0 && (!b.values.count(k) || b.values.at(k) != v)) out.push_back(k);
  std::set<std::string> keys;
  for (const auto& [k, v] : a.digests) keys.insert(k);
  for (const auto& [k, v] : b.digests) keys.insert(k);
  for (const auto& k : keys)
    if (k.rfind("rng.", 0) == 0 && rngs.count(k)) digest(k);
  digest("batch");
  digest("order");
  digest("scaler");
  return out;
}

std::optional<ResumeDeparture> first_departure(const RecordedTrace& straight, const RecordedTrace& resumed,
                                               const std::vector<RestartAlignment>& restarts) {
  const auto reference = steps_of_start(straight, first_start(straight));
  const std::set<std::string> rngs = used_rngs(straight);
  for (const auto& r : restarts) {
    const auto steps = steps_of_start(resumed, r.start);
    for (size_t i = 0; i < steps.size(); ++i) {
      const size_t j = static_cast<size_t>(r.step - 1) + i;
      if (j >= reference.size()) break;
      std::vector<std::string> diff = differing_state(*steps[i], *reference[j], rngs);
      if (!diff.empty() || steps[i]->values != reference[j]->values)
        return ResumeDeparture{r, static_cast<int64_t>(j) + 1, std::move(diff)};
    }
  }
  return std::nullopt;
}

namespace {

// What a restored torch RNG drawn from again before the step means: a new DataLoader iterator's
// shuffle, or, where the step's samples are the uninterrupted run's (`same_samples`, their values
// not), its workers' base seed.
std::string redrawn_means(bool same_samples) {
  if (same_samples)
    return "the step trains on the same samples (their indices equal), with other values: a new DataLoader "
           "iterator draws its workers' base seed from it, so their random transforms are drawn anew. Seed the "
           "transforms from the epoch and the sample, or from a generator the checkpoint restores "
           "(DataLoader(generator=...), worker_init_fn), or resume with torchdata's StatefulDataLoader";
  return "a new DataLoader iterator draws its shuffle order from it, so the restart trains on a re-drawn order. Make "
         "the order a function of the epoch and a seed (a sampler seeded per epoch: accelerate's "
         "use_seedable_sampler=True, DistributedSampler.set_epoch), or save and restore the sampler's position";
}

// What a step's batch that differs after a restart while every RNG agrees says: other samples
// (their indices differ, or were not seen: the data position), or the same samples with other
// values (`same_samples`: workers or an augmentation seeded anew).
std::pair<std::string_view, std::string> batch_diagnosis(bool same_samples, bool order_differs) {
  if (same_samples)
    return {finding_id::kResumeSampleValuesDiffer,
            "the step trains on the same samples as the uninterrupted run (their indices in the dataset equal), but "
            "their values differ: a random transform draws from generators the restart seeds anew (DataLoader "
            "workers are seeded from a base seed each new iterator draws). The data position is restored; draw the "
            "transform from a generator seeded by the epoch and the sample, or by worker_init_fn from a seed the "
            "checkpoint holds, or resume with torchdata's StatefulDataLoader, whose state_dict() holds its "
            "workers' RNG states"};
  if (order_differs)
    return {finding_id::kResumeMissingDataPosition,
            "the step trains on other samples than the uninterrupted run's (their indices in the dataset differ) "
            "while every RNG agrees: the checkpoint does not restore where the data order stood (epoch and batch "
            "index, or the sampler's state)"};
  // No sampler's indices seen (an iterable dataset, an environment, a loop that slices tensors):
  // the inputs' source is not known, so each kind of it is named with its fix.
  return {finding_id::kResumeMissingDataPosition,
          "the step's input batch differs while every RNG the probe sees agrees (torch's, numpy's and random's "
          "global ones): the checkpoint does not restore what makes the step's inputs: where the data order stood "
          "(epoch and batch index, or the sampler's state), an iterable dataset's stream (its offset, a shuffle "
          "buffer and the generator it draws from), or an environment's state and its own generator (save and load "
          "them with the checkpoint)"};
}

}  // namespace

std::vector<Finding> diagnose_resume(const RecordedTrace& resumed, const ResumeDeparture& departure) {
  const RestartAlignment& r = departure.restart;
  const int64_t step = departure.step;
  const size_t i = static_cast<size_t>(step - r.step);
  const ProbeStep& now = *steps_of_start(resumed, r.start)[i];
  const std::vector<std::string>& diff = departure.differing;
  const std::string at =
      fmt::format("step {}, {} after restart {} (resumed at step {} by {})", step,
                  i == 0 ? std::string("the first") : fmt::format("step {}", i + 1), r.start - 1, r.step, r.how);
  const auto has = [&](const std::string& k) { return std::find(diff.begin(), diff.end(), k) != diff.end(); };
  const bool any_rng =
      std::any_of(diff.begin(), diff.end(), [](const std::string& k) { return k.rfind("rng.", 0) == 0; });
  const bool lr_differs =
      std::any_of(diff.begin(), diff.end(), [](const std::string& k) { return k.rfind("lr", 0) == 0; });
  std::vector<std::string> equal;
  for (const char* k : {"params", "optimizer", "scheduler"})
    if (!has(k) && now.digests.count(k)) equal.push_back(fmt::format("{} equal", k));
  const std::string seen =
      diff.empty()
          ? "every digest of the state equal, the step's values differ"
          : fmt::format("{}{} differ", equal.empty() ? std::string() : fmt::format("{}, ", fmt::join(equal, ", ")),
                        fmt::join(diff, ", "));
  std::vector<Finding> findings;
  const auto add = [&](std::string_view id, const std::string& what) {
    if (std::any_of(findings.begin(), findings.end(), [&](const Finding& g) { return g.id == id; })) return;
    findings.push_back(make_finding(id, step, now.where, fmt::format("at {}: {} -> {}", at, seen, what)));
  };
  // Began from the first step's state (initial parameters, a fresh optimizer, freshly seeded
  // RNGs) on a later batch: the restart moved the data on and loaded nothing else.
  const bool nothing_loaded = r.initial && i == 0 && has("batch");
  if (has("params") || nothing_loaded)
    add(finding_id::kResumeParamsDiffer,
        nothing_loaded ? "the restart trains the initial parameters (a fresh optimizer, freshly seeded RNGs) on a "
                         "later batch: it skipped the data it had seen but loaded nothing of the checkpoint; load "
                         "the model's, optimizer's and RNGs' states from it before training"
                       : "the parameters are not the checkpoint's: load model.state_dict() from it before training");
  if (has("optimizer"))
    add(finding_id::kResumeMissingOptimizerState,
        "the checkpoint does not restore the optimizer's state: save and load optimizer.state_dict()");
  if (has("scheduler") || (lr_differs && !has("optimizer")))
    add(finding_id::kResumeMissingSchedulerState,
        has("scheduler") ? "the checkpoint does not restore the LR scheduler: save and load scheduler.state_dict()"
                         : "the learning rate differs: the step count the schedule is computed from is not restored");
  // Restored, then drawn from before this step: not missing. A new DataLoader iterator draws its
  // shuffle order from it (accelerate's load_state, then a fresh loop over a plain shuffled loader).
  const std::string restored = has("rng.torch") ? rng_restored_from_checkpoint(resumed, r.start) : "";
  // The sample indices the step's DataLoader batches hold (the probe's "order"), where it saw them.
  const bool same_samples = now.digests.count("order") && !has("order");
  if (!restored.empty())
    add(finding_id::kResumeRngRedrawn, fmt::format("the torch CPU RNG was restored from the checkpoint ({}), then "
                                                   "drawn from again before this step{}: {}",
                                                   restored, has("batch") ? " (the step's batch differs too)" : "",
                                                   redrawn_means(same_samples && has("batch"))));
  for (const auto& k : diff)
    if (k.rfind("rng.", 0) == 0 && !(k == "rng.torch" && !restored.empty()))
      add(finding_id::kResumeMissingRngState,
          fmt::format("{} differs: the checkpoint does not restore {}", rng_name(k), rng_call(k)));
  if (has("batch") && !any_rng && !nothing_loaded) {
    const auto [id, why] = batch_diagnosis(same_samples, has("order"));
    add(id, why);
  }
  if (has("scaler"))
    add(finding_id::kResumeMissingScalerState,
        "the GradScaler's scale or growth tracker differs: save and load scaler.state_dict()");
  if (diff.empty())
    add(finding_id::kResumeStateEqualValuesDiffer,
        "state the checkpoint does not hold and the probe does not see (a generator of the script's own, a counter), "
        "or an op that is not deterministic");
  return findings;
}

namespace {

Finding non_atomic_at(const std::string& where, std::string detail) {
  return make_finding(finding_id::kNonAtomicCheckpoint, -1, where, std::move(detail));
}

// A non-atomic save the run did not show torn: advice, saying why (`confirmed`: kill 1 landed in
// its write, and the restart did not load `what`).
void not_shown(Finding& f, bool confirmed, const std::string& what, const std::string& killed_writing) {
  f.advice = true;
  f.detail += confirmed ? fmt::format(
                              ". Not shown by this run: kill 1 landed in this write and the restart did not "
                              "load {} (it took an earlier whole checkpoint, or began again)",
                              what)
                        : fmt::format(
                              ". Not shown by this run: kill 1 landed {}, not in this write, so no restart "
                              "was put to a torn {}",
                              killed_writing.empty() ? std::string("away from it")
                                                     : fmt::format("in the write of {}", killed_writing),
                              what.back() == '/' ? "folder" : "file");
}

}  // namespace

std::vector<Finding> non_atomic_saves(const RecordedTrace& resumed, const std::string& killed_writing) {
  // A DCP checkpoint is atomic by DCP's protocol (dcp.h): only a folder without `.metadata` is torn.
  if (auto torn = torn_dcp_load(resumed)) return {*torn};
  const int first = first_start(resumed);
  std::set<std::string> loaded, loaded_from;                  // the files a run loaded, and their folders
  std::set<std::string> restart_loaded, restart_loaded_from;  // those a restart loaded: where a torn write shows
  for (const auto& f : resumed.file_ops)
    if (f.kind == "load" && !f.path.empty() && !f.dcp) {
      loaded.insert(f.path);
      loaded_from.insert(parent_of(f.path));
      if (f.start > first) {
        restart_loaded.insert(f.path);
        restart_loaded_from.insert(parent_of(f.path));
      }
    }
  // Whether kill 1 landed in the write of this save (`killed_writing`: its path in the run folder).
  const auto landed_in = [&](const ProbeFileOp& f) {
    const std::string tail = "/" + killed_writing;
    return !killed_writing.empty() && f.path.size() > tail.size() &&
           f.path.compare(f.path.size() - tail.size(), tail.size(), tail) == 0;
  };
  std::optional<Finding> named;  // the first such save; the one kill 1 landed in, where there is one
  for (const auto& f : resumed.file_ops) {
    // A file written into a new folder named by its step, a folder a restart loaded from: the
    // folder is the checkpoint, written in place, though the kill may have left the very file the
    // restart failed on unwritten (accelerate's save_state straight into step_N/).
    const bool into_loaded_folder = f.kind == "save" && !f.existed && !f.path.empty() &&
                                    names_number(name_of(parent_of(f.path)), f.seq) &&
                                    loaded_from.count(parent_of(f.path));
    if (f.kind != "save" || f.dcp || !(loaded.count(f.path) || into_loaded_folder)) continue;
    const bool confirmed = landed_in(f);
    if (named && !confirmed) continue;
    const std::string name = name_of(f.path);
    Finding finding = non_atomic_at(f.where, "");
    const std::string landed = confirmed ? fmt::format(" (kill 1 landed during the write of {})", killed_writing) : "";
    const std::string folder = name_of(parent_of(f.path));
    // A new file in a folder named by its step: the folder is the checkpoint (Trainer's
    // checkpoint-N/), written in place; a restart takes the newest folder, torn or not.
    const bool in_folder = !f.existed && names_number(folder, f.seq);
    if (in_folder)
      finding.detail = fmt::format(
          "the checkpoint folder {}/ is written in place ({} straight into it): a kill during the write leaves a torn "
          "folder that a restart loads as the latest{}. Write the folder under a temporary name, then rename it",
          folder, name, landed);
    else
      finding.detail = fmt::format(
          "torch.save writes straight onto {}, the checkpoint a restart loads: a kill during the write leaves it "
          "torn{}. Save to a temporary file in the same folder, then os.replace() it onto {}",
          name, landed, name);
    // Shown only where the restart after a kill in this very write loaded what it wrote (the file,
    // or its folder): what the run did, not what the save's pattern suggests.
    const bool shown =
        confirmed && (restart_loaded.count(f.path) || (in_folder && restart_loaded_from.count(parent_of(f.path))));
    if (!shown) not_shown(finding, confirmed, in_folder ? folder + "/" : name, killed_writing);
    if (confirmed) return {finding};
    named = std::move(finding);
  }
  if (named) return {*named};
  // Written by other means than a torch.save onto the path (bytes of a buffer written with open(),
  // a library's own writer): the file kill 1 landed in the write of is the very one a restart
  // then loaded. Named at that load, the line of the script that trusts it.
  if (killed_writing.empty()) return {};
  for (const auto& f : resumed.file_ops) {
    if (f.kind != "load" || f.path.empty() || name_of(f.path) != name_of(killed_writing)) continue;
    if (!resumed.probe.empty() && f.start == resumed.probe.front().start) continue;  // not a restart's
    return {non_atomic_at(
        f.where, fmt::format("kill 1 landed while {} was being written in place, and the restart loaded it here: a "
                             "kill during the write leaves the checkpoint a restart loads torn. Write it to a "
                             "temporary file in the same folder, then os.replace() it onto {}",
                             name_of(killed_writing), name_of(killed_writing)))};
  }
  return {};
}

std::vector<Finding> model_only_resumes(const RecordedTrace& resumed) {
  const int first = resumed.probe.empty() ? 0 : resumed.probe.front().start;
  for (const auto& load : resumed.file_ops) {
    if (load.kind != "load" || load.start == first || load.path.empty()) continue;
    for (const auto& save : resumed.file_ops) {
      if (save.kind != "save" || save.path != load.path || save.checkpoint || save.needs.empty()) continue;
      const std::vector<std::string> missing = checkpoint_lacks(resumed, save);
      if (missing.empty()) continue;
      Finding f = make_finding(finding_id::kCheckpointMissingState, save.seq, save.where, "");
      f.detail = fmt::format(
          "{}, which a restart loads, holds the model's state_dict alone: it lacks {} of the state this run has "
          "({}), so the restart begins those afresh; save them all in the checkpoint",
          name_of(save.path), fmt::join(missing, ", "), fmt::join(save.needs, ", "));
      return {f};
    }
  }
  return {};
}

}  // namespace trainproof
