// See probe_findings.h. Document 003, "Checkpoint and Resume — Exactly": a resumed run is
// bitwise the uninterrupted one only if the checkpoint holds model, optimizer, scheduler,
// scaler, step, data position and every RNG state, and is written atomically.
#include "src/runner/probe_findings.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace trainproof {

namespace {

constexpr const char* kResumeLaw = "exact resume";

std::string parent_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}
std::string name_of(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

// Whether a folder's name holds the number `n` on its own ("checkpoint-8", "step_8.tmp" for 8):
// the step a restart reads back from the name (Trainer's get_last_checkpoint does).
bool names_number(const std::string& name, int64_t n) {
  const std::string digits = std::to_string(n);
  for (size_t at = name.find(digits); at != std::string::npos; at = name.find(digits, at + 1)) {
    const bool before = at == 0 || !std::isdigit(static_cast<unsigned char>(name[at - 1]));
    const size_t end = at + digits.size();
    const bool after = end == name.size() || !std::isdigit(static_cast<unsigned char>(name[end]));
    if (before && after) return true;
  }
  return false;
}

std::vector<const ProbeStep*> steps_of_start(const RecordedTrace& t, int start) {
  std::vector<const ProbeStep*> out;
  for (const auto& p : t.probe)
    if (p.start == start) out.push_back(&p);
  return out;
}

}  // namespace

