// A resume at another world size (reshard.h): the preempted run's restarts on another number of
// processes, judged by the ranks' layout-free sums of what each step trained from and on.
#include "src/check/reshard.h"
#include "trainproof/check/findings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/check/check_runs.h"
#include "src/check/saved_files.h"
#include "trainproof/core/errors.h"

namespace trainproof {

namespace {

// One step of a start of the command, over all its processes: the sums of their parts (a sum
// every process recorded, else none), the mean of their losses, the rate, the primary's line.
struct GlobalStep {
  std::map<std::string, uint64_t> parts;
  std::map<std::string, int> counted;
  double loss = 0;
  int losses = 0, processes = 0;
  std::optional<double> lr;
  std::optional<int64_t> opt_step;
  std::string where;
  std::map<std::string, std::vector<uint64_t>> samples;  // process -> its samples' own numbers
  std::optional<uint64_t> sum(const std::string& k) const {
    const auto it = counted.find(k);
    if (it == counted.end() || it->second != processes) return std::nullopt;
    return parts.at(k);
  }
  std::optional<double> mean_loss() const {
    return losses == processes && losses > 0 ? std::optional<double>(loss / losses) : std::nullopt;
  }
};
using Steps = std::map<int64_t, GlobalStep>;  // seq -> the step

// Every start of a run (check's launch number, or the file's start count where check said none),
// step by step over its processes. A process whose batch is bitwise another's of the same step
// (its digest equal: tensor-parallel ranks fed one replicated batch) holds a replica, not a shard:
// its samples are counted once.
std::map<int, Steps> starts_of(const ProcessRun& run) {
  std::map<int, Steps> out;
  std::map<std::pair<int, int64_t>, std::set<std::string>> batches;  // (start, seq) -> the batch digests counted
  for (const auto& [who, t] : run.traces)
    for (const auto& p : t.probe) {
      const int start = p.launch > 0 ? p.launch : p.start;
      GlobalStep& g = out[start][p.seq];
      const auto digest = p.digests.find("batch");
      const bool replica = digest != p.digests.end() && !digest->second.empty() &&
                           !batches[{start, p.seq}].insert(digest->second).second;
      for (const auto& [k, v] : p.sums) {
        if (!(replica && k == "batch")) g.parts[k] += v;  // mod 2^64, as the probe's parts are
        ++g.counted[k];
      }
      if (const auto it = p.values.find("loss"); it != p.values.end()) {
        g.loss += it->second;
        ++g.losses;
      }
      if (!p.samples.empty() && !replica) g.samples[who] = p.samples;
      if (const auto it = p.values.find("lr"); it != p.values.end()) g.lr = it->second;
      if (g.where.empty() || who == run.primary) {
        g.where = p.where;
        g.opt_step = p.opt_step;
      }
      ++g.processes;
    }
  return out;
}

// What a step's state is compared with: a step of the uninterrupted run, or of an earlier start of
// the preempted run (the state a later restart resumes from was saved by the start before it).
struct Source {
  const GlobalStep* step = nullptr;
  int64_t number = 0;
  std::string whose;  // "the uninterrupted run", "start 2 of the preempted run"
  std::string how;    // how it was found: "found by the parameters' sum", ...
};

std::string state_name(const std::string& key) {
  return key == "params" ? "parameters" : key == "optimizer" ? "optimizer state" : key;
}

// A finding of this law, at the step's line.
Finding finding(std::string_view id, const GlobalStep& s, int64_t step, std::string detail) {
  return make_finding(id, step, s.where, std::move(detail));
}

class Judge {
 public:
  Judge(const ProcessRun& straight, const ProcessRun& preempted, int from, int to)
      : name_(law_heading(law::kReshard, fmt::format("restarted on {} process(es) per node where it ran on {}, "
                                                     "trains from the checkpoint's state, on every sample once, "
                                                     "later steps within rel {:g}",
                                                     to, from, kReshardBand))),
        ref_(starts_of(straight)[1]),
        run_(starts_of(preempted)),
        saved_in_first_(saved_in_first_start(preempted)) {}

