// The HTML report: one self-contained page, a plot per series, golden against observed.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "src/report/xml.h"
#include "trainproof/report/report.h"

namespace trainproof {
namespace {

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

// check: a scalar across the command's runs, a line per run over the uninterrupted run's steps;
// each kill a red dashed rule, each restart a green one, the first departure a purple one, and
// each finding's id at the step it names.
std::string svg_runs(const RunPlot& p) {
  constexpr double W = 720, H = 220, P = 10, TOP = 34;
  static const char* const colors[] = {"#1f77b4", "#8c564b", "#ff7f0e"};
  static const char* const dashes[] = {"", R"( stroke-dasharray="2 2")", R"( stroke-dasharray="5 3")"};
  const size_t n = p.steps.size();
  if (n == 0) return "<p><em>no steps recorded</em></p>";
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& l : p.lines)
    for (double x : l.values)
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (hi == lo) hi = lo + 1;
  const double first = static_cast<double>(p.steps.front()), last = static_cast<double>(p.steps.back());
  auto px = [&](double step) { return P + (W - 2 * P) * (last == first ? 0.5 : (step - first) / (last - first)); };
  auto py = [&](double v) { return H - P - (H - TOP - P) * (v - lo) / (hi - lo); };
  const size_t stride = std::max<size_t>(1, n / 400);
  std::string body, legend;
  for (size_t k = 0; k < p.lines.size(); ++k) {
    const char* color = colors[k % 3];
    std::string pts;
    for (size_t i = 0; i < n; i += stride)
      if (std::isfinite(p.lines[k].values[i]))
        pts += fmt::format("{:.1f},{:.1f} ", px(static_cast<double>(p.steps[i])), py(p.lines[k].values[i]));
    body += fmt::format(R"(<polyline fill="none" stroke="{}" stroke-width="1.6"{} points="{}"/>)", color, dashes[k % 3],
                        pts);
    legend += fmt::format(R"(<span style="color:{}">&#9644; {}</span>)", color, xml_escape(p.lines[k].run));
  }
  const auto rule = [&](int64_t step, const char* color, const char* dash, const std::string& label) {
    const double x = px(static_cast<double>(step));
    return fmt::format(
        R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1}" y2="{2}" stroke="{3}" stroke-width="1.2" stroke-dasharray="{4}"><title>{5}</title></line>)",
        x, TOP - 6, H - P, color, dash, xml_escape(label));
  };
  for (const int64_t s : p.kills) body += rule(s, "#d62728", "4 3", fmt::format("killed after step {}", s));
  for (const int64_t s : p.restarts) body += rule(s, "#2ca02c", "1 3", fmt::format("restart resumed at step {}", s));
  if (p.departure >= 0) body += rule(p.departure, "#9467bd", "", fmt::format("first departs at step {}", p.departure));
  for (size_t i = 0; i < p.findings.size(); ++i) {
    const double x = px(static_cast<double>(p.findings[i].step));
    body += fmt::format(
        R"(<circle cx="{:.1f}" cy="{}" r="3.5" fill="#d62728"/><text x="{:.1f}" y="{}" font-size="10" fill="#d62728">{} (step {})</text>)",
        x, 8 + 12 * (i % 2), std::min(x + 5, W - 160), 12 + 12 * (i % 2), xml_escape(p.findings[i].what),
        p.findings[i].step);
  }
  return fmt::format(
      R"(<p class="legend">{}</p><svg width="{}" height="{}" viewBox="0 0 {} {}" role="img"><rect width="100%" height="100%" fill="#fafafa" stroke="#ccc"/>{}<text x="{}" y="{}" font-size="10" fill="#555">max {}</text><text x="{}" y="{}" font-size="10" fill="#555">min {}, steps {}..{}</text></svg>)",
      legend, W, H, W, H, body, P + 2, TOP + 4, short_num(hi), P + 2, H - 4, short_num(lo), p.steps.front(),
      p.steps.back());
}

// The results table's rows and the series' plots, golden against observed.
struct Rows {
  std::string summary, plots;
};
Rows rows_of(const std::vector<ReportEntry>& entries, const std::string& rule) {
  Rows out;
  for (const auto& e : entries) {
    const char* color = e.passed() ? "#2ca02c" : e.skipped() ? "#7f7f7f" : "#d62728";
    out.summary += fmt::format(
        R"(<tr><td>{}</td><td>{}</td><td>{}</td><td style="color:{};font-weight:bold">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>)",
        xml_escape(e.scenario), xml_escape(e.device),
        xml_escape(e.kind == EntryKind::kInvariant ? rule + e.name : e.name), color, xml_escape(status_text(e.status)),
        e.kind == EntryKind::kSeries ? short_num(e.max_abs) : "",
        e.kind == EntryKind::kSeries ? short_num(e.max_rel) : "",
        e.first_divergence >= 0 ? std::to_string(e.first_divergence) : "", xml_escape(e.detail));
    if (e.kind == EntryKind::kSeries && (!e.golden.empty() || !e.observed.empty()))
      out.plots += fmt::format(
          R"(<figure><figcaption><b>{}/{}</b> {} <span style="color:{}">{}</span> (tolerance {})</figcaption>{}</figure>)",
          xml_escape(e.scenario), xml_escape(e.device), xml_escape(e.name), color, xml_escape(status_text(e.status)),
          xml_escape(e.tolerance), svg_plot(e));
  }
  if (!out.plots.empty())
    out.plots =
        R"(<h2>Series</h2><p class="legend"><span style="color:#1f77b4">&#9644; golden</span><span style="color:#ff7f0e">- - observed</span><span style="color:#d62728">&#9679; differs</span></p>)" +
        out.plots;
  return out;
}