std::set<std::string> used_rngs(const RecordedTrace& reference) {
  std::set<std::string> used;
  const auto first = steps_of_start(reference, reference.probe.empty() ? 0 : reference.probe.front().start);
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
  const auto reference = steps_of_start(straight, straight.probe.empty() ? 0 : straight.probe.front().start);
  std::set<int> starts;
  for (const auto& p : resumed.probe) starts.insert(p.start);
  for (const int start : starts) {
    if (start == (resumed.probe.empty() ? 0 : resumed.probe.front().start)) continue;  // the first start
    const auto steps = steps_of_start(resumed, start);
    const ProbeStep& first = *steps.front();
    // The step whose state this restart's first step starts from: the one with the most equal
    // digests (and the same optimizer step counter); on a tie, the one with equal parameters,
    // then the earliest. A step of the uninterrupted run, or of an earlier restart that had
    // departed before it wrote the checkpoint this one loaded (its state is no step of the
    // uninterrupted run's).
    RestartAlignment a{start, 1, "nothing matched: assumed it began again at step 1"};
    int best = -1;
    bool best_params = false;
    const auto consider = [&](const ProbeStep& candidate, int64_t step, const std::string& whose) {
      const bool same_params = digest_or(candidate, "params") == digest_or(first, "params");
      const bool same_counter = first.opt_step && candidate.opt_step == first.opt_step;
      const int score = static_cast<int>(equal_digests(first, candidate)) + (same_counter ? 1 : 0);
      if (score == 0 || score < best || (score == best && (best_params || !same_params))) return;
      best = score;
      best_params = same_params;
      const std::string how = same_params    ? "parameter digest"
                              : same_counter ? "optimizer step counter"
                                             : fmt::format("{} equal digests of its state", score);
      a = {start, step,
           !whose.empty()             ? fmt::format("{}, a step of {}", how, whose)
           : same_params && step == 1 ? how + ": the initial parameters, trained again from the start"
                                      : how};
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

void renumber_steps(RecordedTrace& resumed, const std::vector<RestartAlignment>& restarts) {
  resumed.steps.clear();
  std::map<int, int64_t> offset;
  for (const auto& r : restarts) offset[r.start] = r.step - 1;
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
  digest("scaler");
  return out;
}

std::optional<ResumeDeparture> first_departure(const RecordedTrace& straight, const RecordedTrace& resumed,
                                               const std::vector<RestartAlignment>& restarts) {
  const auto reference = steps_of_start(straight, straight.probe.empty() ? 0 : straight.probe.front().start);
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
  const auto add = [&](const std::string& id, const std::string& what) {
    if (std::any_of(findings.begin(), findings.end(), [&](const Finding& g) { return g.id == id; })) return;
    Finding f;
    f.id = id;
    f.law = kResumeLaw;
    f.step = step;
    f.where = now.where;
    f.detail = fmt::format("at {}: {} -> {}", at, seen, what);
    findings.push_back(std::move(f));
  };
  if (has("params"))
    add("resume-params-differ",
        "the parameters are not the checkpoint's: load model.state_dict() from it before training");
  if (has("optimizer"))
    add("resume-missing-optimizer-state",
        "the checkpoint does not restore the optimizer's state: save and load optimizer.state_dict()");
  if (has("scheduler") || (lr_differs && !has("optimizer")))
    add("resume-missing-scheduler-state",
        has("scheduler") ? "the checkpoint does not restore the LR scheduler: save and load scheduler.state_dict()"
                         : "the learning rate differs: the step count the schedule is computed from is not restored");
  // Restored, then drawn from before this step: not missing. A new DataLoader iterator draws its
  // shuffle order from it (accelerate's load_state, then a fresh loop over a plain shuffled loader).
  const std::string restored = has("rng.torch") ? rng_restored_from_checkpoint(resumed, r.start) : "";
  if (!restored.empty())
    add("resume-rng-redrawn",
        fmt::format("the torch CPU RNG was restored from the checkpoint ({}), then drawn from again before this "
                    "step{}: a new DataLoader iterator draws its shuffle order from it, so the restart trains on a "
                    "re-drawn order. Make the order a function of the epoch and a seed (a sampler seeded per "
                    "epoch: accelerate's use_seedable_sampler=True, DistributedSampler.set_epoch), or save and "
                    "restore the sampler's position",
                    restored, has("batch") ? " (the step's batch differs too)" : ""));
  for (const auto& k : diff)
    if (k.rfind("rng.", 0) == 0 && !(k == "rng.torch" && !restored.empty()))
      add("resume-missing-rng-state",
          fmt::format("{} differs: the checkpoint does not restore {}", rng_name(k), rng_call(k)));
  if (has("batch") && !any_rng)
    add("resume-missing-data-position",
        "the step's input batch differs while every RNG agrees: the checkpoint does not restore where the data "
        "order stood (epoch and batch index, or the sampler's state)");
  if (has("scaler"))
    add("resume-missing-scaler-state",
        "the GradScaler's scale or growth tracker differs: save and load scaler.state_dict()");
  if (diff.empty())
    add("resume-state-equal-values-differ",
        "state the checkpoint does not hold and the probe does not see (a generator of the script's own, a counter), "
        "or an op that is not deterministic");
  return findings;
}

std::vector<Finding> non_atomic_saves(const RecordedTrace& resumed, const std::string& killed_writing) {
  std::set<std::string> loaded, loaded_from;  // the files a run loaded, and their folders
  for (const auto& f : resumed.file_ops)
    if (f.kind == "load" && !f.path.empty()) {
      loaded.insert(f.path);
      loaded_from.insert(parent_of(f.path));
    }
  for (const auto& f : resumed.file_ops) {
    // A file written into a new folder named by its step, a folder a restart loaded from: the
    // folder is the checkpoint, written in place, though the kill may have left the very file the
    // restart failed on unwritten (accelerate's save_state straight into step_N/).
    const bool into_loaded_folder = f.kind == "save" && !f.existed && !f.path.empty() &&
                                    names_number(name_of(parent_of(f.path)), f.seq) &&
                                    loaded_from.count(parent_of(f.path));
    if (f.kind != "save" || !(loaded.count(f.path) || into_loaded_folder)) continue;
    const std::string name = name_of(f.path);
    const bool confirmed = !killed_writing.empty() && name_of(killed_writing) == name;
    Finding finding;
    finding.id = "non-atomic-checkpoint";
    finding.law = kResumeLaw;
    finding.where = f.where;
    const std::string landed = confirmed ? fmt::format(" (kill 1 landed during the write of {})", killed_writing) : "";
    const std::string folder = name_of(parent_of(f.path));
    // A new file in a folder named by its step: the folder is the checkpoint (Trainer's
    // checkpoint-N/), written in place; a restart takes the newest folder, torn or not.
    if (!f.existed && names_number(folder, f.seq))
      finding.detail = fmt::format(
          "the checkpoint folder {}/ is written in place ({} straight into it): a kill during the write leaves a torn "
          "folder that a restart loads as the latest{}. Write the folder under a temporary name, then rename it",
          folder, name, landed);
    else
      finding.detail = fmt::format(
          "torch.save writes straight onto {}, the checkpoint a restart loads: a kill during the write leaves it "
          "torn{}. Save to a temporary file in the same folder, then os.replace() it onto {}",
          name, landed, name);
    return {finding};
  }
  // Written by other means than a torch.save onto the path (bytes of a buffer written with open(),
  // a library's own writer): the file kill 1 landed in the write of is the very one a restart
  // then loaded. Named at that load, the line of the script that trusts it.
  if (killed_writing.empty()) return {};
  for (const auto& f : resumed.file_ops) {
    if (f.kind != "load" || f.path.empty() || name_of(f.path) != name_of(killed_writing)) continue;
    if (!resumed.probe.empty() && f.start == resumed.probe.front().start) continue;  // not a restart's
    Finding finding;
    finding.id = "non-atomic-checkpoint";
    finding.law = kResumeLaw;
    finding.where = f.where;
    finding.detail = fmt::format(
        "kill 1 landed while {} was being written in place, and the restart loaded it here: a kill during the write "
        "leaves the checkpoint a restart loads torn. Write it to a temporary file in the same folder, then "
        "os.replace() it onto {}",
        name_of(killed_writing), name_of(killed_writing));
    return {finding};
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
      Finding f;
      f.id = "checkpoint-missing-state";
      f.law = "checkpoints";
      f.step = save.seq;
      f.where = save.where;
      f.detail = fmt::format(
          "{}, which a restart loads, holds the model's state_dict alone: it lacks {} of the state this run has "
          "({}), so the restart begins those afresh; save them all in the checkpoint",
          name_of(save.path), fmt::join(missing, ", "), fmt::join(save.needs, ", "));
      return {f};
    }
  }
  return {};
}

namespace {

std::string data_or(const ProbeFact& f, const std::string& key, const std::string& fallback = "") {
  const auto it = f.data.find(key);
  return it == f.data.end() ? fallback : it->second;
}
double number_or(const ProbeFact& f, const std::string& key, double fallback) {
  const std::string v = data_or(f, key);
  if (v.empty() || v == "null") return fallback;
  return std::strtod(v.c_str(), nullptr);
}

Finding finding(std::string id, std::string law, int64_t step, std::string where, std::string detail,
                bool advice = false) {
  Finding f;
  f.id = std::move(id);
  f.law = std::move(law);
  f.step = step;
  f.where = std::move(where);
  f.detail = std::move(detail);
  f.advice = advice;
  return f;
}

constexpr const char* kLoopLaw = "the training loop";
constexpr const char* kScheduleLaw = "the schedule";
constexpr const char* kCheckpointLaw = "checkpoints";
constexpr const char* kSeedLaw = "determinism";

}  // namespace

std::vector<Finding> unsafe_loads(const RecordedTrace& run) {
  for (const auto& op : run.file_ops)
    if (op.kind == "load" && op.weights_only == "false")
      return {finding("unsafe-torch-load", kCheckpointLaw, -1, op.where,
                      "torch.load(..., weights_only=False) runs whatever code the file's pickle holds: load "
                      "checkpoints with weights_only=True")};
  return {};
}

std::set<std::string> checkpoint_holds(const RecordedTrace& run, const ProbeFileOp& save) {
  std::set<std::string> holds(save.holds.begin(), save.holds.end());
  if (save.path.empty()) return holds;
  const std::string folder = parent_of(save.path);
  for (const auto& op : run.file_ops)
    if (op.kind == "save" && op.start == save.start && op.seq == save.seq && parent_of(op.path) == folder)
      holds.insert(op.holds.begin(), op.holds.end());
  // A folder of its own named by the step (checkpoint-8/, step_8/) holds the step in its name.
  if (save.seq > 0 && names_number(name_of(folder), save.seq)) holds.insert("step");
  return holds;
}

std::vector<std::string> checkpoint_lacks(const RecordedTrace& run, const ProbeFileOp& save) {
  const std::set<std::string> holds = checkpoint_holds(run, save);
  std::vector<std::string> missing;
  for (const auto& need : save.needs)
    if (!holds.count(need)) missing.push_back(need);
  return missing;
}

std::vector<Finding> script_findings(const RecordedTrace& run) {
  std::vector<Finding> out;
  const int start = run.probe.empty() ? 1 : run.probe.front().start;
  std::set<std::string> named;
  const auto add = [&](Finding f) {
    if (named.insert(f.id).second) out.push_back(std::move(f));
  };
  for (const auto& f : run.facts) {
    if (f.start != start) continue;
    const int64_t step = f.seq + 1;
    if (f.fact == "backward-onto-last-step-grads") {
      add(finding("zero-grad-missing", kLoopLaw, step, f.where,
                  fmt::format("gradients left by step {} were still in .grad when the next backward started, so "
                              "they add up across steps: call optimizer.zero_grad() once per optimizer step "
                              "(accumulating micro-batches within one step is fine)",
                              f.seq)));
    } else if (f.fact == "no-grad-forward-in-train-mode") {
      add(finding("eval-mode-forgotten", kLoopLaw, step, f.where,
                  fmt::format("a forward under torch.no_grad() with {} in training mode: call model.eval() before "
                              "validating (dropout stays on, BatchNorm keeps updating its running statistics)",
                              data_or(f, "modules"))));
    } else if (f.fact == "grad-forward-in-eval-mode") {
      const bool backward = data_or(f, "backward") == "true";
      const std::string stochastic = data_or(f, "stochastic");
      // Left in eval mode: after the module trained, or after a validation (nanoGPT validates
      // before its first step: a model never seen training is in eval mode from then on).
      const bool left = data_or(f, "seen_training") == "true" || data_or(f, "after_validation") == "true";
      if (backward && left && !stochastic.empty())
        add(finding("train-mode-forgotten", kLoopLaw, step, f.where,
                    fmt::format("this step trained with {} in eval mode, left there by an earlier validation: call "
                                "model.train() after validating",
                                stochastic)));
      else if (!backward)
        add(finding("validation-with-grad", kLoopLaw, step, f.where,
                    "a forward in eval mode with grad enabled and no backward after it: validate under "
                    "torch.no_grad() (it keeps every activation for a backward that never comes)",
                    /*advice=*/true));
    } else if (f.fact == "cross-entropy-input") {
      const std::string dtype = data_or(f, "dtype");
      const double tol = dtype == "torch.float16" || dtype == "torch.bfloat16" ? 1e-2 : 1e-3;
      const double dev = number_or(f, "row_sum_dev", 1);
      const double smallest = number_or(f, "min", -1);
      if (smallest >= 0 && dev <= tol)
        add(finding("softmax-before-cross-entropy", kLoopLaw, step, f.where,
                    fmt::format("cross_entropy was given probabilities (every value >= 0, every row summing to 1 "
                                "within {:.2g}): it applies log_softmax itself; pass the logits",
                                dev)));
    } else if (f.fact == "param-groups") {
      std::stringstream groups(data_or(f, "groups"));
      int i = 0;
      for (std::string g; std::getline(groups, g, ';'); ++i) {
        double wd = 0;
        int one_dim = 0, n = 0;
        if (std::sscanf(g.c_str(), "%lf/%d/%d", &wd, &one_dim, &n) == 3 && wd > 0 && one_dim > 0) {
          add(finding("weight-decay-on-bias-or-norm", kLoopLaw, -1, f.where,
                      fmt::format("param group {} applies weight_decay {:g} to {} one-dimensional parameter(s) of "
                                  "its {} (biases, norm weights): give them a group with weight_decay 0",
                                  i, wd, one_dim, n)));
          break;
        }
      }
    } else if (f.fact == "clip-while-scaled") {
      add(finding("clip-before-unscale", kLoopLaw, step, f.where,
                  "clip_grad_norm_ ran on gradients an enabled GradScaler had scaled, so the threshold applies to "
                  "scaled values: call scaler.unscale_(optimizer) before clipping"));
    } else if (f.fact == "schedule-at-exit") {
      const double k = number_or(f, "scheduler_steps", 0);
      const double n = number_or(f, "optimizer_steps", 0);
      const double span = number_or(f, "span", 0);
      const bool changes = data_or(f, "lambda_changes_after") == "true";
      const bool sized_in_steps = (span > 0 && span >= 1.5 * k && 2 * span >= n) || changes;
      if (n >= 4 && 2 * k <= n && sized_in_steps)
        add(finding("scheduler-per-epoch", kScheduleLaw, -1, f.where,
                    fmt::format("{} stepped {:g} times for {:g} optimizer steps, and its schedule is {} when "
                                "training ends: a per-step schedule stepped per epoch; call scheduler.step() after "
                                "every optimizer.step()",
                                data_or(f, "scheduler"), k, n,
                                span > 0 ? fmt::format("sized for {:g} steps", span) : std::string("still changing"))));
    } else if (f.fact == "scheduler-step-before-optimizer-step") {
      add(finding("scheduler-before-optimizer", kScheduleLaw, step, f.where,
                  "scheduler.step() ran before the first optimizer.step(): the schedule's first value is skipped; "
                  "step the scheduler after the optimizer"));
    } else if (f.fact == "torch-random-before-seed" || f.fact == "torch-random-unseeded") {
      add(finding("unseeded-rng", kSeedLaw, f.fact == "torch-random-unseeded" ? step : -1, f.where,
                  f.fact == "torch-random-unseeded"
                      ? "random numbers were drawn from torch's global RNG (first here) and torch.manual_seed() "
                        "was never called: seed it before building the model and the data"
                      : "random numbers were drawn from torch's global RNG before this torch.manual_seed(): seed "
                        "first, then build the model and the data"));
    }
  }
  for (auto& f : unsafe_loads(run)) add(std::move(f));
  for (const auto& op : run.file_ops) {
    if (op.start != start) continue;
    if (op.kind == "save" && op.checkpoint && !named.count("checkpoint-missing-state") &&
        std::any_of(run.probe.begin(), run.probe.end(),
                    [&](const ProbeStep& p) { return p.start == start && p.seq > op.seq; })) {
      const std::vector<std::string> missing = checkpoint_lacks(run, op);
      if (!missing.empty())
        add(finding("checkpoint-missing-state", kCheckpointLaw, op.seq, op.where,
                    fmt::format("the checkpoint saved after step {} lacks {} of the state this run has ({}): a "
                                "resume from it cannot continue exactly; save them all",
                                op.seq, fmt::join(missing, ", "), fmt::join(op.needs, ", "))));
      named.insert("checkpoint-missing-state");  // judged at the first checkpoint only
    }
  }
  return out;
}

int64_t first_probe_step_difference(const RecordedTrace& a, const RecordedTrace& b) {
  const size_t n = std::min(a.probe.size(), b.probe.size());
  const std::set<std::string> rngs = used_rngs(a);
  for (size_t i = 0; i < n; ++i)
    if (a.probe[i].values != b.probe[i].values || !differing_state(a.probe[i], b.probe[i], rngs).empty())
      return static_cast<int64_t>(i) + 1;
  return a.probe.size() != b.probe.size() ? static_cast<int64_t>(n) + 1 : 0;
}

namespace {
bool name_has(const std::string& op, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return op.find(w) != std::string::npos; });
}
// Ops on uninitialized memory: their bytes differ every run, and mean nothing.
bool uninitialized(const ProbeOp& x) {
  return name_has(x.op, {"aten::empty", "aten::new_empty", "aten::resize_"});
}
bool random_op(const std::string& op) {
  return name_has(
      op, {"rand", "normal", "bernoulli", "dropout", "uniform", "multinomial", "exponential", "cauchy", "geometric"});
}
bool parts(const ProbeOp& x, const ProbeOp& y) {
  return x.op == y.op && !uninitialized(x) && x.in == y.in && x.out != y.out;
}
}  // namespace

