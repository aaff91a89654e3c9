// record, tolerances, run and the golden status `list` prints (runner.h): the commands that
// record or read traces without holding a run to the goldens. (compare is verdict's,
// verdict/golden_compare.h: it needs no LibTorch.)
#include "trainproof/runner/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <sstream>

#include <ATen/Parallel.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/cuda.h>

#include "src/core/trace_json.h"
#include "src/process/exec_paths.h"
#include "src/process/path_matrix.h"
#include "src/runner/trace_source.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/hash.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/runner/fingerprint.h"
#include "trainproof/verdict/golden_draft.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

// ---- record and tolerances ----------------------------------------------------------------

int record(const std::vector<std::string>& scenarios, const std::string& device, const fs::path& out,
           const ProgressSink& progress) {
  const auto defs = resolve_scenarios(scenarios);
  const auto devices = resolve_devices(device);
  if (devices.size() != 1) throw BadInput("record: --device must name one device (cpu or cuda)");
  const Recording r = record_here(defs, c10::Device(devices[0]), progress);
  write_recording(out, r);
  return kExitOk;
}

std::vector<ToleranceRow> tolerances(const std::vector<std::string>& scenarios, const fs::path& golden_dir) {
  std::vector<ToleranceRow> rows;
  for (const auto& def : resolve_scenarios(scenarios)) {
    const GoldenFile g = read_golden(golden_path(golden_dir, def.name));
    for (const auto& [dev, dg] : g.devices) add_tolerance_rows(def.name, dev, dg.trace, rows);
  }
  return rows;
}

// ---- run and list -------------------------------------------------------------------------

VerifyReport run(const std::string& scenario, const std::string& device, const LineSink& echo) {
  const auto defs = resolve_scenarios({scenario});
  VerifyReport report;
  const auto t0 = Clock::now();
  for (const auto& dev : resolve_devices(device)) {
    try {
      const Trace t = run_scenario(defs[0], c10::Device(dev), echo);
      for (const auto& inv : t.invariants)
        if (!inv.held) report.entries.push_back(law_entry(scenario, dev, inv.name, Status::kBroken, inv.detail));
    } catch (const Skipped& s) {
      report.entries.emplace_back(scenario, dev, EntryKind::kRun, "(all)", Status::kSkipped, "", s.what());
    }
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return report;
}

std::string golden_status(const fs::path& golden_dir, const std::string& scenario) {
  const fs::path p = golden_path(golden_dir, scenario);
  if (!fs::exists(p)) return "missing";
  try {
    std::vector<std::string> devs;
    for (const auto& [dev, dg] : read_golden(p).devices) devs.push_back(dev);
    return fmt::format("{}", fmt::join(devs, "+"));
  } catch (const BadInput&) {
    return "CORRUPT (verify says why)";
  }
}

void apply_thread_count() {
  const char* env = std::getenv("TRAINPROOF_THREADS");
  if (!env || !*env) return;
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != '\0' || n < 1 || n > 1024)
    throw BadInput(fmt::format("TRAINPROOF_THREADS: '{}' is not a thread count between 1 and 1024", env));
  at::set_num_threads(static_cast<int>(n));
}

}  // namespace trainproof
