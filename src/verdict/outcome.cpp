// The outcome model every command and reporter shares (outcome.h): statuses and their words,
// the tally, the findings' headings, and the exit codes.
#include "trainproof/verdict/outcome.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "trainproof/core/errors.h"

namespace trainproof {

const char* entry_kind_text(EntryKind k) {
  switch (k) {
    case EntryKind::kSeries:
      return "series";
    case EntryKind::kInvariant:
      return "invariant";
    case EntryKind::kFinding:
      return "finding";
    case EntryKind::kDocument:
      return "document";
    case EntryKind::kRun:
      return "run";
  }
  return "?";
}

std::optional<EntryKind> entry_kind_from_text(const std::string& text) {
  for (EntryKind k :
       {EntryKind::kSeries, EntryKind::kInvariant, EntryKind::kFinding, EntryKind::kDocument, EntryKind::kRun})
    if (text == entry_kind_text(k)) return k;
  return std::nullopt;
}

const char* report_kind_text(ReportKind k) {
  switch (k) {
    case ReportKind::kVerify:
      return "verify";
    case ReportKind::kCompare:
      return "compare";
    case ReportKind::kCheck:
      return "check";
    case ReportKind::kDdpCheck:
      return "ddp-check";
    case ReportKind::kRegen:
      return "regen";
    case ReportKind::kTolerances:
      return "tolerances";
    case ReportKind::kMutate:
      return "mutate";
  }
  return "?";
}

const char* status_text(Status s) {
  switch (s) {
    case Status::kPass:
      return "pass";
    case Status::kFail:
      return "FAIL";
    case Status::kMissing:
      return "MISSING";
    case Status::kNew:
      return "NEW";
    case Status::kLength:
      return "LENGTH";
    case Status::kDType:
      return "DTYPE";
    case Status::kBroken:
      return "BROKEN";
    case Status::kBadInput:
      return "BAD INPUT";
    case Status::kError:
      return "ERROR";
    case Status::kSkipped:
      return "skipped";
    case Status::kNotVerified:
      return "NOT VERIFIED";
    case Status::kNotTested:
      return "NOT TESTED";
    case Status::kAdvice:
      return "advice";
    case Status::kAllowed:
      return "allowed";
  }
  return "?";
}

std::optional<Status> status_from_text(const std::string& text) {
  for (int i = 0; i <= static_cast<int>(Status::kAllowed); ++i)
    if (text == status_text(static_cast<Status>(i))) return static_cast<Status>(i);
  return std::nullopt;
}

const char* law_status_text(Status s) {
  return s == Status::kPass ? "held" : status_text(s);
}

Status status_of(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return Status::kPass;
    case Verdict::kFail:
      return Status::kFail;
    case Verdict::kMissingSeries:
      return Status::kMissing;
    case Verdict::kNewSeries:
      return Status::kNew;
    case Verdict::kLengthMismatch:
      return Status::kLength;
    case Verdict::kDTypeMismatch:
      return Status::kDType;
  }
  return Status::kError;
}

ReportEntry law_entry(std::string scenario, std::string device, std::string name, Status status, std::string detail) {
  return {std::move(scenario), std::move(device), EntryKind::kInvariant, std::move(name), status, "",
          std::move(detail)};
}

std::string short_num(double v) {
  return std::isfinite(v) ? fmt::format("{:.3g}", v) : (std::isnan(v) ? "nan" : "inf");
}

Tally tally(const std::vector<ReportEntry>& entries) {
  Tally t;
  for (const auto& e : entries) {
    t.passed += e.passed();
    t.failed += e.failed();
    t.skipped += e.skipped();
  }
  return t;
}

std::string Tally::str() const {
  return fmt::format("{} passed, {} failed, {} skipped", passed, failed, skipped);
}

std::string Finding::heading() const {
  return fmt::format("{}{}{}", law, step >= 0 ? fmt::format(" at step {}", step) : "",
                     where.empty() ? "" : fmt::format(" ({})", where));
}

Status Finding::status() const {
  return allowed ? Status::kAllowed : advice ? Status::kAdvice : Status::kBroken;
}

int exit_code(const VerifyReport& r) {
  bool bad_input = false, internal = false, mismatch = false;
  for (const auto& e : r.entries) {
    bad_input = bad_input || e.status == Status::kBadInput;
    internal = internal || e.status == Status::kError;
    mismatch = mismatch || e.failed();
  }
  return bad_input ? kExitBadInput : internal ? kExitInternal : mismatch ? kExitMismatch : kExitOk;
}

std::vector<ReportEntry> check_entries(const CheckReport& r) {
  std::vector<ReportEntry> out = r.series;
  out.insert(out.end(), r.laws.begin(), r.laws.end());
  for (const auto& f : r.findings)
    out.emplace_back("check", "cmd", EntryKind::kFinding, f.id, f.status(), "",
                     fmt::format("{}: {}", f.heading(), f.detail));
  return out;
}

Tally law_tally(const CheckReport& r) {
  std::vector<ReportEntry> counted;
  std::copy_if(r.laws.begin(), r.laws.end(), std::back_inserter(counted),
               [](const ReportEntry& l) { return l.status != Status::kAdvice; });
  return tally(counted);
}

int exit_code(const CheckReport& r) {
  const bool refused = r.golden && !r.golden->written;
  const bool finding = std::any_of(r.findings.begin(), r.findings.end(), [](const Finding& f) { return f.breaks(); });
  if (law_tally(r).failed || tally(r.series).failed || finding || refused) return kExitMismatch;
  return law_tally(r).skipped ? kExitNotTested : kExitOk;
}
std::string ReportEntry::heading() const {
  if (kind != EntryKind::kSeries) return name;
  return tolerance.empty() ? fmt::format("golden {}", name) : fmt::format("golden {} within {}", name, tolerance);
}

const char* outcome_text(MutantResult::Outcome o) {
  switch (o) {
    case MutantResult::Outcome::kCaught:
      return "caught";
    case MutantResult::Outcome::kSurvived:
      return "SURVIVED";
    case MutantResult::Outcome::kNotApplicable:
      return "not applicable";
  }
  return "?";
}

std::string MutateReport::summary() const {
  return fmt::format("mutate: {} mutants, {} caught, {} survived, {} not applicable", mutants.size(), caught, survived,
                     not_applicable);
}

int exit_code(const MutateReport& r) {
  return r.survived ? kExitMismatch : kExitOk;
}

}  // namespace trainproof
