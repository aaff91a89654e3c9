// What every reporter shares: the formats (report_formats(): json.cpp, junit.cpp, html.cpp,
// markdown.cpp; the console, and emit_report(), which hands a command's report to each one
// asked for: console.cpp), and XML's escaping.
#include "trainproof/report/report.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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

std::string Reporter::regen(const RegenReport&) const {
  throw std::logic_error("this format holds no regen report");
}

std::string Reporter::tolerances(const std::vector<ToleranceRow>&) const {
  throw std::logic_error("this format holds no tolerances report");
}

std::string Reporter::mutate(const MutateReport&) const {
  throw std::logic_error("this format holds no mutate report");
}

const std::vector<ReportFormat>& report_formats() {
  using K = ReportKind;
  static const std::vector<ReportFormat> formats = {
      {"json",
       "--json,--report",
       "Write the results as JSON to this file (- for the screen)",
       {K::kVerify, K::kCompare, K::kCheck, K::kDdpCheck, K::kMutate},
       json_reporter},
      {"junit",
       "--junit",
       "Write JUnit XML (a testcase per scenario x device x series, invariant, law or finding) to this file (- for "
       "the screen)",
       {K::kVerify, K::kCompare, K::kCheck, K::kDdpCheck, K::kMutate},
       junit_reporter},
      {"html",
       "--html",
       "Write one self-contained HTML page (a plot per series) to this file (- for the screen)",
       {K::kVerify, K::kCompare, K::kCheck, K::kDdpCheck},
       html_reporter},
      {"markdown",
       "--markdown",
       "Write the report as Markdown (for a pull-request comment) to this file (- for the screen): what changed "
       "and every series' tolerance where goldens were written",
       {K::kVerify, K::kCompare, K::kCheck, K::kDdpCheck, K::kRegen, K::kTolerances, K::kMutate},
       markdown_reporter},
  };
  return formats;
}

}  // namespace trainproof
