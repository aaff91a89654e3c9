// JSON, JUnit, HTML and Markdown writers.
#include "trainproof/report/report.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"

namespace trainproof {
namespace {

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

// An inline SVG: golden as a solid line, observed dashed, points where they differ in red.
std::string svg_plot(const ReportEntry& e) {
  constexpr double W = 520, H = 160, P = 8;
  const size_t n = std::max(e.golden.size(), e.observed.size());
  if (n == 0) return "<p><em>empty series</em></p>";
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* v : {&e.golden, &e.observed})
    for (double x : *v)
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (hi == lo) hi = lo + 1;
  const size_t stride = std::max<size_t>(1, n / 400);  // at most ~400 points per line
  auto px = [&](size_t i) {
    return P + (W - 2 * P) * (n == 1 ? 0.5 : static_cast<double>(i) / static_cast<double>(n - 1));
  };
  auto py = [&](double v) { return H - P - (H - 2 * P) * ((std::isfinite(v) ? v : lo) - lo) / (hi - lo); };
  auto line = [&](const std::vector<double>& v, const char* style) {
    std::string pts, dots;
    for (size_t i = 0; i < v.size(); i += stride) {
      pts += fmt::format("{:.1f},{:.1f} ", px(i), py(v[i]));
      if (n <= 20) dots += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.5" fill="#1f77b4"/>)", px(i), py(v[i]));
    }
    return fmt::format(R"(<polyline fill="none" {} points="{}"/>{})", style, pts, dots);
  };
  std::string marks;
  size_t shown = 0;
  for (size_t i = 0; i < std::min(e.golden.size(), e.observed.size()) && shown < 200; ++i)
    if (e.golden[i] != e.observed[i] && !(std::isnan(e.golden[i]) && std::isnan(e.observed[i]))) {
      marks += fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="#d62728"/>)", px(i), py(e.observed[i]));
      ++shown;
    }
  return fmt::format(
      R"(<svg width="{}" height="{}" viewBox="0 0 {} {}" role="img"><rect width="100%" height="100%" fill="#fafafa" stroke="#ccc"/>{}{}{}<text x="{}" y="14" font-size="10" fill="#555">max {}</text><text x="{}" y="{}" font-size="10" fill="#555">min {}</text></svg>)",
      W, H, W, H, line(e.golden, R"(stroke="#1f77b4" stroke-width="2")"),
      line(e.observed, R"(stroke="#ff7f0e" stroke-width="1.5" stroke-dasharray="4 3")"), marks, P + 2, short_num(hi),
      P + 2, H - 4, short_num(lo));
}

}  // namespace

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
  }
  return "?";
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
  return tally(r.report.entries).failed || refused ? kExitMismatch : kExitOk;
}

void write_reports(const ReportFiles& files, const VerifyReport& r) {
  if (!files.json.empty()) write_json_report(files.json, r);
  if (!files.junit.empty()) write_junit_report(files.junit, r);
  if (!files.html.empty()) write_html_report(files.html, r);
}

void write_regen_markdown(const std::filesystem::path& path, const RegenReport& r) {
  std::vector<RegenChange> changes;
  for (const auto& d : r.devices)
    for (const auto& s : d.scenarios) changes.insert(changes.end(), s.changes.begin(), s.changes.end());
  write_regen_markdown(path, changes, r.tolerances);
}

std::string Tally::str() const {
  return fmt::format("{} passed, {} failed, {} skipped", passed, failed, skipped);
}

