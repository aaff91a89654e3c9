// The HTML report: one self-contained page, a plot per series, golden against observed.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "src/report/xml.h"
#include "trainproof/core/atomic_file.h"
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

}  // namespace

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

}  // namespace trainproof
