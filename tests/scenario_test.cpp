// Every registered scenario runs on CPU with all its invariants holding and prints what
// the document prints (CUDA: cuda_test). verify, compare and regen as library calls that
// return reports (RunnerTest); the CLI over them is cli_test's.
#include <torch/cuda.h>

#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gtest/gtest.h>

#include "src/runner/trace_source.h"
#include "tests/support/hdf5_patch.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/runner.h"
#include "trainproof/runner/scenario.h"
#include "trainproof/verdict/golden_draft.h"

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
// prints it from the report (check/check.cpp prints nothing).
TEST(RunnerTest, ACheckReportsExitCodeIsItsLawsFindingsAndGolden) {
  CheckReport r;
  r.laws.emplace_back("check", "cmd", EntryKind::kInvariant, "determinism", Status::kPass, "", "");
  r.laws.emplace_back("check", "cmd", EntryKind::kInvariant, "determinism (advice)", Status::kAdvice, "",
                      "runs differ");
  EXPECT_EQ(exit_code(r), kExitOk);
  Finding allowed;
  allowed.id = "non-atomic-checkpoint";
  allowed.allowed = true;
  r.findings.push_back(allowed);
  EXPECT_EQ(exit_code(r), kExitOk);
  r.golden = CheckGoldenWrite{};
  r.golden->path = "loop.h5";
  r.golden->made_of = "3 execution paths, safety factor 4";
  r.golden->written = true;
  EXPECT_EQ(exit_code(r), kExitOk);
  r.golden->problems = {"the law 'determinism' is broken"};
  r.golden->written = false;  // refused
  EXPECT_EQ(exit_code(r), kExitMismatch);
  const std::string out = console_reporter()->check(r);
  EXPECT_NE(out.find("    REFUSED: the law 'determinism' is broken"), std::string::npos) << out;
  EXPECT_NE(out.find("allowed  [non-atomic-checkpoint]"), std::string::npos) << out;
  EXPECT_NE(out.find("advice   determinism (advice)\n    -> runs differ"), std::string::npos) << out;
  EXPECT_NE(out.find("check: 1 laws, 1 held, 0 broken, 1 advice, 1 finding(s), golden NOT written"), std::string::npos)
      << out;
  r.golden.reset();
  // A law check could not test: its own status and exit code, neither a pass nor the team's failure.
  r.laws.emplace_back("check", "cmd", EntryKind::kInvariant, "exact resume", Status::kNotTested, "",
                      "no kill landed during a write");
  EXPECT_EQ(exit_code(r), kExitNotTested);
  const std::string untested = console_reporter()->check(r);
  EXPECT_NE(untested.find("NOT TESTED exact resume\n    -> no kill landed during a write"), std::string::npos)
      << untested;
  EXPECT_NE(untested.find("check: 2 laws, 1 held, 0 broken, 1 not tested, 1 advice"), std::string::npos) << untested;
  r.laws.back().status = Status::kBroken;  // a broken law outranks it
  EXPECT_EQ(exit_code(r), kExitMismatch);
  r.laws.back().status = Status::kNotTested;
  r.findings.back().allowed = false;  // a finding breaks its law
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

// ---- the pipeline: a golden drafted from every path's traces, whatever their source ----------

// A path's run that recorded `trace` under "s" in the environment `fingerprint`.
PathRun recorded_run(const std::string& path, Trace trace, const std::string& fingerprint = R"({"cpu":"here"})") {
  PathRun r;
  r.path.name = path;
  r.recording = Recording{fingerprint, {{"s", ScenarioRecord{RunStatus::kOk, "", std::move(trace)}}}};
  return r;
}

// Which paths' values of `loss` differed from the reference's, as the draft measured them.
std::string differing(const GoldenDraft& d) {
  const Series* s = d.trace.find("loss");
  return s && s->provenance ? s->provenance->differing : "(not measured)";
}

Trace loss_trace(double last) {
  Trace t;
  t.add("loss", DType::kFloat64, {1.0, last}, Tolerance::exact());
  return t;
}

// A golden drafted from what the paths' runs recorded of "s" (runner's path_traces), in the
// environment of the first.
GoldenDraft draft_across_paths(const std::string& name, const std::vector<PathRun>& runs, const DeviceGolden* old,
                               GoldenDraftOptions o) {
  return trainproof::draft_across_paths(path_traces(name, runs), Fingerprint::parse(runs.at(0).recording->fingerprint),
                                        old, std::move(o));
}

GoldenDraftOptions draft_options() {
  return {.scenario = "s",
          .device = "cpu",
          .safety_factor = 4,
          .old = nullptr,
          .previous = nullptr,
          .problems = {},
          .ceiling_hint = "",
          .force = false};
}

TEST(PipelineTest, PathsThatAgreeDraftAGoldenWithoutProblems) {
  const GoldenDraft d =
      draft_across_paths("s", {recorded_run("native", loss_trace(0.5)), recorded_run("threads-1", loss_trace(0.5))},
                         nullptr, draft_options());
  EXPECT_TRUE(d.problems.empty()) << (d.problems.empty() ? "" : d.problems.front());
  EXPECT_FALSE(d.refused);
  EXPECT_EQ(differing(d), "");
}

// Its negative controls: each problem of a path's run refuses the golden, named with its path.
TEST(PipelineTest, ADraftWithAFailedDifferingOrBrokenPathFails) {
  PathRun failed;
  failed.path.name = "avx2";
  failed.error = "the recording process exited with 1";
  PathRun skipped = recorded_run("threads-1", {});
  skipped.recording->scenarios["s"] = ScenarioRecord{RunStatus::kSkipped, "no GPU", {}};
  Trace broken = loss_trace(0.5);
  broken.invariants.push_back({"loss falls", false, "it rose"});
  const GoldenDraft d =
      draft_across_paths("s", {recorded_run("native", loss_trace(0.5)), failed, skipped, recorded_run("mkl", broken)},
                         nullptr, draft_options());
  ASSERT_EQ(d.problems.size(), 3u) << fmt::format("{}", fmt::join(d.problems, "\n"));
  EXPECT_EQ(d.problems[0], "on path avx2 the recording process exited with 1");
  EXPECT_EQ(d.problems[1], "on path threads-1 it was skipped: no GPU");
  EXPECT_EQ(d.problems[2], "invariant 'loss falls' is broken on path mkl: it rose");
  EXPECT_TRUE(d.refused);
  EXPECT_FALSE(draft_across_paths("s", {recorded_run("native", loss_trace(0.5)), failed}, nullptr,
                                  [] {
                                    auto o = draft_options();
                                    o.force = true;
                                    return o;
                                  }())
                   .refused);
}

// A golden made in another environment joins the spread where its values still hold; one made
// here does not (its values are this environment's, which the paths measure themselves).
TEST(PipelineTest, AnOldGoldenFromAnotherMachineJoinsTheSpread) {
  Trace before = loss_trace(0.5000001);
  before.series[0].cross = Tolerance::rel(1e-3);
  DeviceGolden old{R"({"cpu":"elsewhere"})", before, "[]", "", std::nullopt};
  const std::vector<PathRun> runs{recorded_run("native", loss_trace(0.5))};
  const GoldenDraft elsewhere = draft_across_paths("s", runs, &old, draft_options());
  EXPECT_EQ(differing(elsewhere), "previous-golden");
  old.fingerprint = R"({"cpu":"here"})";
  const GoldenDraft here = draft_across_paths("s", runs, &old, draft_options());
  EXPECT_EQ(differing(here), "");
}

}  // namespace
}  // namespace trainproof
