// Every registered scenario runs on CPU with all its invariants holding and prints what
// the document prints (CUDA: cuda_test). verify, compare and regen as library calls that
// return reports (RunnerTest); the CLI over them is cli_test's.
#include <torch/cuda.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "tests/support/hdf5_patch.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/report/console.h"
#include "trainproof/runner/runner.h"
#include "trainproof/runner/scenario.h"

namespace trainproof {
namespace {

class ScenarioTest : public ::testing::TestWithParam<std::string> {};

void run_and_check(const std::string& name, c10::Device device) {
  const ScenarioDef* def = Registry::instance().find(name);
  ASSERT_NE(def, nullptr);
  Trace t;
  try {
    t = run_scenario(*def, device);
  } catch (const Skipped& s) {
    GTEST_SKIP() << s.what();
  }
  EXPECT_FALSE(t.series.empty()) << name << " recorded no series";
  EXPECT_FALSE(t.output.empty()) << name << " printed nothing";
  for (const auto& inv : t.invariants) EXPECT_TRUE(inv.held) << name << ": " << inv.name << ": " << inv.detail;
}

// The single-process scenarios (the multi-process ones start rank processes:
// negative_control_test's MultiProcess cases run them clean, alone).
TEST_P(ScenarioTest, RunsOnCpuWithInvariantsHolding) {
  run_and_check(GetParam(), c10::Device("cpu"));
}

// The scenario prints exactly the lines the document printed (ScenarioInfo::prints), then
// the ones it declares beyond them (also_prints), and nothing else. Instantiated for the
// scenarios that declare them.
class DocumentLinesTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DocumentLinesTest, PrintsWhatTheDocumentPrints) {
  const ScenarioDef& def = *Registry::instance().find(GetParam());
  std::string expected;
  for (const auto& l : def.info.printed_lines()) expected += l + "\n";
  const Trace t = run_scenario(def, c10::Device("cpu"));
  EXPECT_EQ(t.output, expected);
}

std::vector<std::string> names(bool (*wanted)(const ScenarioDef&)) {
  std::vector<std::string> n;
  for (const auto& d : Registry::instance().all())
    if (wanted(d)) n.push_back(d.name);
  return n;
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioTest,
                         ::testing::ValuesIn(names([](const ScenarioDef& d) { return !d.info.multi_process; })),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(All, DocumentLinesTest,
                         ::testing::ValuesIn(names([](const ScenarioDef& d) { return !d.info.prints.empty(); })),
                         [](const auto& info) { return info.param; });

// The mixed-precision recipes per device (the bf16-on-CUDA half is checked here without a GPU;
// cuda_test runs both recipes where there is one).
TEST(AmpRecipesTest, CpuRunsBfloat16WithoutAScaler) {
  const auto r = amp_recipes(c10::DeviceType::CPU, /*native_bf16=*/true);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].dtype, c10::kBFloat16);
  EXPECT_FALSE(r[0].scaler);
  EXPECT_EQ(r[0].suffix, "");
}

TEST(AmpRecipesTest, AmpereRunsFloat16WithAScalerThenBfloat16WithoutOne) {
  const auto r = amp_recipes(c10::DeviceType::CUDA, /*native_bf16=*/true);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].dtype, c10::kHalf);
  EXPECT_TRUE(r[0].scaler);
  EXPECT_EQ(r[0].suffix, "");  // the float16 series keep their names: existing /cuda goldens stay valid
  EXPECT_EQ(r[1].dtype, c10::kBFloat16);
  EXPECT_FALSE(r[1].scaler);
  EXPECT_EQ(r[1].suffix, "_bf16");
}

TEST(AmpRecipesTest, OlderGpusRunFloat16Only) {
  const auto r = amp_recipes(c10::DeviceType::CUDA, /*native_bf16=*/false);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].dtype, c10::kHalf);
  EXPECT_TRUE(r[0].scaler);
}

// On the CPU the two recipe scenarios record one recipe, under the names the goldens hold.
TEST(AmpRecipesTest, CpuScenariosRecordNoBfloat16Suffix) {
  for (const auto& [name, series] : {std::pair{"autocast_dtypes", "loss"}, std::pair{"amp_loop", "loss_per_epoch"}}) {
    const Trace t = run_scenario(*Registry::instance().find(name), c10::Device("cpu"));
    EXPECT_NE(t.find(series), nullptr) << name;
    for (const auto& s : t.series) EXPECT_EQ(s.name.find("_bf16"), std::string::npos) << name << ": " << s.name;
  }
}

// ---- verify, compare and regen in-process (runner.h) ---------------------------------------

constexpr const char* kScenario = "precision_table";
constexpr const char* kSeries = "cpu/one_plus_0.001_float16";

// A copy of the committed golden folder's precision_table, optionally with one value moved.
std::filesystem::path golden_copy(const TempDir& dir, double delta) {
  const auto to = dir.path() / (std::string(kScenario) + ".h5");
  std::filesystem::copy_file(std::filesystem::path("golden") / (std::string(kScenario) + ".h5"), to);
  if (delta != 0) testing::add_to_value(to, kSeries, 0, delta);
  return to;
}

const ReportEntry* entry(const VerifyReport& r, const std::string& name) {
  for (const auto& e : r.entries)
    if (e.name == name) return &e;
  return nullptr;
}

TEST(RunnerTest, VerifyReturnsAReportWithoutStartingAProcess) {
  VerifyOptions o;
  o.scenarios = {kScenario};
  o.device = "cpu";
  o.golden_dir = "golden";
  const VerifyReport r = verify(o);
  ASSERT_NE(entry(r, "one_plus_0.001_float16"), nullptr);
  for (const auto& e : r.entries) EXPECT_TRUE(e.passed()) << e.name << ": " << status_text(e.status) << " " << e.detail;
  EXPECT_EQ(exit_code(r), kExitOk);
}

