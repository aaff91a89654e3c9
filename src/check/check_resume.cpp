// The law of the preempted run (check_laws.h): the command SIGKILLed and restarted, the first
// kill landing on a write into the run folder; its trace then bitwise the uninterrupted run's,
// or the first difference named with what the restart failed to restore.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "src/check/check_laws.h"
#include "src/check/check_runs.h"
#include "src/check/op_reruns.h"
#include "src/check/probe_findings.h"
#include "src/check/probe_records.h"
#include "src/check/saved_files.h"
#include "src/process/process.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"
#include "trainproof/core/recorded_trace.h"

namespace trainproof {

// Where the kills are armed (recorded step counts), drawn from `seed`. Kill 1 lands on the first
// write into the run folder once armed: where the uninterrupted run saved nothing after the
// drawn step (a short run, sparse checkpoints), it is armed at one of the run's saves instead,
// so that a write comes. The others follow it, at random steps.
std::optional<Law> nowhere_to_kill(const RecordedTrace& straight, const std::string& name) {
  if (straight.steps.size() >= 2) return std::nullopt;
  return Law::not_tested(name,
                         fmt::format("the command records {} step(s): nowhere to kill it", straight.steps.size()));
}

std::vector<size_t> plan_kills(const RecordedTrace& straight, int kills, uint64_t seed) {
  const size_t total = straight.steps.size();
  std::mt19937_64 rng(seed);
  std::vector<size_t> at;
  for (int k = 0; k < kills; ++k) at.push_back(1 + rng() % (total - 1));
  std::sort(at.begin(), at.end());
  std::vector<size_t> saves;  // after how many steps the uninterrupted run saved (before its last)
  for (const auto& op : straight.file_ops)
    if (op.kind == "save" && op.seq >= 1 && static_cast<size_t>(op.seq) < total)
      saves.push_back(static_cast<size_t>(op.seq));
  if (saves.empty() || std::any_of(saves.begin(), saves.end(), [&](size_t s) { return s >= at[0]; })) return at;
  at[0] = saves[rng() % saves.size()];
  for (size_t k = 1; k < at.size(); ++k) at[k] = std::max(at[k], at[0]);
  return at;
}

std::optional<size_t> after_first_checkpoint(const RecordedTrace& straight) {
  const ProbeFileOp* save = first_finished_save(straight, 0);
  if (!save) return std::nullopt;
  return static_cast<size_t>(save->seq) + 1;
}

namespace {

// The final parameters of the two runs, where the probe digested them at exit: "" when equal
// (or not both digested).
std::string final_params_difference(const RecordedTrace& straight, const RecordedTrace& resumed) {
  const std::string k = differing_final_digest(straight, resumed);
  if (k.empty()) return "";
  return fmt::format("the final parameters differ ({} digest {} vs {})", k, straight.final_digests.at(k),
                     resumed.final_digests.at(k));
}

// Whether every file exists.
bool written(const std::vector<fs::path>& files) {
  return std::all_of(files.begin(), files.end(), [](const fs::path& f) {
    std::error_code ec;
    return fs::exists(f, ec);
  });
}

// A kill's moment as the preemption record names it, and back.
const char* moment_name(KillMoment m) {
  return m == KillMoment::kInAWrite         ? "in a write"
         : m == KillMoment::kAwayFromWrites ? "away from writes"
                                            : "at the step";
}
KillMoment moment_named(const std::string& name, const fs::path& file) {
  for (const KillMoment m : {KillMoment::kInAWrite, KillMoment::kAwayFromWrites, KillMoment::kAtTheStep})
    if (name == moment_name(m)) return m;
  throw BadInput(fmt::format("check --replay: {}: damaged (a kill's moment '{}')", file.string(), name));
}

// The preempted run's evidence, kept beside its trace: what a replay judges instead of running it.
fs::path preemption_file(const Launcher& launch, const std::string& run) {
  return launch.work() / (run + ".preemption.json");
}

Preemption kept(const Launcher& launch, Preemption p) {
  const nlohmann::json j = {{"at", p.at},
                            {"notes", p.notes},
                            {"restarts", p.restarts},
                            {"killed_writing", p.killed_writing},
                            {"moved_whole", p.moved_whole},
                            {"failed_start", p.failed_start},
                            {"exit_code", p.exit_code},
                            {"unwritten", p.unwritten},
                            {"first", moment_name(p.first)}};
  std::ofstream(preemption_file(launch, p.run.name)) << j.dump(1) << "\n";
  return p;
}

Preemption replayed(const Launcher& launch, const std::string& run) {
  const fs::path file = preemption_file(launch, run);
  std::ifstream in(file);
  if (!in)
    throw BadInput(fmt::format("check --replay: {}: no such file (the kept check ran no {} run)", file.string(), run));
  try {
    const auto j = nlohmann::json::parse(in);
    return {launch.make(run),
            j.at("at").get<std::vector<size_t>>(),
            j.at("notes").get<std::vector<std::string>>(),
            j.at("restarts").get<std::vector<size_t>>(),
            j.at("killed_writing").get<std::string>(),
            j.at("moved_whole").get<bool>(),
            j.at("failed_start").get<int>(),
            j.at("exit_code").get<int>(),
            j.at("unwritten").get<std::vector<std::string>>(),
            moment_named(j.value("first", std::string(moment_name(KillMoment::kInAWrite))), file)};
  } catch (const std::exception& e) {
    throw BadInput(fmt::format("check --replay: {}: damaged ({})", file.string(), e.what()));
  }
}

// Kill 1 of a preempted run: the moment it waits for (a write into the run folder, or one ended),
// and what it lands in.
class FirstKill {
 public:
  FirstKill(const Run& r, const std::vector<fs::path>& resume_files, KillMoment moment)
      : dir_(r.dir),
        resume_files_(resume_files),
        away_(moment == KillMoment::kAwayFromWrites),
        between_(away_ || fault_injected("check-kill-between-writes")),
        watch_(r.dir) {}