std::vector<Finding> first_parting_op(const RecordedTrace& a, const RecordedTrace& b, int64_t step) {
  const size_t n = std::min(a.ops.size(), b.ops.size());
  for (size_t i = 0; i < n; ++i) {
    const ProbeOp &x = a.ops[i], &y = b.ops[i];
    std::string detail;
    if (x.op == y.op && uninitialized(x)) continue;
    if (x.op != y.op) {
      detail = fmt::format("the two runs took different ops at op {}: {} ({}) and {} ({})", x.index, x.op, x.where,
                           y.op, y.where);
    } else if (parts(x, y)) {
      const bool atomics = name_has(x.op, {"index_add", "scatter_add", "scatter_reduce", "index_put", "put_",
                                           "embedding_dense_backward", "embedding_bag"});
      detail = fmt::format(
          "first op with equal inputs and different outputs: {} at {} (op {} of the rerun){}", x.op, x.where, x.index,
          random_op(x.op) ? ": a random op drawing from a generator that is not seeded (or seeded from the OS); seed it"
          : atomics       ? ": a kernel known to be nondeterministic on CUDA (atomic adds); "
                            "torch.use_deterministic_algorithms(True) picks a deterministic one or raises"
                          : ": a kernel that is not deterministic here; torch.use_deterministic_algorithms(True) names "
                            "or replaces it");
    } else {
      continue;
    }
    Finding f;
    f.id = "nondeterministic-op";
    f.law = "determinism";
    f.step = step;
    f.where = x.where;
    f.detail = detail;
    return {f};
  }
  return {};
}

