// `trainproof bench` (bench_cli.h).
#include "bench/bench_cli.h"

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include "bench/scenario_bench.h"
#include "trainproof/core/errors.h"
#include "trainproof/runner/runner.h"

namespace trainproof {
namespace {

struct BenchOptions {
  std::vector<std::string> names;
  int warmup = 1, repeat = 5;
  double store_elements = 0;
};

int run_bench(const BenchOptions& o) {
  if (o.store_elements > 0) {
    const auto r = measure_store(static_cast<uint64_t>(o.store_elements));
    const double mb = static_cast<double>(r.bytes) / 1e6;
    fmt::print(
        "store {} elements, {:.1f} MB: write {:.2f} s, read {:.2f} s, compare {:.2f} s, read+compare {:.0f} MB/s\n",
        r.elements, mb, r.write_s, r.read_s, r.compare_s, mb / (r.read_s + r.compare_s));
    return kExitOk;
  }
  for (const auto& def : resolve_scenarios(o.names)) {
    const Timing t = time_scenario(def.name, o.warmup, o.repeat);
    fmt::print("{} {:.3f} {}\n", def.name, t.median(), fmt::join(t.ms, ","));
  }
  return kExitOk;
}

}  // namespace

CliCommand bench_command() {
  auto o = std::make_shared<BenchOptions>();
  return {[o](CLI::App& app) {
            auto* bench =
                app.add_subcommand("bench", "Time scenarios in-process (median ms), or golden store throughput");
            bench->add_option("scenarios", o->names, "Scenario names (default: all)");
            bench->add_option("--warmup", o->warmup, "Untimed runs first")
                ->capture_default_str()
                ->check(CLI::NonNegativeNumber);
            bench->add_option("--repeat", o->repeat, "Timed runs")->capture_default_str()->check(CLI::PositiveNumber);
            bench->add_option("--store-elements", o->store_elements,
                              "Measure golden read+compare throughput on this many float32 values");
            return bench;
          },
          [o] { return run_bench(*o); }};
}

}  // namespace trainproof