  ReshardVerdict operator()(const std::vector<std::string>& notes) {
    said_ = notes;
    if (ref_.empty())
      return not_tested(
          "the uninterrupted run recorded no step through the probe: a resume at another world size is judged "
          "from the probe's records (run the command with the probe on)");
    if (!ref_.begin()->second.sum("params"))
      return not_tested(
          "the probe could not sum the parameters over the ranks' parts (a tensor neither a DTensor sharded or "
          "replicated nor a plain one on every rank)");
    offset_[1] = 1;
    for (auto it = std::next(run_.begin()); it != run_.end(); ++it)
      if (auto broken = restart(it->first, it->second)) return *broken;
    if (run_.size() < 2) return not_tested("no restart recorded a step");
    const auto& [last_start, steps] = *run_.rbegin();
    const int64_t last = offset_[last_start] + steps.rbegin()->first - 1, want = ref_.rbegin()->first;
    if (last != want)
      return broken(fmt::format("the preempted run's last step is {}, the uninterrupted run's {}", last, want));
    return {Law(name_, true,
                fmt::format("{}; the loss within rel {:.2g} of the uninterrupted run's at most, the rate equal at "
                            "every step{}",
                            fmt::join(resumed_, "; "), worst_, where())),
            {}};
  }

 private:
  // One restart (start `start` of the preempted run): where it resumed, from what, on what.
  std::optional<ReshardVerdict> restart(int start, const Steps& steps) {
    const GlobalStep& first = steps.begin()->second;
    const int restart_no = start - 1;
    const auto from = source_of(start, first);
    const std::string ranks = fmt::format("{} process(es)", first.processes);
    if (!from) {
      if (!first.sum("params"))
        return not_tested(fmt::format("restart {}'s processes did not all record their part of a step", restart_no));
      return broken_at(
          finding(finding_id::kReshardStateDiffers, first, -1,
                  fmt::format("restart {} ({}) trains from parameters that are the uninterrupted run's at no "
                              "step, nor any its earlier starts held: the checkpoint did not load whole on "
                              "the new number of processes",
                              restart_no, ranks)));
    }
    offset_[start] = from->number;
    if (from->number == 1 && !saved_in_first_)
      return not_tested(
          "kill 1 came before any checkpoint was whole, so its restart rightly began again at the first step: "
          "nothing was resumed");
    if (from->number == 1)
      return broken(fmt::format("restart {} began again at the first step: no checkpoint was resumed", restart_no));
    for (const std::string key : {"params", "optimizer"}) {
      const auto got = first.sum(key), want = from->step->sum(key);
      if (got && want && *got != *want)
        return broken_at(
            finding(finding_id::kReshardStateDiffers, first, from->number,
                    fmt::format("restart {} resumed at step {} ({}) on {}, but the {} it trains from are not the "
                                "checkpoint's: the sum over every rank's part differs from {}'s at step {} ({:016x} vs "
                                "{:016x})",
                                restart_no, from->number, from->how, ranks, state_name(key), from->whose, from->number,
                                *got, *want)));
    }
    for (const auto& [seq, step] : steps) {
      const int64_t n = from->number + seq - 1;
      const auto ref = ref_.find(n);
      if (ref == ref_.end())
        return broken(fmt::format("restart {} ran to step {}, past the uninterrupted run's last ({})", restart_no, n,
                                  ref_.rbegin()->first));
      if (auto b = samples_and_band(step, ref->second, n, restart_no)) return b;
    }
    resumed_.push_back(fmt::format(
        "restart {} resumed at step {} on {} from the checkpoint's parameters and optimizer state ({}'s at step {}, "
        "by the sums over every rank's part), and trained steps {}-{} on the uninterrupted run's samples",
        restart_no, from->number, ranks, from->whose, from->number, from->number,
        from->number + steps.rbegin()->first - 1));
    return std::nullopt;
  }