void write_json_report(const std::filesystem::path& path, const VerifyReport& r) {
  nlohmann::json j;
  j["seconds"] = r.seconds;
  if (r.document_lines > 0)
    j["document_lines"] = {{"total", r.document_lines},
                           {"printed_exactly", r.document_lines_equal},
                           {"within_last_digit", r.document_lines_last_digit}};
  j["fingerprint_differences"] = r.fingerprint_notes;
  j["verdicts"] = r.verdicts;
  j["results"] = nlohmann::json::array();
  for (const auto& e : r.entries) {
    nlohmann::json x = {{"scenario", e.scenario},          {"device", e.device}, {"kind", e.kind}, {"name", e.name},
                        {"status", status_text(e.status)}, {"detail", e.detail}};
    if (e.kind == "series") {
      x["tolerance"] = e.tolerance;
      x["cross_environment"] = e.cross_environment;
      x["max_abs"] = std::isfinite(e.max_abs) ? nlohmann::json(e.max_abs) : nlohmann::json("inf");
      x["max_rel"] = std::isfinite(e.max_rel) ? nlohmann::json(e.max_rel) : nlohmann::json("inf");
      x["max_ulp"] = e.max_ulp;
      x["first_divergence"] = e.first_divergence;
    }
    j["results"].push_back(x);
  }
  const Tally n = tally(r.entries);
  j["passed"] = n.passed;
  j["failed"] = n.failed;
  j["skipped"] = n.skipped;
  j["devices_not_verified"] = r.unverified_devices;
  j["findings"] = nlohmann::json::array();
  for (const auto& f : r.findings)
    j["findings"].push_back({{"id", f.id},
                             {"law", f.law},
                             {"step", f.step},
                             {"where", f.where},
                             {"detail", f.detail},
                             {"advice", f.advice},
                             {"allowed", f.allowed}});
  atomic_write_bytes(path, j.dump(2) + "\n");
}

void write_junit_report(const std::filesystem::path& path, const VerifyReport& r) {
  size_t failures = 0, errors = 0, skipped = 0;
  std::string cases;
  for (const auto& e : r.entries) {
    cases += fmt::format(R"(    <testcase classname="trainproof.{}.{}" name="{}" time="0">)", xml_escape(e.scenario),
                         xml_escape(e.device), xml_escape(e.kind == "invariant" ? "invariant: " + e.name : e.name));
    if (e.skipped()) {
      ++skipped;
      cases += fmt::format(R"(<skipped message="{}"/>)", xml_escape(e.detail));
    } else if (e.status == Status::kBadInput || e.status == Status::kError) {
      ++errors;
      cases +=
          fmt::format(R"(<error message="{}">{}</error>)", xml_escape(status_text(e.status)), xml_escape(e.detail));
    } else if (e.failed()) {
      ++failures;
      const std::string msg = e.first_divergence >= 0 ? fmt::format("{}: first divergence at [{}]",
                                                                    status_text(e.status), e.first_divergence)
                                                      : std::string(status_text(e.status));
      cases += fmt::format(R"(<failure message="{}">{}</failure>)", xml_escape(msg), xml_escape(e.detail));
    }
    cases += "</testcase>\n";
  }
  const std::string xml = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"trainproof verify\" tests=\"{}\" "
      "failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n{}  </testsuite>\n</testsuites>\n",
      r.entries.size(), failures, errors, skipped, r.seconds, cases);
  atomic_write_bytes(path, xml);
}

