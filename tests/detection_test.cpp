// Detection power of the committed goldens' cross-environment tolerances, measured: a
// change planted just beyond each series' tolerance is caught, one well inside is not,
// and the smallest change each series catches meets the targets (README, "Cross-machine
// verification"). Planted changes are compared golden against golden, so the result does
// not depend on which machine made the goldens; one end-to-end verify runs as well.
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "src/core/envelope.h"
#include "trainproof/core/compare.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/golden/golden_store.h"

namespace trainproof {
namespace {

namespace fs = std::filesystem;

// The two scenarios whose arithmetic is bfloat16 on the CPU: their target is 10%, not 1%.
const std::set<std::string> kLowPrecision = {"amp_loop", "autocast_dtypes"};

std::vector<fs::path> goldens() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator("golden"))
    if (e.path().extension() == ".h5") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

bool informational(const Series& s) {
  return s.cross.is_any();
}

// The index where a relative change is caught soonest (index 0 in a series of zeros).
size_t tightest_index(const Series& s) {
  size_t best = 0;
  double r_best = INFINITY;
  for (size_t i = 0; i < s.size(); ++i) {
    const double v = s.at(i);
    if (v == 0 || !std::isfinite(v)) continue;
    const double r = s.cross.allowance(v, s.produced) / std::fabs(v);
    if (r < r_best) {
      r_best = r;
      best = i;
    }
  }
  return best;
}

double stored(double v, DType d) {
  return storage_of(d) == Storage::kF32 ? static_cast<double>(static_cast<float>(v)) : v;
}

// Moves value `i` of `s` up by k times its allowance (as stored in a golden); returns k.
// With `beyond`, k grows from just over 1 until the series' cross tolerance rejects it.
double plant(Series& s, size_t i, double k, bool beyond) {
  if (is_integer(s.produced)) {
    s.ints[i] += beyond ? static_cast<int64_t>(s.cross.allowance(0, s.produced)) + 1 : 0;
    return 1;
  }
  const double v = s.values[i], a = s.cross.allowance(v, s.produced);
  double planted = stored(v + k * a, s.produced);
  for (int n = 0; beyond && s.cross.accepts(v, planted, s.produced) && n < 200; ++n) {
    k *= 1.05;
    planted = stored(v + k * a, s.produced);
  }
  s.values[i] = planted;
  return k;
}

struct Result {
  int code;
  std::string output;
};

Result trainproof(const std::string& args) {
  const char* bin = std::getenv("TRAINPROOF_BIN");
  if (!bin) throw std::runtime_error("TRAINPROOF_BIN is not set (run through ctest)");
  FILE* p = popen((std::string(bin) + " " + args + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}

TEST(DetectionTest, SmallestCaughtChangeMeetsTheTargets) {
  size_t measured = 0;
  for (const auto& path : goldens()) {
    const GoldenFile g = read_golden(path);
    for (const auto& s : g.devices.at("cpu").trace.series) {
      if (informational(s) || is_integer(s.produced)) continue;
      const double r = smallest_caught_change(s, s.cross);
      if (std::isnan(r)) continue;  // a series of zeros: no scaling changes it
      ++measured;
      EXPECT_LT(r, 0.10) << g.scenario << "/" << s.name << " lets a 10% change through (" << s.cross.str() << ")";
      if (!kLowPrecision.count(g.scenario)) {
        EXPECT_LT(r, 0.01) << g.scenario << "/" << s.name << " lets a 1% change through (" << s.cross.str() << ")";
      }
    }
  }
  EXPECT_GT(measured, 30u);
}

// Every series of every golden, one value moved just beyond its cross tolerance: each is
// caught; moved half-way inside: none is. `trainproof compare --cross` of the golden folder
// against each planted one (one process each): every scenario with a planted series fails,
// and only those; nothing fails inside.
TEST(DetectionTest, ChangesJustBeyondToleranceAreCaughtAndInsideAreNot) {
  TempDir dir("detect");
  fs::create_directories(dir.path() / "beyond");
  fs::create_directories(dir.path() / "inside");
  size_t planted = 0;
  std::set<std::string> expected;  // the scenarios with a planted series (not only informational ones)
  for (const auto& path : goldens()) {
    const GoldenFile g = read_golden(path);
    GoldenFile beyond = g, inside = g;
    auto& b = beyond.devices.at("cpu").trace.series;
    auto& in = inside.devices.at("cpu").trace.series;
    for (size_t j = 0; j < b.size(); ++j) {
      const Series& s = g.devices.at("cpu").trace.series[j];
      if (informational(s) || s.size() == 0) continue;
      const size_t i = tightest_index(s);
      const double k = plant(b[j], i, 1.01, /*beyond=*/true);
      EXPECT_LT(k, 3.0) << g.scenario << "/" << s.name << ": not caught until " << k << "x its allowance";
      EXPECT_FALSE(compare_series(s, b[j], /*cross=*/true).passed()) << g.scenario << "/" << s.name;
      if (!is_integer(s.produced)) {
        plant(in[j], i, 0.5, /*beyond=*/false);
        EXPECT_TRUE(compare_series(s, in[j], /*cross=*/true).passed()) << g.scenario << "/" << s.name;
      }
      expected.insert(g.scenario);
      ++planted;
    }
    write_golden(dir.path() / "beyond" / path.filename(), beyond);
    write_golden(dir.path() / "inside" / path.filename(), inside);
  }
  EXPECT_GT(planted, 40u);
  const auto failing = [&](const std::string& which, int want) {
    const fs::path report = dir.path() / (which + ".json");
    const Result r =
        trainproof("compare --cross golden " + (dir.path() / which).string() + " --json " + report.string());
    EXPECT_EQ(r.code, want) << which << ":\n" << r.output;
    std::set<std::string> failed;
    std::ifstream in(report);
    const nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& e : j.at("results"))
      if (e.at("status") != "pass" && e.at("status") != "skipped") failed.insert(e.at("scenario").get<std::string>());
    return failed;
  };
  EXPECT_EQ(failing("beyond", 1), expected);
  EXPECT_EQ(failing("inside", 0), std::set<std::string>{});
}

// End to end: the scenarios run, and verify against goldens with every series planted at
// three times its allowance exits 1 with each planted series failing. Not the three whose runs
// take 48 s of the 50 (a compile, ranks): the test above holds their series, and the path
// from a run to a verdict is the same for every scenario.
const std::set<std::string> kSlowToRun = {"compile_speed", "ddp_equivalence", "ddp_resume"};

TEST(DetectionTest, VerifyCatchesPlantedChangesEndToEnd) {
  TempDir dir("detect-verify");
  std::set<std::string> expected;
  std::string scenarios;
  for (const auto& path : goldens()) {
    GoldenFile g = read_golden(path);
    if (kSlowToRun.count(g.scenario)) continue;
    scenarios += " " + g.scenario;
    for (auto& s : g.devices.at("cpu").trace.series) {
      if (informational(s) || s.size() == 0) continue;
      if (is_integer(s.produced)) {
        plant(s, 0, 1, true);
      } else {
        const size_t i = tightest_index(s);
        s.values[i] = stored(s.values[i] + 3 * s.cross.allowance(s.values[i], s.produced), s.produced);
      }
      expected.insert(g.scenario + "/" + s.name);
    }
    write_golden(dir.path() / path.filename(), g);
  }
  const fs::path report = dir.path() / "report.json";
  const Result r = trainproof("verify" + scenarios + " --device cpu --cross --golden " + dir.path().string() +
                              " --json " + report.string());
  EXPECT_EQ(r.code, 1) << r.output;
  std::ifstream in(report);
  const auto j = nlohmann::json::parse(in);
  std::set<std::string> caught;
  for (const auto& e : j.at("results")) {
    if (e.at("kind") == "series" && e.at("status") == "FAIL")
      caught.insert(e.at("scenario").get<std::string>() + "/" + e.at("name").get<std::string>());
  }
  for (const auto& name : expected) EXPECT_TRUE(caught.count(name)) << name << " was not caught\n" << r.output;
  EXPECT_GT(expected.size(), 30u);
}

}  // namespace
}  // namespace trainproof