  // Step `n` of the restart against the uninterrupted run's: the same samples, the same rate, the
  // loss within the band.
  std::optional<ReshardVerdict> samples_and_band(const GlobalStep& got, const GlobalStep& want, int64_t n,
                                                 int restart_no) {
    const auto a = got.sum("batch"), b = want.sum("batch");
    if (a && b && *a != *b)
      return broken_at(
          finding(finding_id::kReshardSamplesDiffer, got, n,
                  fmt::format("at step {} restart {} trained on other samples than the uninterrupted run's "
                              "step {}{}: samples are skipped or repeated across the reshard, as where the "
                              "data position is kept per rank (a count of the samples one rank has seen means "
                              "another batch on another number of ranks) instead of as the global step",
                              n, restart_no, n, whose_samples(got, want, n))));
    if (got.lr && want.lr && *got.lr != *want.lr)
      return broken(fmt::format("at step {} restart {} trained at lr {:.9g}, the uninterrupted run at {:.9g}", n,
                                restart_no, *got.lr, *want.lr));
    const auto la = got.mean_loss(), lb = want.mean_loss();
    if (!la || !lb) return std::nullopt;
    const double rel = std::abs(*la - *lb) / std::max(std::abs(*lb), 1e-30);
    worst_ = std::max(worst_, rel);
    if (rel > kReshardBand)
      return broken(
          fmt::format("at step {} the loss (the mean over the ranks) is {:.9g}, the uninterrupted run's "
                      "{:.9g}: rel {:.2g}, beyond the band of {:g}",
                      n, *la, *lb, rel, kReshardBand));
    return std::nullopt;
  }

  // Which process of the restart took samples its step `n` did not have in the uninterrupted run,
  // the first by identity, and whose step they were: ", rank 0 first: it took 8 samples of step 3
  // (repeated) ...".
  std::string whose_samples(const GlobalStep& got, const GlobalStep& want, int64_t n) const {
    std::multiset<uint64_t> wanted;
    for (const auto& [who, rows] : want.samples) wanted.insert(rows.begin(), rows.end());
    if (wanted.empty() || got.samples.empty()) return " (the sums of the step's samples over the ranks differ)";
    std::map<uint64_t, int64_t> step_of;  // each sample of the uninterrupted run -> the first step that took it
    for (const auto& [m, s] : ref_)
      for (const auto& [w, theirs] : s.samples)
        for (const uint64_t r : theirs) step_of.emplace(r, m);
    std::multiset<uint64_t> untrained = wanted;
    std::string first;
    for (const auto& [who, rows] : got.samples) {
      std::map<int64_t, int> foreign;  // the step the sample belongs to (0: none) -> how many
      for (const uint64_t r : rows) {
        if (const auto it = untrained.find(r); it != untrained.end()) {
          untrained.erase(it);
          continue;
        }
        const auto of = step_of.find(r);
        ++foreign[of == step_of.end() ? 0 : of->second];
      }
      if (foreign.empty() || !first.empty()) continue;
      std::vector<std::string> parts;
      for (const auto& [m, count] : foreign)
        parts.push_back(m == 0 ? fmt::format("{} samples the uninterrupted run never trained on", count)
                               : fmt::format("{} samples of step {} ({})", count, m,
                                             m < n ? "repeated" : "taken ahead of their step"));
      first = fmt::format(", {} first: it took {}", process_name(who).empty() ? "the process" : process_name(who),
                          fmt::join(parts, ", "));
    }
    return first + (untrained.empty() ? ""
                                      : fmt::format(", and {} of the step's {} samples went untrained",
                                                    untrained.size(), wanted.size()));
  }

