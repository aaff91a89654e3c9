// In-process timings for the benchmark.
#include "bench/scenario_bench.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>

#include "trainproof/core/compare.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/runner/scenario.h"

namespace trainproof {
namespace {
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
}  // namespace

double Timing::median() const {
  std::vector<double> s = ms;
  std::sort(s.begin(), s.end());
  if (s.empty()) return 0;
  return s.size() % 2 ? s[s.size() / 2] : (s[s.size() / 2 - 1] + s[s.size() / 2]) / 2;
}

Timing time_scenario(const std::string& name, int warmup, int repeat) {
  const ScenarioDef* def = Registry::instance().find(name);
  if (!def) throw BadInput("unknown scenario '" + name + "'");
  for (int i = 0; i < warmup; ++i) run_scenario(*def, c10::Device("cpu"));
  Timing t;
  for (int i = 0; i < repeat; ++i) {
    const auto t0 = Clock::now();
    run_scenario(*def, c10::Device("cpu"));
    t.ms.push_back(seconds_since(t0) * 1000);
  }
  return t;
}

StoreThroughput measure_store(uint64_t elements) {
  StoreThroughput r;
  r.elements = elements;
  GoldenFile g;
  g.scenario = "throughput";
  g.devices["cpu"].fingerprint = "{}";
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> u(-1, 1);
  const uint64_t per = elements / 10;
  for (int i = 0; i < 10; ++i) {
    std::vector<double> v(i == 9 ? elements - 9 * per : per);
    for (double& x : v) x = u(rng);
    g.devices["cpu"].trace.add("series" + std::to_string(i), DType::kFloat32, std::move(v));
  }
  TempDir dir("bench-store");
  const auto path = dir.path() / "throughput.h5";
  auto t0 = Clock::now();
  write_golden(path, g);
  r.write_s = seconds_since(t0);
  r.bytes = std::filesystem::file_size(path);
  t0 = Clock::now();
  const GoldenFile back = read_golden(path);
  r.read_s = seconds_since(t0);
  t0 = Clock::now();
  const auto results = compare_traces(back.devices.at("cpu").trace, g.devices.at("cpu").trace, false);
  r.compare_s = seconds_since(t0);
  for (const auto& c : results)
    if (!c.passed()) throw std::runtime_error("bench-store: round trip changed series " + c.series);
  return r;
}

}  // namespace trainproof
