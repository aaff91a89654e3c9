// What every report shares: the tally, a status's words, the exit codes, the file formats
// (report_formats(): json.cpp, junit.cpp, html.cpp) and write_reports(), which hands a report to
// each one asked for. The Markdown of regen and tolerances: markdown.cpp; the console: console.cpp.
#include "trainproof/report/report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "src/report/xml.h"
#include "trainproof/core/errors.h"

namespace trainproof {

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
          o += ' ';
        else
          o += c;
    }
  }
  return o;
}

ReportEntry law_entry(std::string scenario, std::string device, std::string name, Status status, std::string detail) {
  return {std::move(scenario), std::move(device), "invariant", std::move(name), status, "", std::move(detail)};
}

namespace {

std::vector<double> values_of(const Trace& t, const std::string& name) {
  const Series* s = t.find(name);
  if (!s) return {};
  std::vector<double> v(s->size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = s->at(i);
  return v;
}

}  // namespace

ReportEntry series_entry(const std::string& scenario, const std::string& dev, const SeriesComparison& c, bool cross,
                         const Trace& golden, const Trace& observed) {
  ReportEntry e(scenario, dev, "series", c.series, status_of(c.verdict), c.tolerance, c.detail);
  e.golden = values_of(golden, c.series);
  e.observed = values_of(observed, c.series);
  e.max_abs = c.max_abs;
  e.max_rel = c.max_rel;
  e.max_ulp = c.max_ulp;
  e.first_divergence = c.first_divergence;
  e.cross_environment = cross;
  return e;
}

GoldenHold hold_to_golden(const std::string& scenario, const std::string& dev, const Trace& golden,
                          const Trace& observed, bool cross) {
  GoldenHold h;
  const auto outside = [](const std::vector<SeriesComparison>& cs) {
    return std::any_of(cs.begin(), cs.end(), [](const SeriesComparison& c) { return !c.passed(); });
  };
  const auto held = compare_traces(golden, observed, cross);
  for (const auto& c : held) {
    h.rows.push_back(series_entry(scenario, dev, c, cross, golden, observed));
    if (c.passed()) continue;
    if (h.failed++ == 0) h.first_failure = fmt::format("'{}' {}: {}", c.series, verdict_name(c.verdict), c.detail);
  }
  h.beyond_exact = cross ? outside(compare_traces(golden, observed, false)) : h.failed > 0;
  h.beyond_envelope = cross ? h.failed > 0 : outside(compare_traces(golden, observed, true));
  return h;
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

std::string short_num(double v) {
  return std::isfinite(v) ? fmt::format("{:.3g}", v) : (std::isnan(v) ? "nan" : "inf");
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

int exit_code(const VerifyReport& r) {
  bool bad_input = false, internal = false, mismatch = false;
  for (const auto& e : r.entries) {
    bad_input = bad_input || e.status == Status::kBadInput;
    internal = internal || e.status == Status::kError;
    mismatch = mismatch || e.failed();
  }
  return bad_input ? kExitBadInput : internal ? kExitInternal : mismatch ? kExitMismatch : kExitOk;
}

int exit_code(const CheckReport& r) {
  const bool refused = r.golden && !r.golden->written;
  if (tally(r.report.entries).failed || refused) return kExitMismatch;
  const bool untested = std::any_of(r.report.entries.begin(), r.report.entries.end(),
                                    [](const ReportEntry& e) { return e.status == Status::kNotTested; });
  return untested ? kExitNotTested : kExitOk;
}

const std::vector<ReportFormat>& report_formats() {
  static const std::vector<ReportFormat> formats = {
      {"json", "--json,--report", "Write the results as JSON to this file", write_json_report},
      {"junit", "--junit",
       "Write JUnit XML (a testcase per scenario x device x series, invariant, law or finding) to this file",
       write_junit_report},
      {"html", "--html", "Write one self-contained HTML page (a plot per series) to this file", write_html_report},
  };
  return formats;
}

void write_reports(const ReportFiles& files, const VerifyReport& r) {
  for (const auto& format : report_formats())
    if (const auto it = files.find(format.name); it != files.end() && !it->second.empty()) format.write(it->second, r);
}

std::string Finding::heading() const {
  return fmt::format("{}{}{}", law, step >= 0 ? fmt::format(" at step {}", step) : "",
                     where.empty() ? "" : fmt::format(" ({})", where));
}

Status Finding::status() const {
  return allowed ? Status::kAllowed : advice ? Status::kAdvice : Status::kBroken;
}

std::string Tally::str() const {
  return fmt::format("{} passed, {} failed, {} skipped", passed, failed, skipped);
}

}  // namespace trainproof