std::string list(const std::string& heading, const std::vector<std::string>& items) {
  if (items.empty()) return "";
  std::string li;
  for (const auto& i : items) li += "<li>" + xml_escape(i) + "</li>";
  return "<h2>" + heading + "</h2><ul>" + li + "</ul>";
}

// One page: the heading, the tally, `sections` before the results table, `after` it.
std::string page(const std::string& command, const std::vector<ReportEntry>& entries, double seconds,
                 const std::string& sections, const std::string& what, const std::string& rows,
                 const std::string& after) {
  const Tally n = tally(entries);
  return fmt::format(R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>trainproof {}</title>
<style>body{{font-family:sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse;font-size:13px}}
td,th{{border:1px solid #ddd;padding:3px 6px;text-align:left}}figure{{display:inline-block;margin:8px}}
figcaption{{font-size:12px}}.legend span{{margin-right:1em}}</style></head><body>
<h1>trainproof {}: {}</h1>
<p>{} checks: {}, {:.1f} s.</p>{}
<h2>Results</h2>
<table><tr><th>scenario</th><th>device</th><th>{}</th><th>status</th><th>max abs</th><th>max rel</th><th>first</th><th>detail</th></tr>{}</table>
{}
</body></html>
)",
                     command, command, n.failed ? "FAILED" : "passed", entries.size(), n.str(), seconds, sections, what,
                     rows, after);
}

std::string html_of(const VerifyReport& r) {
  // A law of ddp-check is an entry of kind "invariant" too; its row says which it is.
  const Rows rows = rows_of(r.entries, r.kind == ReportKind::kVerify ? "invariant: " : "law: ");
  std::string fp = list("Fingerprint differences", r.fingerprint_notes);
  // The fingerprint speaks of goldens: verify's always, another command's where it held one.
  if (r.kind == ReportKind::kVerify && fp.empty())
    fp = "<h2>Fingerprint differences</h2><ul><li>none: the goldens were made in this environment</li></ul>";
  return page(report_kind_text(r.kind), r.entries, r.seconds,
              list("Devices not verified", r.unverified_devices) + "\n" + fp,
              r.kind == ReportKind::kVerify ? "series / invariant" : "series / law", rows.summary, rows.plots);
}

// check --regen: the golden written or refused, what changed in it, and its tolerances.
std::string golden_section(const CheckGoldenWrite& g) {
  std::string out = fmt::format("<h2>Golden</h2><p>{} <b>{}</b> ({})</p>", g.written ? "wrote" : "REFUSED to write",
                                xml_escape(g.path), xml_escape(g.made_of));
  if (!g.replaced.empty()) out += "<p>the old golden could not be read: " + xml_escape(g.replaced) + "</p>";
  std::vector<std::string> problems;
  for (const auto& p : g.problems) problems.push_back(fmt::format("{}: {}", g.problem_status(), p));
  out += list("Why", problems);
  std::string rows;
  for (const auto& c : g.changes)
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>", xml_escape(c.series), xml_escape(c.what),
                        xml_escape(c.cross));
  for (const auto& t : g.tolerances)
    rows += fmt::format("<tr><td>{}</td><td>tolerance {}</td><td>{}</td></tr>", xml_escape(t.series),
                        xml_escape(t.cross), xml_escape(t.provenance));
  if (!rows.empty())
    out += "<table><tr><th>series</th><th>change / tolerance</th><th>from</th></tr>" + rows + "</table>";
  return out + list("Series of the band", g.series);
}

std::string html_of(const CheckReport& r) {
  const auto entries = check_entries(r);
  Rows rows = rows_of(entries, "law: ");
  std::string runs;
  for (const auto& p : r.run_plots)
    runs += fmt::format(R"(<figure><figcaption><b>{}</b></figcaption>{}</figure>)", xml_escape(p.series), svg_runs(p));
  if (!runs.empty())
    rows.plots +=
        R"(<h2>Runs</h2><p class="legend"><span style="color:#d62728">- - killed</span><span style="color:#2ca02c">&middot;&middot; restart resumed</span><span style="color:#9467bd">| first departure</span><span style="color:#d62728">&#9679; finding</span></p>)" +
        runs;
  std::string sections = r.golden ? golden_section(*r.golden) : "";
  if (!r.kept.empty()) sections += "<p>runs kept in <code>" + xml_escape(r.kept) + "</code></p>";
  return page("check", entries, r.seconds, sections, "series / law / finding", rows.summary, rows.plots);
}

class HtmlReporter : public Reporter {
 public:
  std::string verify(const VerifyReport& r) const override { return html_of(r); }
  std::string check(const CheckReport& r) const override { return html_of(r); }
};

}  // namespace

std::unique_ptr<Reporter> html_reporter() {
  return std::make_unique<HtmlReporter>();
}

}  // namespace trainproof
