// Every registered scenario runs on CPU with all its invariants holding; on CUDA when a
// GPU is present. (Golden comparison is `trainproof verify`, tested in cli_test.)
#include <torch/cuda.h>

#include <gtest/gtest.h>

#include "harness/scenario.h"

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

TEST_P(ScenarioTest, RunsOnCpuWithInvariantsHolding) { run_and_check(GetParam(), c10::Device("cpu")); }

TEST_P(ScenarioTest, RunsOnCudaWithInvariantsHolding) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "CUDA not available";
  run_and_check(GetParam(), c10::Device("cuda"));
}

std::vector<std::string> names() {
  std::vector<std::string> n;
  for (const auto& d : Registry::instance().all()) n.push_back(d.name);
  return n;
}

INSTANTIATE_TEST_SUITE_P(All, ScenarioTest, ::testing::ValuesIn(names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace trainproof
