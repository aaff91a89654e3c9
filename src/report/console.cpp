// The console reporter (report.h): the text people read on stdout; warnings repeated on stderr
// as they are rendered. And the screen itself: emit_report() and the progress on stderr.
#include <iterator>

#include "trainproof/core/atomic_file.h"
#include "trainproof/report/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace trainproof {

namespace {

using Out = std::back_insert_iterator<std::string>;

// The result tables: series (and run problems), then invariants.
void print_results(Out o, const std::vector<ReportEntry>& entries) {
  size_t wide = 6, dev_wide = 5;  // the series and device columns fit their longest entries
  for (const auto& e : entries) {
    if (e.kind != EntryKind::kInvariant) wide = std::max(wide, e.name.size());
    dev_wide = std::max(dev_wide, e.device.size());
  }
  fmt::format_to(o, "\n{:<20} {:<{}} {:<{}} {:<9} {:>9} {:>9} {:>6} {:>6}  {}\n", "scenario", "dev", dev_wide, "series",
                 wide, "status", "max abs", "max rel", "ulp", "first", "tolerance");
  for (const auto& e : entries) {
    if (e.kind == EntryKind::kInvariant) continue;
    const bool series = e.kind == EntryKind::kSeries;
    fmt::format_to(o, "{:<20} {:<{}} {:<{}} {:<9} {:>9} {:>9} {:>6} {:>6}  {}\n", e.scenario, e.device, dev_wide,
                   e.name, wide, status_text(e.status), series ? short_num(e.max_abs) : "",
                   series ? short_num(e.max_rel) : "", series ? std::to_string(e.max_ulp) : "",
                   e.first_divergence >= 0 ? std::to_string(e.first_divergence) : (series ? "-" : ""),
                   series ? e.tolerance + (e.cross_environment ? " [cross]" : "") : "");
    if (e.status != Status::kPass && !e.detail.empty()) fmt::format_to(o, "    -> {}\n", e.detail);
  }
  bool header = false;
  for (const auto& e : entries) {
    if (e.kind != EntryKind::kInvariant) continue;
    if (!header) fmt::format_to(o, "\n{:<20} {:<{}} {:<9} {}\n", "scenario", "dev", dev_wide, "status", "invariant");
    header = true;
    fmt::format_to(o, "{:<20} {:<{}} {:<9} {}\n", e.scenario, e.device, dev_wide, status_text(e.status), e.name);
    if (e.status != Status::kPass && !e.detail.empty()) fmt::format_to(o, "    -> {}\n", e.detail);
  }
}

// verify --paths: the failing checks, a row per path, what each changes, and agreement.
void print_paths(Out o, const VerifyReport& r) {
  std::vector<ReportEntry> failing;
  for (const auto& e : r.entries)
    if (e.failed()) failing.push_back(e);
  if (!failing.empty()) {
    fmt::format_to(o, "\nchecks not passing:");
    print_results(o, failing);
  }
  fmt::format_to(o, "\n{:<20} {:>7} {:>12} {:>9}  {}\n", "execution path", "checks", "not passing", "seconds",
                 "environment");
  for (const auto& p : r.paths)
    fmt::format_to(o, "{:<20} {:>7} {:>12} {:>9.1f}  {}\n", p.name, p.checks, p.failing, p.seconds, p.env);
  fmt::format_to(o, "\nfingerprint fields each path changes (golden -> path):\n");
  for (const auto& p : r.paths)
    fmt::format_to(o, "  {:<20} {}\n", p.name,
                   p.fingerprint.empty() ? "none (the golden's own environment: exact tolerances)"
                                         : fmt::format("{}", fmt::join(p.fingerprint, "; ")));
  fmt::format_to(o, "\nagreement between paths (paths in one group produced bitwise identical traces):\n");
  for (const auto& a : r.agreement) {
    std::vector<std::string> text;
    for (const auto& members : a.groups) text.push_back(fmt::format("[{}]", fmt::join(members, " ")));
    fmt::format_to(o, "  {:<22} {} distinct: {}\n", a.scenario, a.groups.size(), fmt::join(text, " "));
  }
  const Tally n = tally(r.entries);
  fmt::format_to(o, "\nverify --paths: {} paths, {} checks, {} not passing, {} skipped, {:.1f} s\n", r.paths.size(),
                 r.entries.size(), n.failed, n.skipped, r.seconds);
}

void print_verify_report(Out o, const VerifyReport& r) {
  if (!r.paths.empty()) return print_paths(o, r);
  print_results(o, r.entries);
  if (!r.fingerprint_notes.empty()) {
    fmt::format_to(
        o, "\nfingerprint fields that differ from the golden's (the golden's cross-environment tolerances apply):\n");
    // Notes read "  scenario/device: field: golden X | here Y": one line per difference, with
    // the scenarios it holds for, instead of one per scenario.
    std::vector<std::pair<std::string, std::vector<std::string>>> grouped;
    std::set<std::string> scenarios;
    for (const auto& n : r.fingerprint_notes) {
      const size_t colon = n.find(": ");
      const size_t lead = n.find_first_not_of(' ');
      if (colon == std::string::npos || lead == std::string::npos || lead >= colon) {
        grouped.push_back({n, {}});
        continue;
      }
      const std::string who = n.substr(lead, colon - lead), what = n.substr(colon + 2);
      scenarios.insert(who);
      auto it = std::find_if(grouped.begin(), grouped.end(), [&](const auto& g) { return g.first == what; });
      if (it == grouped.end())
        grouped.push_back({what, {who}});
      else
        it->second.push_back(who);
    }
    for (const auto& [what, who] : grouped) {
      if (who.empty())
        fmt::format_to(o, "{}\n", what);
      else if (who.size() == scenarios.size() && who.size() > 1)
        fmt::format_to(o, "  {}  (all {} scenarios)\n", what, who.size());
      else if (who.size() < scenarios.size() && 2 * who.size() > scenarios.size()) {
        std::vector<std::string> others;
        for (const auto& sc : scenarios)
          if (std::find(who.begin(), who.end(), sc) == who.end()) others.push_back(sc);
        fmt::format_to(o, "  {}  (all {} scenarios but {})\n", what, scenarios.size(), fmt::join(others, ", "));
      } else {
        fmt::format_to(o, "  {}  ({})\n", what, fmt::join(who, ", "));
      }
    }
  } else if (r.force_cross) {
    fmt::format_to(o, "\n--cross: the golden's cross-environment tolerances applied on its own environment\n");
  }
  if (!r.verdicts.empty()) {  // "scenario/device: verdict", one line per verdict with its scenarios
    std::vector<std::pair<std::string, std::vector<std::string>>> by_verdict;
    for (const auto& v : r.verdicts) {
      const size_t colon = v.find(": ");
      const std::string who = v.substr(0, colon), what = colon == std::string::npos ? v : v.substr(colon + 2);
      auto it = std::find_if(by_verdict.begin(), by_verdict.end(), [&](const auto& b) { return b.first == what; });
      if (it == by_verdict.end()) it = by_verdict.insert(by_verdict.end(), {what, {}});
      it->second.push_back(who);
    }
    fmt::format_to(o, "\nwhy the values moved:\n");
    for (const auto& [what, who] : by_verdict) fmt::format_to(o, "  {}  ({})\n", what, fmt::join(who, ", "));
  }
  const Tally n = tally(r.entries);
  if (r.document_lines > 0) {
    fmt::format_to(o, "\ndocument lines: {}/{} printed exactly as the documents print them", r.document_lines_equal,
                   r.document_lines);
    if (r.document_lines_last_digit > 0)
      fmt::format_to(o, "; {} more within one unit of a number's last digit (the golden was made on another machine)",
                     r.document_lines_last_digit);
    fmt::format_to(o, "\n");
  }
  fmt::format_to(o, "\nverify: {} checks, {} not passing ({}), {:.1f} s\n", r.entries.size(), n.failed, n.str(),
                 r.seconds);
  for (const auto& d : r.unverified_devices) {
    fmt::format_to(o, "\n*** {}\n", d);
    fmt::print(stderr, "WARNING: {}\n", d);
  }
}

void print_compare_report(Out o, const VerifyReport& r) {
  print_results(o, r.entries);
  const Tally n = tally(r.entries);
  fmt::format_to(o, "\ncompare: {} series ({}), {}\n", r.entries.size(), n.str(),
                 n.failed ? "DIFFERENT" : "all within tolerance");
}

// What a fresh golden changes, a series per two lines (regen, check --regen).
void print_changes(Out o, const std::vector<RegenChange>& changes) {
  for (const auto& c : changes) {
    if (c.change == "removed") {
      fmt::format_to(o, "    {:<32} removed\n", c.series);
      continue;
    }
    fmt::format_to(o, "    {:<32} {}\n    {:<32}   cross {}\n", c.series, c.what, "", c.cross);
  }
}

// regen and check --regen over a golden they cannot read.
void print_unreadable_old_golden(const std::string& why) {
  fmt::print(stderr, "note: the old golden is unreadable and will be replaced: {}\n", why);
}

void print_regen_report(Out o, const RegenReport& r) {
  for (const auto& why : r.replaced) print_unreadable_old_golden(why);
  for (const auto& d : r.devices) {
    fmt::format_to(o, "regen on {}: {} scenarios under {} execution paths ({}), safety factor {}\n", d.device,
                   d.scenarios.size(), d.paths.size(), fmt::join(d.paths, ", "), d.safety_factor);
    for (const auto& s : d.scenarios) {
      fmt::format_to(o, "{} on {}:\n", s.scenario, s.device);
      if (!s.skipped.empty()) {
        fmt::format_to(o, "    skipped ({}); the golden's /{} group is left as it was\n", s.skipped, s.device);
        continue;
      }
      print_changes(o, s.changes);
      for (const auto& p : s.problems) fmt::format_to(o, "    {}: {}\n", s.refused ? "REFUSED" : "FORCED (--force)", p);
      if (!s.refused && !s.problems.empty())
        fmt::print(stderr,
                   "WARNING: {} on {}: written with --force although {} problem(s) would refuse it; the "
                   "golden records them in its 'forced' attribute\n",
                   s.scenario, s.device, s.problems.size());
    }
  }
  for (const auto& w : r.written) {
    if (r.dry_run)
      fmt::format_to(o, "(dry run: {} not written)\n", w);
    else
      fmt::format_to(o, "wrote {}\n", w);
  }
  if (!r.refused.empty())
    fmt::print(stderr,
               "regen: refused to write the goldens of {}: a law is broken or a series moves beyond what its "
               "document claims (see REFUSED above)\n",
               fmt::join(r.refused, ", "));
}

void print_check_report(Out o, const CheckReport& r) {
  if (const auto& g = r.golden) {
    fmt::format_to(o, "\n{} ({}):\n", g->path, g->made_of);
    if (!g->replaced.empty()) fmt::format_to(o, "    the old golden is unreadable and is replaced: {}\n", g->replaced);
    print_changes(o, g->changes);
    for (const auto& line : g->series) fmt::format_to(o, "    {}\n", line);
    for (const auto& p : g->problems) fmt::format_to(o, "    {}: {}\n", g->problem_status(), p);
    if (g->written)
      fmt::format_to(o, "wrote {}\n", g->path);
    else
      fmt::print(stderr, "check: refused to write {} (see REFUSED above; --force writes it anyway)\n", g->path);
  }
  for (const auto& e : r.series)  // --golden: the series outside their tolerances (the law says how many)
    if (e.failed()) fmt::format_to(o, "{:<8} {}\n    -> {}\n", status_text(e.status), e.heading(), e.detail);
  fmt::format_to(o, "\n{:<8} {}\n", "status", "law");
  for (const auto& l : r.laws) {
    fmt::format_to(o, "{:<8} {}\n", law_status_text(l.status), l.name);
    if (!l.detail.empty()) fmt::format_to(o, "    -> {}\n", l.detail);
  }
  if (!r.findings.empty()) fmt::format_to(o, "\n{:<8} {}\n", "status", "finding");
  for (const auto& f : r.findings)
    fmt::format_to(o, "{:<8} [{}] {}\n    -> {}\n", status_text(f.status()), f.id, f.heading(), f.detail);
  const Tally laws = law_tally(r);
  const auto advice =
      std::count_if(r.laws.begin(), r.laws.end(), [](const ReportEntry& l) { return l.status == Status::kAdvice; });
  fmt::format_to(o, "\ncheck: {} laws, {} held, {} broken{}{}, {} finding(s){}, {:.1f} s{}\n",
                 laws.passed + laws.failed + laws.skipped, laws.passed, laws.failed,
                 laws.skipped ? fmt::format(", {} not tested", laws.skipped) : "",
                 advice ? fmt::format(", {} advice", advice) : "", r.findings.size(),
                 r.golden && !r.golden->written ? ", golden NOT written" : "", r.seconds,
                 r.kept.empty() ? "" : "; runs kept in " + r.kept);
}

void print_tolerances(Out o, const std::vector<ToleranceRow>& rows) {
  fmt::format_to(o, "{:<20} {:<4} {:<36} {:<9} {:>9}  {:<28} {}\n", "scenario", "dev", "series", "dtype", "catches",
                 "cross tolerance", "provenance");
  for (const auto& r : rows)
    fmt::format_to(o, "{:<20} {:<4} {:<36} {:<9} {:>9}  {:<28} {}{}\n", r.scenario, r.device, r.series, r.dtype,
                   std::isnan(r.catches)      ? "zeros"
                   : std::isfinite(r.catches) ? fmt::format("{:.2g}", r.catches)
                                              : "-",
                   r.cross, r.provenance, r.differing.empty() ? "" : "; differs on " + r.differing);
}

// The report of ddp-check on rank 0: every rank's broken laws, and a line of counts.
void print_ddp_check_report(Out o, const VerifyReport& r) {
  for (const auto& l : r.entries)
    if (l.failed()) fmt::format_to(o, "BROKEN on {}: {} {}\n", l.device, l.heading(), l.detail);
  const Tally n = tally(r.entries);
  fmt::format_to(o, "ddp-check: {} checks on every rank, {} held, {} broken, {} skipped\n", r.entries.size(), n.passed,
                 n.failed, n.skipped);
}

// mutate: a row per mutant, what the unmutated script draws, then the summary line.
void print_mutate_report(Out o, const MutateReport& r) {
  for (const auto& m : r.mutants)
    fmt::format_to(o, "{:<15} {:<29} {:<16} {}\n", outcome_text(m.outcome), m.id, m.where.empty() ? "-" : m.where,
                   m.by.empty() ? m.why : m.by);
  for (const auto& f : r.base_findings) fmt::format_to(o, "(the unmutated script draws {})\n", f);
  fmt::format_to(o, "{}\n", r.summary());
}

class ConsoleReporter : public Reporter {
 public:
  std::string verify(const VerifyReport& r) const override {
    return render([&](Out o) {
      switch (r.kind) {
        case ReportKind::kCompare:
          return print_compare_report(o, r);
        case ReportKind::kDdpCheck:
          return print_ddp_check_report(o, r);
        default:
          return print_verify_report(o, r);
      }
    });
  }
  std::string check(const CheckReport& r) const override {
    return render([&](Out o) { print_check_report(o, r); });
  }
  std::string regen(const RegenReport& r) const override {
    return render([&](Out o) { print_regen_report(o, r); });
  }
  std::string tolerances(const std::vector<ToleranceRow>& rows) const override {
    return render([&](Out o) { print_tolerances(o, rows); });
  }
  std::string mutate(const MutateReport& r) const override {
    return render([&](Out o) { print_mutate_report(o, r); });
  }

 private:
  template <typename F>
  static std::string render(F&& f) {
    std::string text;
    f(std::back_inserter(text));
    return text;
  }
};

}  // namespace

std::unique_ptr<Reporter> console_reporter() {
  return std::make_unique<ConsoleReporter>();
}

void emit_report(const ReportFiles& files, const std::function<std::string(const Reporter&)>& render) {
  bool screen_taken = false;
  for (const auto& [name, path] : files) screen_taken = screen_taken || path == "-";
  if (!screen_taken) {
    fmt::print("{}", render(*console_reporter()));
    std::fflush(stdout);
  }
  for (const auto& format : report_formats()) {
    const auto it = files.find(format.name);
    if (it == files.end() || it->second.empty()) continue;
    const std::string text = render(*format.make());
    if (it->second == "-") {
      fmt::print("{}", text);
      std::fflush(stdout);
    } else {
      atomic_write_bytes(it->second, text);
    }
  }
}

ProgressSink stderr_progress() {
  return [](const std::string& text) {
    fmt::print(stderr, "{}", text);
    std::fflush(stderr);
  };
}

}  // namespace trainproof
