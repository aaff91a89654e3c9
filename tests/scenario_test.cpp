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

}  // namespace
}  // namespace trainproof
