// Two golden files, or two folders of them, one held to the other (golden_compare.h).
#include "trainproof/verdict/golden_compare.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "src/core/envelope.h"
#include "trainproof/core/compare.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/tolerance.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/verdict/golden_hold.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

// One file's traces against another's, appended to `report`.
void compare_files(const CompareOptions& o, const fs::path& reference, const fs::path& observed,
                   const std::optional<Tolerance>& policy, VerifyReport& report) {
  const std::string observed_device = o.observed_device.empty() ? o.device : o.observed_device;
  const GoldenFile a = read_golden(reference), b = read_golden(observed);
  auto ga = a.devices.find(o.device);
  auto gb = b.devices.find(observed_device);
  if (ga == a.devices.end()) throw BadInput(fmt::format("{}: no /{} group", reference.string(), o.device));
  if (gb == b.devices.end()) throw BadInput(fmt::format("{}: no /{} group", observed.string(), observed_device));
  const bool by_ceiling = o.tolerance == "ceiling", across = observed_device != o.device;
  const std::string label = across ? o.device + "/" + observed_device : o.device;
  for (auto c : compare_traces(ga->second.trace, gb->second.trace, o.cross)) {
    const Series* g = ga->second.trace.find(c.series);
    // Across devices, a series that differs there by design (its scenario says why) or holds no
    // claim at all (a timing, a hash of bits) is left out, and the row says so.
    if (across && c.verdict != Verdict::kMissingSeries && c.verdict != Verdict::kNewSeries) {
      const Series* h = gb->second.trace.find(c.series);
      const std::string& why = !h->across_devices.empty() ? h->across_devices : g->across_devices;
      if (!why.empty() || g->cross.is_any()) {
        report.entries.emplace_back(b.scenario, label, EntryKind::kSeries, c.series, Status::kSkipped, "",
                                    why.empty() ? std::string("informational: no claim to hold across devices")
                                                : "differs across devices by design: " + why);
        continue;
      }
    }
    if ((policy || by_ceiling) && (c.verdict == Verdict::kPass || c.verdict == Verdict::kFail)) {
      const double ceiling = by_ceiling ? ceiling_allowance(*g) : 0;
      const Tolerance t = policy ? *policy : ceiling > 0 ? Tolerance::abs(ceiling) : Tolerance::exact();
      c = compare_series_with(*g, *gb->second.trace.find(c.series), t);
    }
    if (across && (c.verdict == Verdict::kMissingSeries || c.verdict == Verdict::kNewSeries)) {
      report.entries.emplace_back(
          b.scenario, label, EntryKind::kSeries, c.series, Status::kSkipped, "",
          fmt::format("recorded on {} only", c.verdict == Verdict::kNewSeries ? observed_device : o.device));
      continue;
    }
    report.entries.push_back(
        series_entry(b.scenario, label, c, o.cross && !policy && !by_ceiling, ga->second.trace, gb->second.trace));
  }
}

std::vector<fs::path> goldens_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".h5") out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

VerifyReport compare(const CompareOptions& o) {
  std::optional<Tolerance> policy;
  if (!o.tolerance.empty() && o.tolerance != "ceiling") {
    try {
      policy = Tolerance::parse(o.tolerance);
    } catch (const std::invalid_argument& e) {
      throw BadInput(fmt::format("--tolerance: {}", e.what()));
    }
  }
  VerifyReport report;
  const auto t0 = Clock::now();
  const bool dir_a = fs::is_directory(o.reference), dir_b = fs::is_directory(o.observed);
  if (dir_a != dir_b)
    throw BadInput(fmt::format("compare: {} is a folder and {} is not: compare two files or two folders",
                               (dir_a ? o.reference : o.observed).string(),
                               (dir_a ? o.observed : o.reference).string()));
  if (!dir_a) {
    compare_files(o, o.reference, o.observed, policy, report);
  } else {
    // Two folders: each golden against the other folder's of the same name; one only one
    // folder holds is MISSING (from the observed) or NEW (in it).
    const auto in_a = goldens_in(o.reference), in_b = goldens_in(o.observed);
    if (in_a.empty() && in_b.empty())
      throw BadInput(fmt::format("compare: no .h5 golden in {} or {}", o.reference.string(), o.observed.string()));
    for (const auto& name : in_a) {
      if (std::binary_search(in_b.begin(), in_b.end(), name))
        compare_files(o, o.reference / name, o.observed / name, policy, report);
      else
        report.entries.emplace_back(name.stem().string(), o.device, EntryKind::kRun, "golden", Status::kMissing, "",
                                    fmt::format("{} has it, {} does not", o.reference.string(), o.observed.string()));
    }
    for (const auto& name : in_b)
      if (!std::binary_search(in_a.begin(), in_a.end(), name))
        report.entries.emplace_back(name.stem().string(), o.device, EntryKind::kRun, "golden", Status::kNew, "",
                                    fmt::format("{} has it, {} does not", o.observed.string(), o.reference.string()));
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return report;
}

}  // namespace trainproof
