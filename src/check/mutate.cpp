// `trainproof mutate` (check/mutate.h): the documents' mistakes planted into copies of the
// team's script, one a copy, each held to `check`.
#include "trainproof/check/mutate.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "src/check/check_runs.h"
#include "src/check/probe_findings.h"
#include "src/process/process.h"
#include "trainproof/check/findings.h"
#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/progress.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/core/temp_dir.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

// A place a mutation can be planted (index >= 0), or a mutation with none here (index -1), as
// python/trainproof/mutate.py lists them.
struct Site {
  int index = -1;
  std::string id, what, where, absent;
  std::set<std::string> catches;  // the findings that name it (the catalog's planted_by)
  // A mistake of resume: it changes nothing before the first restart, so the unmutated script's
  // uninterrupted run stands for the mutant's (--reference).
  bool resume = false;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `PYTHON -m trainproof.mutate ARGS...`: its stdout, one entry a line; BadInput with its stderr.
std::vector<std::string> run_mutator(const std::string& python, const std::vector<std::string>& args,
                                     const fs::path& scratch) {
  std::vector<std::string> argv = {"-m", "trainproof.mutate"};
  argv.insert(argv.end(), args.begin(), args.end());
  const fs::path out = scratch / "mutator.out", err = scratch / "mutator.err";
  const int rc = wait_exit(
      spawn_program(resolve_program(python), argv, {out, err}, {{"PYTHONPATH", probe_python_dir().string()}}));
  if (rc != 0)
    throw BadInput(fmt::format("planting mutants ({} -m trainproof.mutate {}) failed with exit {}: {}", python,
                               fmt::join(args, " "), rc, slurp(err)));
  std::vector<std::string> lines;
  std::istringstream in(slurp(out));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

std::vector<Site> list_sites(const std::string& python, const std::string& script, const fs::path& scratch) {
  std::vector<Site> out;
  for (const auto& line : run_mutator(python, {"list", script}, scratch)) {
    const auto j = nlohmann::json::parse(line);
    Site s;
    s.index = j.at("index").get<int>();
    s.id = j.at("id").get<std::string>();
    s.what = j.at("what").get<std::string>();
    s.where = j.value("where", "");
    s.absent = j.value("absent", "");
    s.resume = j.value("resume", false);
    for (const auto& k : finding_catalog())  // the findings a mutant of it is expected to draw
      if (std::find(k.planted_by.begin(), k.planted_by.end(), s.id) != k.planted_by.end())
        s.catches.insert(std::string(k.id));
    out.push_back(std::move(s));
  }
  return out;
}

// Why a mutant check saw nothing, as far as check can tell, and what would make it see.
std::string why_survived(const Site& s, const CheckOptions& c, const CheckReport& r,
                         const std::vector<Finding>& base_findings) {
  if (s.resume) {
    if (c.kills == 0) return "no kill, so no restart to miss it: run with --kills 1 or more";
    // The unmutated script breaks the law already: its own first departure comes first.
    const auto own = std::find_if(base_findings.begin(), base_findings.end(),
                                  [](const Finding& f) { return !f.allowed && f.law == law::kExactResume; });
    for (const auto& e : r.laws)
      if (e.status == Status::kBroken)
        return fmt::format(
            "masked: the unmutated script already breaks {}{}; the first departure is its own, so "
            "this one shows only once that is fixed",
            law_of(e.name),
            own == base_findings.end() ? std::string() : fmt::format(" ([{}] {})", own->id, own->heading()));
    for (const auto& e : r.laws)
      if (e.status == Status::kNotTested) return fmt::format("the resume law was not tested: {}", e.detail);
    return "every restart resumed bitwise: the piece may not matter to this loop, or no restart came after it "
           "mattered (more --kills, a longer run)";
  }
  if (s.id == "delete-eval" || s.id == "delete-train")
    return "equivalent here if the model has no dropout or BatchNorm: the mode changes nothing it computes";
  if (s.id == "delete-no-grad") return "no backward reached the validation's graph, and no finding reads its cost";
  if (s.id == "delete-manual-seed")
    return c.runs < 2 && c.reference.empty() ? "one run (--runs 1) checks no determinism"
                                             : "seeded elsewhere too, or nothing drew from torch's global RNG";
  return "check saw nothing different: equivalent here, or the planted line mattered to no recorded value";
}

// Whether a mutant's uninterrupted run is bitwise the unmutated script's: every step's values and
// the probe's digests of its state, and the final parameters. Such a mutant is equivalent here
// (a model.train() on a model that is in train mode already), not a mistake the gate missed.
bool same_run(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (!fs::exists(a, ec) || !fs::exists(b, ec)) return false;
  try {
    const RecordedTrace x = read_recorded_trace(a), y = read_recorded_trace(b);
    if (x.steps != y.steps || x.params != y.params || x.final_digests != y.final_digests ||
        x.probe.size() != y.probe.size())
      return false;
    // The RNGs the loop draws from; the others are seeded by the OS at import, different each run.
    const std::set<std::string> used = used_rngs(x);
    const auto state = [&](const ProbeStep& p) {
      auto d = p.digests;
      std::erase_if(d, [&](const auto& kv) { return kv.first.rfind("rng.", 0) == 0 && !used.count(kv.first); });
      return d;
    };
    for (size_t i = 0; i < x.probe.size(); ++i)
      if (x.probe[i].values != y.probe[i].values || state(x.probe[i]) != state(y.probe[i])) return false;
    return !x.steps.empty();
  } catch (const BadInput&) {
    return false;
  }
}

// The mark the planted line makes when it runs (mutate.py's), beside the mutant's runs.
fs::path ran_mark(const CheckOptions& mutant) {
  return mutant.keep.parent_path() / "ran";
}

// The mutations of `script` (run by `python`) that mutate plants: every one, or --only's.
std::vector<Site> selected_sites(const MutateOptions& o, const std::string& python, const fs::path& script,
                                 const fs::path& scratch) {
  std::vector<Site> sites = list_sites(python, script.string(), scratch);
  if (o.only.empty()) return sites;
  for (const auto& id : o.only)
    if (std::none_of(sites.begin(), sites.end(), [&](const Site& s) { return s.id == id; }))
      throw BadInput(fmt::format("--only {}: no such mutation (see docs/check.md)", id));
  std::erase_if(sites, [&](const Site& s) { return std::find(o.only.begin(), o.only.end(), s.id) == o.only.end(); });
  return sites;
}

// The unmutated script's check, kept in `keep`: what it draws (its findings, the laws it breaks)
// is no evidence against a mutant, and its uninterrupted run stands for the resume mutants'.
struct Unmutated {
  Unmutated(const CheckOptions& o, fs::path where) : keep(std::move(where)), report(check(kept_in(o, keep))) {
    for (const auto& f : report.findings)
      if (!f.allowed) ids.insert(f.id);
    for (const auto& e : report.laws)
      if (e.status == Status::kBroken) broken.insert(e.name);
  }
  static CheckOptions kept_in(CheckOptions o, const fs::path& keep) {
    o.keep = keep;
    return o;
  }
  fs::path keep;
  CheckReport report;
  std::set<std::string> ids, broken;
};

// What check made of the mutant `s`, checked as `c` with the report `r`, into `m`: caught by a
// finding it is expected to draw, by another, or by a law the unmutated script holds; else why
// it survived (or is equivalent here, or masked).
void judge_mutant(const Site& s, const CheckOptions& c, const CheckReport& r, const Unmutated& base, MutantResult& m) {
  const Finding* expected = nullptr;
  const Finding* other = nullptr;
  for (const auto& f : r.findings) {
    if (f.allowed || base.ids.count(f.id)) continue;  // advice names it too
    if (!expected && s.catches.count(f.id)) expected = &f;
    if (!other) other = &f;
  }
  const ReportEntry* law = nullptr;
  for (const auto& e : r.laws)
    if (!law && e.status == Status::kBroken && !base.broken.count(e.name)) law = &e;
  std::error_code ec;
  if (const Finding* f = expected ? expected : other) {
    m.outcome = MutantResult::Outcome::kCaught;
    m.by = fmt::format("[{}] {}{}", f->id, f->heading(), f->advice ? " (advice)" : "");
  } else if (law) {
    m.outcome = MutantResult::Outcome::kCaught;
    m.by = fmt::format("{} BROKEN", law_of(law->name));
  } else if (!fs::exists(ran_mark(c), ec)) {
    m.why = "the planted line never ran in any run";
  } else if (same_run(base.keep / "uninterrupted-1.trace", c.keep / "uninterrupted-1.trace")) {
    m.why = "equivalent here: its run is bitwise the unmutated script's (values, state digests, final parameters)";
  } else {
    // Masked (the unmutated script breaks the same law first): not a miss of the gate, which
    // is red for this script already.
    m.why = why_survived(s, c, r, base.report.findings);
    if (m.why.rfind("masked", 0) != 0) m.outcome = MutantResult::Outcome::kSurvived;
  }
}

}  // namespace

MutateReport mutate(const MutateOptions& o) {
  const auto& cmd = o.check.command;
  size_t at = 1;
  while (at < cmd.size() && fs::path(cmd[at]).extension() != ".py") ++at;
  if (cmd.empty() || at >= cmd.size())
    throw BadInput("mutate plants mistakes into a Python script: the command must be PYTHON SCRIPT.py [ARGS...]");
  std::error_code ec;
  const fs::path script = fs::absolute(cmd[at], ec);
  if (!fs::is_regular_file(script, ec)) throw BadInput(fmt::format("{}: no such script", cmd[at]));

  TempDir scratch("mutate");
  const fs::path root = o.check.keep.empty() ? scratch.path() : o.check.keep;
  fs::create_directories(root, ec);
  if (ec) throw BadInput(fmt::format("{}: cannot create: {}", root.string(), ec.message()));
  const std::vector<Site> sites = selected_sites(o, cmd[0], script, scratch.path());
  const size_t planted = std::count_if(sites.begin(), sites.end(), [](const Site& s) { return s.index >= 0; });

  // The unmutated script first: what it draws is no evidence against a mutant, and its
  // uninterrupted run stands for the resume mutants'.
  MutateReport out;
  report_progress(o.check.progress, fmt::format("mutate: {} mutants; the unmutated script first\n", planted));
  const auto t0 = std::chrono::steady_clock::now();
  const Unmutated base(o.check, root / "unmutated");
  const double base_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& f : base.report.findings)
    if (!f.allowed) out.base_findings.push_back(fmt::format("[{}] {}", f.id, f.heading()));
  report_progress(o.check.progress, fmt::format("mutate: the unmutated check took {:.0f} s; {} mutants, about {:.0f} "
                                                "min one after another\n",
                                                base_s, planted, base_s * static_cast<double>(planted) / 60));