void write_html_report(const std::filesystem::path& path, const VerifyReport& r) {
  const Tally n = tally(r.entries);
  std::string summary, plots;
  for (const auto& e : r.entries) {
    const char* color = e.passed() ? "#2ca02c" : e.skipped() ? "#7f7f7f" : "#d62728";
    summary += fmt::format(
        R"(<tr><td>{}</td><td>{}</td><td>{}</td><td style="color:{};font-weight:bold">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>)",
        xml_escape(e.scenario), xml_escape(e.device),
        xml_escape(e.kind == "invariant" ? "invariant: " + e.name : e.name), color, xml_escape(status_text(e.status)),
        e.kind == "series" ? short_num(e.max_abs) : "", e.kind == "series" ? short_num(e.max_rel) : "",
        e.first_divergence >= 0 ? std::to_string(e.first_divergence) : "", xml_escape(e.detail));
    if (e.kind == "series" && (!e.golden.empty() || !e.observed.empty()))
      plots += fmt::format(
          R"(<figure><figcaption><b>{}/{}</b> {} <span style="color:{}">{}</span> (tolerance {})</figcaption>{}</figure>)",
          xml_escape(e.scenario), xml_escape(e.device), xml_escape(e.name), color, xml_escape(status_text(e.status)),
          xml_escape(e.tolerance), svg_plot(e));
  }
  std::string fp, unverified;
  for (const auto& note : r.fingerprint_notes) fp += "<li>" + xml_escape(note) + "</li>";
  for (const auto& d : r.unverified_devices) unverified += "<li>" + xml_escape(d) + "</li>";
  if (!unverified.empty()) unverified = "<h2>Devices not verified</h2><ul>" + unverified + "</ul>";
  const std::string html =
      fmt::format(R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>trainproof verify</title>
<style>body{{font-family:sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse;font-size:13px}}
td,th{{border:1px solid #ddd;padding:3px 6px;text-align:left}}figure{{display:inline-block;margin:8px}}
figcaption{{font-size:12px}}.legend span{{margin-right:1em}}</style></head><body>
<h1>trainproof verify: {}</h1>
<p>{} checks: {}, {:.1f} s.</p>{}
<p class="legend"><span style="color:#1f77b4">&#9644; golden</span><span style="color:#ff7f0e">- - observed</span><span style="color:#d62728">&#9679; differs</span></p>
<h2>Fingerprint differences</h2><ul>{}</ul>
<h2>Results</h2>
<table><tr><th>scenario</th><th>device</th><th>series / invariant</th><th>status</th><th>max abs</th><th>max rel</th><th>first</th><th>detail</th></tr>{}</table>
<h2>Series</h2>{}
</body></html>
)",
                  n.failed ? "FAILED" : "passed", r.entries.size(), n.str(), r.seconds, unverified,
                  fp.empty() ? "<li>none: the goldens were made in this environment</li>" : fp, summary, plots);
  atomic_write_bytes(path, html);
}

namespace {

std::string tolerance_table(const std::vector<ToleranceRow>& rows) {
  std::string md =
      "| scenario | device | series | dtype | cross tolerance | spread (rel) | paths differing | catches a change of "
      "|\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& r : rows)
    md += fmt::format("| {} | {} | `{}` | {} | `{}` | {} | {} | {} |\n", r.scenario, r.device, r.series, r.dtype,
                      r.cross, r.provenance.rfind("spread", 0) == 0 ? short_num(r.spread_rel) : r.provenance,
                      r.differing.empty() ? "none" : r.differing,
                      std::isnan(r.catches)      ? "(all values zero)"
                      : std::isfinite(r.catches) ? fmt::format("{:.2g}%", 100 * r.catches)
                                                 : "(informational)");
  return md;
}

}  // namespace

void write_tolerance_markdown(const std::filesystem::path& path, const std::vector<ToleranceRow>& rows) {
  atomic_write_bytes(path, "### trainproof cross-environment tolerances\n\n" + tolerance_table(rows));
}

void write_regen_markdown(const std::filesystem::path& path, const std::vector<RegenChange>& changes,
                          const std::vector<ToleranceRow>& tolerances) {
  std::string md =
      "### trainproof regen\n\n| scenario | device | series | change | values changed | max rel diff |\n"
      "| --- | --- | --- | --- | --- | --- |\n";
  size_t shown = 0;
  for (const auto& c : changes) {
    if (c.change == "unchanged") continue;
    ++shown;
    md += fmt::format("| {} | {} | `{}` | {} | {} | {} |\n", c.scenario, c.device, c.series, c.change,
                      c.change == "changed" ? fmt::format("{} of {}", c.changed_values, c.values) : "",
                      c.change == "changed" ? short_num(c.max_rel) : "");
  }
  if (!shown) md += "| | | | no series changed | | |\n";
  md +=
      fmt::format("\n{} series compared.\n\n#### Cross-environment tolerances (measured across execution paths)\n\n{}",
                  changes.size(), tolerance_table(tolerances));
  atomic_write_bytes(path, md);
}

}  // namespace trainproof