  // The step whose state the restart's first step trains from: by its parameters' sum (the
  // uninterrupted run's first, then the preempted run's earlier starts, latest first); where none
  // holds them, by the optimizer's step counter or by its samples, so that the failure names the
  // step it meant to resume at.
  std::optional<Source> source_of(int start, const GlobalStep& first) {
    static const std::string kByParams = "found by the parameters' sum";
    const auto params = first.sum("params");
    if (params) {
      for (const auto& [n, s] : ref_)
        if (s.sum("params") == params) {
          return Source{&s, n, "the uninterrupted run", kByParams};
        }
      for (auto it = std::make_reverse_iterator(run_.find(start)); it != run_.rend(); ++it)
        for (const auto& [seq, s] : it->second)
          if (s.sum("params") == params) {
            return Source{&s, offset_[it->first] + seq - 1, fmt::format("start {} of the preempted run", it->first),
                          kByParams};
          }
    }
    if (first.opt_step && ref_.count(*first.opt_step + 1)) {
      return Source{&ref_.at(*first.opt_step + 1), *first.opt_step + 1, "the uninterrupted run",
                    "by the optimizer's step counter"};
    }
    if (const auto batch = first.sum("batch"))
      for (const auto& [n, s] : ref_)
        if (s.sum("batch") == batch) {
          return Source{&s, n, "the uninterrupted run", "by the samples it trained on"};
        }
    return std::nullopt;
  }

  static bool saved_in_first_start(const ProcessRun& run) {
    if (run.traces.empty()) return false;
    const RecordedTrace& t = run.traces.count(run.primary) ? run.main() : run.traces.begin()->second;
    return first_finished_save(t, 1) != nullptr;
  }

  std::string where() const { return said_.empty() ? "" : fmt::format(" ({})", fmt::join(said_, "; ")); }
  ReshardVerdict not_tested(const std::string& why) const { return {Law::not_tested(name_, why + where()), {}}; }
  ReshardVerdict broken(const std::string& why) const { return {Law(name_, false, why + where()), {}}; }
  ReshardVerdict broken_at(Finding f) const { return {Law(name_, false, f.detail + where()), {std::move(f)}}; }

  std::string name_;
  Steps ref_;
  std::map<int, Steps> run_;
  bool saved_in_first_;
  std::map<int, int64_t> offset_;  // start -> the step number of its first step
  std::vector<std::string> said_, resumed_;
  double worst_ = 0;
};

}  // namespace

ReshardVerdict judge_reshard(const ProcessRun& straight, const ProcessRun& preempted, int from, int to,
                             const std::vector<std::string>& notes) {
  return Judge(straight, preempted, from, to)(notes);
}

ReshardVerdict reshard_law(const Launcher& launch, const ProcessRun& straight, const CheckOptions& o,
                           const RunsDiffer& runs_differ, Progress& progress) {
  const int from = nproc_per_node(o.command), to = o.restart_nproc;
  const std::string name =
      law_heading(law::kReshard, fmt::format("restarted on {} process(es) per node where it ran on {}", to, from));
  if (auto untested = nowhere_to_kill(straight.main(), name)) return {*untested, {}};
  const Preemption p =
      preempt(launch, plan_kills(straight.main(), o.kills, o.seed), "preempted", KillMoment::kInAWrite, progress);
  ProcessRun preempted;
  preempted.traces = read_process_traces(p.run.trace_env);
  preempted.primary = straight.primary;
  const auto failed = failed_start_law(p, name);
  ReshardVerdict v = failed ? ReshardVerdict{*failed, {}} : judge_reshard(straight, preempted, from, to, p.notes);
  // Where the values depart (not a start that failed), the check is asked whether its runs differ.
  const std::string differ = v.law.status == Status::kBroken ? runs_differ(!failed) : "";
  if (!differ.empty()) {
    v.law = Law::not_tested(
        v.law.name, fmt::format("{}; but two uninterrupted runs already differ ({}): nothing of the resume can be "
                                "told from that until the loop is deterministic",
                                v.law.detail, differ));
    v.findings.clear();
  }
  if (preempted.traces.count(preempted.primary)) {
    const RecordedTrace& main = preempted.main();
    for (auto& f : non_atomic_saves(main, p.killed_writing)) v.findings.push_back(std::move(f));
    for (auto& f : unsafe_loads(main)) v.findings.push_back(std::move(f));
  }
  return v;
}

}  // namespace trainproof