  size_t n = 0;
  for (const Site& s : sites) {
    MutantResult m;
    m.id = s.id;
    m.what = s.what;
    m.where = s.where;
    if (s.index < 0) {
      m.why = fmt::format("no site: {}", s.absent);
      out.mutants.push_back(m);
      continue;
    }
    ++n;
    const fs::path dir = root / fmt::format("mutant-{:02d}-{}", s.index, s.id);
    const auto lines = run_mutator(cmd[0], {"write", script.string(), std::to_string(s.index), (dir / "src").string()},
                                   scratch.path());
    CheckOptions c = o.check;
    c.command[at] = lines.empty() ? std::string() : lines.back();
    c.keep = dir / "runs";
    if (s.resume && c.reference.empty() && fs::exists(base.keep / "uninterrupted-1.trace", ec))
      c.reference = base.keep / "uninterrupted-1.trace";  // the unmutated run stands for a resume mutant's
    const ProgressSink outer = o.check.progress;
    c.progress = [outer, n, planted, &s](const std::string& text) {
      report_progress(outer, fmt::format("[mutant {}/{} {} {}] {}", n, planted, s.id, s.where, text));
    };
    ::setenv("TRAINPROOF_MUTANT_RAN", ran_mark(c).c_str(), 1);
    try {
      const CheckReport r = check(c);
      judge_mutant(s, c, r, base, m);
    } catch (const BadInput& e) {  // the mutant fails its first run: no CI would miss it
      m.outcome = MutantResult::Outcome::kCaught;
      m.by = fmt::format("the script fails: {}", std::string(e.what()).substr(0, 160));
    }
    ::unsetenv("TRAINPROOF_MUTANT_RAN");
    out.mutants.push_back(m);
  }
  for (const auto& m : out.mutants) {
    out.caught += m.outcome == MutantResult::Outcome::kCaught;
    out.survived += m.outcome == MutantResult::Outcome::kSurvived;
    out.not_applicable += m.outcome == MutantResult::Outcome::kNotApplicable;
  }
  return out;
}

}  // namespace trainproof