  // Whether the moment has come, once `counter` has counted the `at` steps it is armed at: kill 1
  // lands on a write into the run folder (with the fault check-kill-between-writes, the negative
  // control, on a moment when nothing is written).
  bool now(pid_t pid, StepTally& counter, size_t at) {
    const bool closed = !watch_.drain(2).empty();
    // Counting steps re-reads the trace: once armed, nothing but the watch stands between
    // a write's first event and the stop (a checkpoint's write can take 2 ms).
    if (!armed_) {
      if (!(armed_ = counter.now() >= at && written(resume_files_) &&
                     std::none_of(resume_files_.begin(), resume_files_.end(),
                                  [&](const fs::path& f) { return watch_.writing(fs::relative(f, dir_).string()); })))
        return false;
      moved_before_ = watch_.moved_in().size();
      tree_ = process_tree(pid);  // listed now: the stop then reaches every rank at once
    }
    wrote_ = wrote_ || closed || watch_.moved_in().size() > moved_before_;
    target_ = watch_.writing();
    if (target_.empty() == between_ && wrote_) return true;
    // A checkpoint written elsewhere and renamed into the run folder: no write here to
    // tear; the kill comes right after it, so that the restart resumes from it.
    if (!between_ && watch_.moved_in().size() > moved_before_) {
      moved_ = watch_.moved_in().back();
      return true;
    }
    return false;
  }

  // SIGKILLs the start `pid` where it is now, and says where kill 1 landed in `p`.
  void kill(pid_t pid, StepTally& counter, Preemption& p) {
    stop_group(pid, tree_);  // first: the kill lands where it is now
    // A close of the file queued before the stop: the write ended before the kill landed.
    const auto closed_before = watch_.drain(0);
    const bool ended_before = std::find(closed_before.begin(), closed_before.end(), target_) != closed_before.end();
    const uintmax_t bytes = target_.empty() ? 0 : watch_.size_of(target_);
    const size_t steps = counter.now();
    kill_and_reap(pid);
    if (!target_.empty()) {
      p.killed_writing = target_;
      // The kernel closes what a killed process held open: the file's close comes after the kill.
      const auto closed = watch_.drain(50);
      const bool open_at_kill = !ended_before && std::find(closed.begin(), closed.end(), target_) != closed.end();
      p.notes.push_back(fmt::format("kill 1 sent while {} was being written ({} bytes on disk{}, after step {})",
                                    target_, bytes,
                                    open_at_kill   ? ", still open at the kill"
                                    : ended_before ? ", the write ended before the kill landed"
                                                   : "",
                                    steps));
    } else if (!moved_.empty()) {
      p.moved_whole = true;
      p.notes.push_back(fmt::format(
          "kill 1 sent right after {} was moved into the run folder whole (written elsewhere, then renamed: no "
          "write in the run folder to tear; after step {})",
          moved_, steps));
    } else {
      p.notes.push_back(fmt::format("kill 1 sent {} (after step {})",
                                    away_ ? "once a write had ended, away from any" : "between writes", steps));
    }
  }

