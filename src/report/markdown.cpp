// The Markdown reports of regen and tolerances, for a pull request.
#include <cmath>

#include <fmt/format.h>

#include "trainproof/core/atomic_file.h"
#include "trainproof/report/report.h"

namespace trainproof {

void write_regen_markdown(const std::filesystem::path& path, const RegenReport& r) {
  std::vector<RegenChange> changes;
  for (const auto& d : r.devices)
    for (const auto& s : d.scenarios) changes.insert(changes.end(), s.changes.begin(), s.changes.end());
  write_regen_markdown(path, changes, r.tolerances);
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