std::optional<PartingOp> parting_op_after_restart(const std::vector<ProbeOp>& restart,
                                                  const std::vector<ProbeOp>& straight) {
  size_t n = 0;  // the length of the common tail of op names
  while (n < restart.size() && n < straight.size() &&
         restart[restart.size() - 1 - n].op == straight[straight.size() - 1 - n].op)
    ++n;
  for (size_t k = n; k > 0; --k) {
    const ProbeOp& x = restart[restart.size() - k];
    if (!parts(x, straight[straight.size() - k])) continue;
    return PartingOp{x, random_op(x.op) ? "a random op drawing from a generator whose state the checkpoint does not "
                                          "hold (a torch.Generator of the script's or a module's own): save its "
                                          "get_state() in the checkpoint and set_state() it on resume"
                                        : "an op whose result depends on state the checkpoint does not hold, or a "
                                          "kernel that is not deterministic"};
  }
  return std::nullopt;
}

std::string first_probe_difference(const RecordedTrace& a, const RecordedTrace& b) {
  const size_t n = std::min(a.probe.size(), b.probe.size());
  const std::set<std::string> rngs = used_rngs(a);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<std::string> diff = differing_state(a.probe[i], b.probe[i], rngs);
    if (!diff.empty())
      return fmt::format("first at step {} ({}): {} differ", i + 1, a.probe[i].where, fmt::join(diff, ", "));
  }
  if (a.probe.size() != b.probe.size())
    return fmt::format("{} optimizer steps in one run, {} in the other", a.probe.size(), b.probe.size());
  if (const std::string k = differing_final_digest(a, b); !k.empty()) return fmt::format("the final {} differ", k);
  return "";
}

std::string differing_final_digest(const RecordedTrace& a, const RecordedTrace& b) {
  for (const auto& [k, v] : a.final_digests)
    if (b.final_digests.count(k) && b.final_digests.at(k) != v) return k;
  return "";
}

}  // namespace trainproof