 private:
  fs::path dir_;
  const std::vector<fs::path>& resume_files_;
  bool away_;
  bool between_;  // the moment is one with no write under way (away_, or the negative control's fault)
  WriteWatch watch_;
  bool armed_ = false;       // at steps recorded: from here on the first write is the moment
  size_t moved_before_ = 0;  // what had been moved into the run folder whole when armed
  bool wrote_ = !away_;      // away from writes: once a write has ended since arming
  std::string target_, moved_;
  std::vector<ListedProcess> tree_;  // listed when armed
};

}  // namespace

Preemption preempt(const Launcher& launch, const std::vector<size_t>& at, const std::string& run, KillMoment moment,
                   Progress& progress) {
  if (launch.replaying()) return replayed(launch, run);
  Preemption p{launch.make(run), at, {}, {}, {}, false, -1, 0, {}, moment};
  const Run& r = p.run;
  StepTally counter(r.trace);
  const std::vector<fs::path> resume_files = launch.resume_files(r);
  for (size_t k = 0; k <= at.size(); ++k) {
    if (k > 0) p.restarts.push_back(complete_size(r.trace));
    const pid_t pid =
        launch.start(r, k == 0 ? std::string("start 1") : fmt::format("start {} (after kill {})", k + 1, k), {},
                     static_cast<int>(k) + 1);
    // A start that failed, and the files --resume-args names that were not there then.
    const auto failed = [&](int code) {
      p.failed_start = static_cast<int>(k);
      p.exit_code = code;
      for (const auto& f : resume_files)
        if (std::error_code ec; !fs::exists(f, ec)) p.unwritten.push_back(fs::relative(f, r.dir).string());
      return kept(launch, p);
    };
    if (k == at.size()) {
      if (const int code = launch.finish(pid, r); code != 0) return failed(code);
      return kept(launch, p);
    }
    std::optional<FirstKill> first;
    if (k == 0 && moment != KillMoment::kAtTheStep) first.emplace(r, resume_files, moment);
    std::optional<int> early;
    while (!(early = poll_exit(pid))) {
      if (first ? first->now(pid, counter, at[k]) : counter.now() >= at[k]) break;  // a kill at a recorded step
      if (!first) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (early) {  // it finished before the kill: nothing to resume from at this point
      kill_group(pid);
      if (*early != 0) return failed(*early);
      p.notes.push_back(fmt::format("start {} finished before kill {} at step {}", k + 1, k + 1, at[k]));
      return kept(launch, p);
    }
    if (first)
      first->kill(pid, counter, p);
    else
      kill_and_reap(pid);  // it stops the group first
    progress.note(
        fmt::format("preempted run SIGKILLed ({} of {}) after {} recorded steps", k + 1, at.size(), counter.now()));
  }
  return kept(launch, p);
}

std::optional<Law> failed_start_law(const Preemption& p, const std::string& name) {
  if (p.failed_start < 0) return std::nullopt;
  const Run& r = p.run;
  // A restart that died for a file --resume-args names and the run never wrote: the kill came
  // before the save, which is check's planning (a short run), not the loop's failure.
  if (p.failed_start > 0 && !p.unwritten.empty())
    return Law::not_tested(
        name, fmt::format("the restart after kill {} failed (exit {}) for {}, which --resume-args names: the run "
                          "had not written it when it was killed (no kill comes before it exists; here the run "
                          "was killed {}). Name a file the loop has saved by then, or run it longer",
                          p.failed_start, p.exit_code, p.unwritten.front(),
                          p.at.empty() ? std::string("early") : fmt::format("after step {}", p.at[0])));
  return Law(name, false,
             fmt::format("{} failed (exit {}): the loop is not preemption-safe; its output ends:\n{}",
                         p.failed_start == 0 ? std::string("the first start")
                                             : fmt::format("the restart after kill {}", p.failed_start),
                         p.exit_code, tail_of(r.log)));
}

namespace {

// Where each restart of the preempted run picked up (with the probe's records, found by content;
// with only a Recorder's, by the steps logged), the notes that say so, the run as the report
// plots it (its steps as the uninterrupted run numbers them), and where it first departs.
struct Placed {
  std::vector<std::string> notes;
  bool any_resumed = false;  // a loop that starts over at its first step resumes nothing
  PreemptedRun seen;
  std::optional<ResumeDeparture> departure;
};

Placed place_restarts(const Preemption& p, const RecordedTrace& straight, RecordedTrace resumed) {
  Placed out{p.notes, false, {}, std::nullopt};
  PreemptedRun& seen = out.seen;
  if (straight.probe.empty() || resumed.probe.empty()) {
    // Every step logged, in file order: where each kill came, for the report's plots only.
    const auto logged = logged_steps_from(p.run.trace, 0);
    seen = {resumed, {}, {}, -1, {}, p.run.trace_env};
    for (size_t i = 0; i < p.restarts.size(); ++i) {
      const auto steps = logged_steps_from(p.run.trace, p.restarts[i]);
      if (logged.size() > steps.size()) seen.kills.push_back(logged[logged.size() - steps.size() - 1]);
      if (steps.empty()) continue;
      seen.restarts.push_back(steps.front());
      out.any_resumed = out.any_resumed || steps.front() > straight.steps.begin()->first;
      out.notes.push_back(fmt::format("restart {} logged step {} first", i + 1, steps.front()));
    }
    return out;
  }
  const auto aligned = align_restarts(straight, resumed);
  auto offset = step_offsets(aligned);
  std::map<int, int64_t> last;  // each start's last step, as the uninterrupted run numbers it
  for (const auto& r : resumed.probe) last[r.start] = std::max(last[r.start], offset[r.start] + r.seq);
  for (const auto& a : aligned) {
    out.any_resumed = out.any_resumed || a.step > 1;
    // A checkpoint saved at an epoch's end (or every N steps): the steps after it that the killed
    // start had trained are trained anew. The law is still bitwise; the words say what happened.
    const int64_t killed_after = last.count(a.start - 1) ? last[a.start - 1] : 0;
    const std::string anew =
        a.step > 1 && a.step <= killed_after
            ? fmt::format(", and trained steps {}-{} anew: the checkpoint it loaded was saved after step {}", a.step,
                          killed_after, a.step - 1)
            : "";
    out.notes.push_back(fmt::format("restart {} resumed at step {} (found by {}){}", a.start - 1, a.step, a.how, anew));
  }
  if (resumed.steps_from_probe) renumber_steps(resumed, aligned);
  // The first departure names the cause; from there on the preempted run is on another
  // trajectory, and later restarts cannot be compared with the uninterrupted run.
  out.departure = first_departure(straight, resumed, aligned);
  seen = {resumed, {}, {}, out.departure ? out.departure->step : -1, aligned, p.run.trace_env};
  for (const auto& a : aligned) seen.restarts.push_back(a.step);
  for (const auto& [start, step] : last)
    if (start < last.rbegin()->first) seen.kills.push_back(step);
  return out;
}

// What the restart failed to restore, at the first step the preempted run departs at. A loop that
// never zeroes its gradients carries them from step to step: state no checkpoint holds, so a
// restart departs however complete its checkpoint is (zero-grad-missing names the line); that is
// said in `notes`, and nothing is blamed.
std::vector<Finding> diagnosis(const RecordedTrace& straight, const RecordedTrace& resumed, const ResumeDeparture& d,
                               const OpReruns& reruns, std::vector<std::string>& notes) {
  const bool carries_grads = std::any_of(straight.facts.begin(), straight.facts.end(),
                                         [](const ProbeFact& f) { return f.fact == "backward-onto-last-step-grads"; });
  if (carries_grads) {
    notes.push_back(fmt::format(
        "it departs at step {}: the loop never zeroes its gradients, so each step adds onto the last one's, and "
        "no checkpoint holds those; a restart begins with none (zero-grad-missing)",
        d.step));
    return {};
  }
  std::vector<Finding> diagnosed = diagnose_resume(resumed, d);
  for (auto& f : diagnosed)
    if (f.id == finding_id::kResumeStateEqualValuesDiffer) f = reruns.resume_parting_op(straight, d, f);
  return diagnosed;
}

}  // namespace

namespace {

// The checkpoints the preempted run wrote straight over the one a restart loads (the probe saw
// both), kill 1 having landed in the write of `killed_writing`.
std::vector<Finding> torn_saves(const Run& r, const std::string& killed_writing) {
  std::error_code ec;
  if (!fs::exists(r.trace, ec)) return {};
  try {
    return non_atomic_saves(read_recorded_trace(r.trace), killed_writing);
  } catch (const BadInput&) {
    return {};
  }
}

// What a departing state names where every recorded value and the final parameters are still
// bitwise the uninterrupted run's: advice, naming what would make it matter.
void as_advice(std::vector<Finding>& diagnosed) {
  for (auto& f : diagnosed) {
    f.advice = true;
    f.detail +=
        ". Every recorded value and the final parameters are still bitwise the uninterrupted run's: nothing in "
        "this run depends on that state yet (it would with dropout, random augmentation, or DataLoader workers "
        "seeded from it)";
  }
}

// Whether kill 1 came before any checkpoint of the preempted run was whole, so that every restart
// rightly began again (`probed`: the probe would have seen a save finish): the law's test is then
// a kill after one (resume_law).
bool killed_before_first_checkpoint(const Preemption& p, const Placed& placed, bool probed) {
  const RecordedTrace& resumed = placed.seen.trace;
  return probed && !p.restarts.empty() && !placed.any_resumed &&
         !first_finished_save(resumed, probe_records::first_start(resumed));
}

// The law `name` of a preempted run `p`, `placed`, whose values are the uninterrupted run's:
// held, or NOT TESTED where no checkpoint was whole before the kill (`before_first_checkpoint`)
// or no kill landed in a write; broken where every restart began again though a checkpoint was
// whole. `where`: the notes on the kills.
Law held_unless_untested(const Preemption& p, const Placed& placed, bool before_first_checkpoint,
                         const std::string& name, const std::string& where) {
  if (before_first_checkpoint)
    return Law::not_tested(
        name, fmt::format("kill 1 came before any checkpoint was whole{}, so its restarts rightly began again at the "
                          "first step: nothing was resumed{}",
                          p.killed_writing.empty() ? std::string()
                                                   : fmt::format(" (it landed in the write of {})", p.killed_writing),
                          where));
  if (!p.restarts.empty() && !placed.any_resumed)
    return {name, false,
            "every restart began again at the first step, though a checkpoint was whole before kill 1: no checkpoint "
            "in the run folder was resumed from" +
                where};
  if (p.first == KillMoment::kInAWrite && !p.moved_whole && p.killed_writing.empty())
    return Law::not_tested(
        name, fmt::format("no kill landed during a write into the run folder, so a torn checkpoint was never put to a "
                          "restart{}; more steps, or a checkpoint in the run folder ({{run_dir}}) within the run, give "
                          "a kill its moment",
                          where));
  return {name, true, fmt::format("{} steps, final parameters equal{}", placed.seen.trace.steps.size(), where)};
}

}  // namespace

// The law `name` of the preempted run `p` (judged from its evidence alone, but for the op reruns).
ResumeVerdict judge_preemption(const Preemption& p, const RecordedTrace& straight, const std::string& name,
                               const RunsDiffer& runs_differ, const OpReruns& reruns) {
  ResumeVerdict v{Law(name, true, ""), {}, {}, false};
  if (auto failed = failed_start_law(p, name)) {
    if (failed->status == Status::kBroken) {
      v.findings = torn_saves(p.run, p.killed_writing);
      v.torn = std::any_of(v.findings.begin(), v.findings.end(), [](const Finding& f) { return f.breaks(); }) &&
               p.failed_start > 0 && !p.killed_writing.empty();
    }
    v.law = *failed;
    return v;
  }
  Placed placed = place_restarts(p, straight, read_recorded_trace(p.run.trace));
  const RecordedTrace& resumed = placed.seen.trace;
  const bool before_first_checkpoint =
      killed_before_first_checkpoint(p, placed, !straight.probe.empty() && !resumed.probe.empty());
  // The law is about values: every recorded value and the final parameters bitwise the
  // uninterrupted run's. A digest of the state that departs while they all stay equal breaks
  // nothing in this run: its findings become advice, naming what would make it matter.
  const std::string values = first_difference(straight, resumed);
  std::string diff = values.empty() ? final_params_difference(straight, resumed) : values;
  // State the run carries outside its optimizers' parameters (an EMA, an averaged model): held
  // through the files it saves at its end.
  const auto carried = diff.empty() ? final_file_difference(straight, resumed) : std::nullopt;
  if (carried && !carried->rng_only) diff = carried->detail;
  // Uninterrupted runs that differ from each other depart after a restart anyway: no state is to
  // blame for that, and none is named. Where the values depart, the check is asked to know.
  const std::string differ = runs_differ(!diff.empty());
  std::vector<Finding> diagnosed;
  if (placed.departure && differ.empty())
    diagnosed = diagnosis(straight, resumed, *placed.departure, reruns, placed.notes);
  if (diff.empty())
    as_advice(diagnosed);
  else if (values.empty() && !diagnosed.empty())
    diff = fmt::format("{}; {}", diff, diagnosed.front().detail);  // the parameters parted after the steps
  v.findings = torn_saves(p.run, p.killed_writing);
  v.findings.insert(v.findings.end(), diagnosed.begin(), diagnosed.end());
  if (carried && differ.empty()) v.findings.push_back(carried->finding);
  for (auto& f : unsafe_loads(resumed)) v.findings.push_back(std::move(f));
  for (auto& f : model_only_resumes(resumed)) v.findings.push_back(std::move(f));
  const std::string where = placed.notes.empty() ? "" : " (" + fmt::format("{}", fmt::join(placed.notes, "; ")) + ")";
  if (!diff.empty() && !differ.empty())
    v.law = Law::not_tested(
        name, fmt::format("the preempted run departs ({}), but two uninterrupted runs already differ ({}): a "
                          "departure after a restart says nothing of the resume until the loop is deterministic "
                          "(or held by a band golden, --band){}",
                          diff, differ, where));
  else if (!diff.empty())
    v.law = {name, false, diff + where};
  else
    v.law = held_unless_untested(p, placed, before_first_checkpoint, name, where);
  v.before_first_checkpoint = before_first_checkpoint && v.law.status == Status::kNotTested;
  v.seen = std::move(placed.seen);
  return v;
}

namespace {

// One preempted run of the command, named `run` in the work folder, and its law. Kill 1 lands on a
// write into the run folder, or, o.away_from_writes, once a write has ended and none is under way
// (where a restart died on the checkpoint kill 1 tore: the rest of the resume is diagnosed from an
// intact one).
ResumeVerdict preempted_run(const Launcher& launch, const RecordedTrace& straight, const ResumeOptions& o,
                            const std::string& run, Progress& progress) {
  const std::string name = law_heading(
      law::kExactResume, fmt::format("SIGKILLed {} time(s) and restarted, bitwise the uninterrupted run", o.kills));
  if (auto untested = nowhere_to_kill(straight, name)) return {*untested, {}, {}, false};
  const Preemption p =
      preempt(launch, o.first_at ? std::vector<size_t>{*o.first_at} : plan_kills(straight, o.kills, o.seed), run,
              o.first, progress);
  return judge_preemption(p, straight, name, o.runs_differ, o.reruns);
}

}  // namespace

// The preempted run (check_laws.h). Where a restart dies on the checkpoint kill 1 tore (a
// non-atomic save), the law is broken, and one more run, killed once away from any write, shows
// the rest of the resume in the same check: what a restart from an intact checkpoint misses.
ResumeVerdict resume_law(const Launcher& launch, const RecordedTrace& straight, const ResumeOptions& o,
                         Progress& progress) {
  ResumeVerdict v = preempted_run(launch, straight, o, "preempted", progress);
  if (v.before_first_checkpoint) {
    const auto at = after_first_checkpoint(straight);
    if (!at) return v;
    progress.note(fmt::format(
        "kill 1 came before any checkpoint was whole: one more run, killed once after the first whole checkpoint "
        "(after step {})",
        *at));
    ResumeOptions once = o;
    once.kills = 1;
    once.first = KillMoment::kAtTheStep;
    once.first_at = at;
    ResumeVerdict again = preempted_run(launch, straight, once, "preempted-after-checkpoint", progress);
    again.law.name = v.law.name;
    again.law.detail = fmt::format("{}; the first run: {}", again.law.detail, v.law.detail);
    again.findings.insert(again.findings.begin(), v.findings.begin(), v.findings.end());
    return again;
  }
  if (!v.torn || v.law.passed()) return v;
  progress.note("a restart died on the torn checkpoint: one more run, killed once away from any write, for the rest");
  ResumeOptions once = o;
  once.kills = 1;
  once.first = KillMoment::kAwayFromWrites;
  ResumeVerdict again = preempted_run(launch, straight, once, "preempted-away-from-writes", progress);
  v.law.detail += fmt::format("\n    Killed once more away from any write (a run of its own): {}: {}",
                              law_status_text(again.law.status), again.law.detail);
  v.findings.insert(v.findings.end(), again.findings.begin(), again.findings.end());
  if (!again.seen.trace_env.empty()) v.seen = std::move(again.seen);  // the run the report plots: the last judged
  return v;
}

}  // namespace trainproof
