// Every registered scenario runs on CPU with all its invariants holding and prints what
// the document prints (CUDA: cuda_test). Golden comparison is `trainproof verify` (cli_test).
#include <torch/cuda.h>

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "trainproof/runner/scenario.h"

namespace trainproof {
namespace {

class ScenarioTest : public ::testing::TestWithParam<std::string> {};

void run_and_check(const std::string& name, c10::Device device) {
  const ScenarioDef* def = Registry::instance().find(name);
  ASSERT_NE(def, nullptr);
  Trace t;
  try {
    t = run_scenario(*def, device, false);
  } catch (const Skipped& s) {
    GTEST_SKIP() << s.what();
  }
  EXPECT_FALSE(t.series.empty()) << name << " recorded no series";
  EXPECT_FALSE(t.output.empty()) << name << " printed nothing";
  for (const auto& inv : t.invariants) EXPECT_TRUE(inv.held) << name << ": " << inv.name << ": " << inv.detail;
}

TEST_P(ScenarioTest, RunsOnCpuWithInvariantsHolding) {
  if (Registry::instance().find(GetParam())->info.multi_process)
    GTEST_SKIP() << "starts rank processes: negative_control_distributed_test runs it alone";
  run_and_check(GetParam(), c10::Device("cpu"));
}

// The lines the document printed (tests/data/document_output/<scenario>.txt, copied from
// the documents) must open the scenario's output, exactly, unless the scenario declares
// that it does not (prints_document = false: hardware-dependent values, said in its file).
TEST_P(ScenarioTest, PrintsWhatTheDocumentPrints) {
  const std::string name = GetParam();
  std::ifstream in("tests/data/document_output/" + name + ".txt");
  if (!in) GTEST_SKIP() << "the documents print nothing for " << name;
  if (!Registry::instance().find(name)->info.prints_document)
    GTEST_SKIP() << name << " declares prints_document = false";
  std::stringstream expected;
  expected << in.rdbuf();
  const Trace t = run_scenario(*Registry::instance().find(name), c10::Device("cpu"), false);
  EXPECT_EQ(t.output.substr(0, expected.str().size()), expected.str());
}

std::vector<std::string> names() {
  std::vector<std::string> n;
  for (const auto& d : Registry::instance().all()) n.push_back(d.name);
  return n;
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioTest, ::testing::ValuesIn(names()), [](const auto& info) { return info.param; });

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
    const Trace t = run_scenario(*Registry::instance().find(name), c10::Device("cpu"), false);
    EXPECT_NE(t.find(series), nullptr) << name;
    for (const auto& s : t.series) EXPECT_EQ(s.name.find("_bf16"), std::string::npos) << name << ": " << s.name;
  }
}

}  // namespace
}  // namespace trainproof