// Its negative control: the same call against a golden with one value moved reports that
// series FAIL and exit 1.
TEST(RunnerTest, VerifyReportsAMovedGoldenValue) {
  TempDir dir("runner-test");
  golden_copy(dir, 0.5);
  VerifyOptions o;
  o.scenarios = {kScenario};
  o.device = "cpu";
  o.golden_dir = dir.path();
  const VerifyReport r = verify(o);
  const ReportEntry* e = entry(r, "one_plus_0.001_float16");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->status, Status::kFail);
  EXPECT_EQ(exit_code(r), kExitMismatch);
}

TEST(RunnerTest, VerifyReportsAMissingGoldenAsBadInput) {
  TempDir dir("runner-test");
  VerifyOptions o;
  o.scenarios = {kScenario};
  o.device = "cpu";
  o.golden_dir = dir.path();
  const VerifyReport r = verify(o);
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].status, Status::kBadInput);
  EXPECT_NE(r.entries[0].detail.find(kScenario), std::string::npos) << r.entries[0].detail;
  EXPECT_EQ(exit_code(r), kExitBadInput);
}

TEST(RunnerTest, CompareReportsEqualFilesEqualAndAMovedValueDifferent) {
  TempDir dir("runner-test");
  const auto moved = golden_copy(dir, 0.5);
  CompareOptions same;
  same.reference = same.observed = std::filesystem::path("golden") / (std::string(kScenario) + ".h5");
  EXPECT_EQ(exit_code(compare(same)), kExitOk);
  CompareOptions differ = same;
  differ.observed = moved;
  const VerifyReport r = compare(differ);
  ASSERT_NE(entry(r, "one_plus_0.001_float16"), nullptr);
  EXPECT_EQ(entry(r, "one_plus_0.001_float16")->status, Status::kFail);
  EXPECT_EQ(exit_code(r), kExitMismatch);
}

// check's report: a broken law, a breaking finding or a refused golden is exit 1; an allowed
// finding, advice and a golden written with --force over held laws are not. The console
// prints it from the report (runner/check.cpp prints nothing).
TEST(RunnerTest, ACheckReportsExitCodeIsItsLawsFindingsAndGolden) {
  CheckReport r;
  r.report.entries.emplace_back("check", "cmd", "invariant", "determinism", Status::kPass, "", "");
  r.report.entries.emplace_back("check", "cmd", "invariant", "determinism (advice)", Status::kAdvice, "",
                                "runs differ");
  EXPECT_EQ(exit_code(r), kExitOk);
  Finding allowed;
  allowed.id = "non-atomic-checkpoint";
  allowed.allowed = true;
  r.report.findings.push_back(allowed);
  r.report.entries.emplace_back("check", "cmd", "finding", allowed.id, allowed.status(), "", "");
  EXPECT_EQ(exit_code(r), kExitOk);
  r.golden = CheckGoldenWrite{};
  r.golden->path = "loop.h5";
  r.golden->made_of = "3 execution paths, safety factor 4";
  r.golden->written = true;
  EXPECT_EQ(exit_code(r), kExitOk);
  r.golden->problems = {"the law 'determinism' is broken"};
  r.golden->written = false;  // refused
  EXPECT_EQ(exit_code(r), kExitMismatch);
  ::testing::internal::CaptureStdout();
  print_check_report(r);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("    REFUSED: the law 'determinism' is broken"), std::string::npos) << out;
  EXPECT_NE(out.find("allowed  [non-atomic-checkpoint]"), std::string::npos) << out;
  EXPECT_NE(out.find("advice   determinism (advice)\n    -> runs differ"), std::string::npos) << out;
  EXPECT_NE(out.find("check: 1 laws, 1 held, 0 broken, 1 advice, 1 finding(s), golden NOT written"), std::string::npos)
      << out;
  r.golden.reset();
  r.report.entries.emplace_back("check", "cmd", "invariant", "exact resume", Status::kBroken, "", "");
  EXPECT_EQ(exit_code(r), kExitMismatch);
}

// A dry run writes nothing and reports, series by series, what a regen would change: against
// a golden with a moved value, that series "changed" and the others "unchanged".
TEST(RunnerTest, RegenDryRunReportsWhatWouldChangeAndWritesNothing) {
  TempDir dir("runner-test");
  const auto file = golden_copy(dir, 0.5);
  const auto before = std::filesystem::last_write_time(file);
  RegenOptions o;
  o.scenarios = {kScenario};
  o.device = "cpu";
  o.golden_dir = dir.path();
  o.path_set = "native";
  o.dry_run = true;
  const RegenReport r = regen(o);
  EXPECT_TRUE(r.refused.empty());
  ASSERT_EQ(r.written, std::vector<std::string>{file.string()});
  ASSERT_EQ(r.devices.size(), 1u);
  ASSERT_EQ(r.devices[0].scenarios.size(), 1u);
  size_t changed = 0, unchanged = 0;
  for (const auto& c : r.devices[0].scenarios[0].changes) {
    if (c.series == "one_plus_0.001_float16") {
      EXPECT_EQ(c.change, "changed") << c.what;
    }
    changed += c.change == "changed";
    unchanged += c.change == "unchanged";
  }
  EXPECT_EQ(changed, 1u);
  EXPECT_GT(unchanged, 0u);
  EXPECT_EQ(std::filesystem::last_write_time(file), before);
}

}  // namespace
}  // namespace trainproof
