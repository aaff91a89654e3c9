// Every invariant of every scenario can fail. Each scenario declares the mistakes its
// invariants exist to catch (TRAINPROOF_SCENARIO_INFO's controls); here each mistake is made
// on purpose (TRAINPROOF_INJECT_FAULT) and verify must exit 1 with every
// invariant the control names BROKEN.
//
// Instantiated twice: SingleProcess/ (label controls) and MultiProcess/, the scenarios that
// start rank processes (label distributed, run alone: tests/CMakeLists.txt).
#include <torch/cuda.h>

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/scoped_env.h"
#include "tests/support/test_name.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/report/report.h"
#include "trainproof/runner/runner.h"
#include "trainproof/runner/scenario.h"

namespace trainproof {
namespace {

std::vector<ScenarioDef> scenarios(bool multi_process) {
  std::vector<ScenarioDef> out;
  for (const auto& d : Registry::instance().all())
    if (d.info.multi_process == multi_process) out.push_back(d);
  return out;
}

struct Verdicts {
  int code;
  std::string output;
  std::map<std::string, std::string> invariants;  // name -> status
  bool skipped = false;
};

// `trainproof verify SCENARIO --device DEVICE` with FAULT made. A single-process scenario runs
// in this process, through the verify the CLI calls and the exit code it returns (a start of
// the CLI costs about 0.5 s, more than most scenarios; `trainproof verify` as a program is
// cli_test's): the fault is read where it is made, at each call (core/fault.cpp), so a scoped
// variable makes it. Data-parallel scenarios start rank processes of the CLI: run as the CLI.
Verdicts verify_in_process(const std::string& scenario, const std::string& device, const std::string& fault) {
  const testing::ScopedEnv made("TRAINPROOF_INJECT_FAULT", fault);
  VerifyOptions o;
  o.scenarios = {scenario};
  o.device = device;
  o.golden_dir = "golden";
  const VerifyReport r = trainproof::verify(o);
  Verdicts v{exit_code(r), "", {}};
  for (const auto& e : r.entries) {
    v.output += fmt::format("{} {} {}: {}\n", status_text(e.status), entry_kind_text(e.kind), e.name, e.detail);
    if (e.kind == EntryKind::kInvariant) v.invariants[e.name] = status_text(e.status);
    if (e.status == Status::kSkipped) v.skipped = true;
  }
  return v;
}

Verdicts verify_with_cli(const std::string& scenario, const std::string& device, const std::string& fault) {
  TempDir dir("negative-control");
  const auto report = dir.path() / "report.json";
  const auto r = testing::run_cli("verify " + scenario + " --device " + device + " --json " + report.string(),
                                  fault.empty() ? "" : "TRAINPROOF_INJECT_FAULT=" + fault);
  Verdicts v{r.code, r.output, {}};
  std::ifstream in(report);
  if (!in) return v;
  const auto report_json = nlohmann::json::parse(in);
  for (const auto& e : report_json.at("results")) {
    if (e.at("kind") == "invariant") v.invariants[e.at("name")] = e.at("status");
    if (e.value("status", "") == "skipped") v.skipped = true;
  }
  return v;
}

Verdicts verify(const std::string& scenario, const std::string& device, const std::string& fault) {
  const ScenarioDef* d = Registry::instance().find(scenario);
  return d && d->info.multi_process ? verify_with_cli(scenario, device, fault)
                                    : verify_in_process(scenario, device, fault);
}

// An invariant is named by a control when the control's text is part of its name.
bool names(const std::string& part, const std::string& invariant) {
  return invariant.find(part) != std::string::npos;
}

bool device_present(const std::string& device) {
  return device == "cpu" || torch::cuda::is_available();
}

// ---- each control breaks what it names ---------------------------------------------------

struct Control {
  std::string scenario;
  NegativeControl control;
};

void PrintTo(const Control& c, std::ostream* os) {
  *os << c.scenario << " with " << c.control.fault;
}

class NegativeControlTest : public ::testing::TestWithParam<Control> {};

TEST_P(NegativeControlTest, MistakeBreaksItsInvariantsAndVerifyExitsOne) {
  const auto& [scenario, c] = GetParam();
  if (!device_present(c.device)) GTEST_SKIP() << "its invariants are checked on " << c.device << " only";
  const Verdicts v = verify(scenario, c.device, c.fault);
  if (v.skipped) GTEST_SKIP() << scenario << " skipped itself:\n" << v.output;
  EXPECT_EQ(v.code, 1) << "with the mistake '" << c.fault << "' made, verify must fail:\n" << v.output;
  for (const auto& part : c.breaks) {
    bool broken = false, seen = false;
    for (const auto& [name, status] : v.invariants)
      if (names(part, name)) seen = true, broken = broken || status == "BROKEN";
    EXPECT_TRUE(seen) << "no invariant of " << scenario << " is named '" << part << "':\n" << v.output;
    EXPECT_TRUE(broken) << "'" << c.fault << "' left '" << part << "' holding: a check that cannot fail\n" << v.output;
  }
}

std::vector<Control> controls(bool multi_process) {
  std::vector<Control> out;
  for (const auto& d : scenarios(multi_process))
    for (const auto& c : d.info.controls) out.push_back({d.name, c});
  return out;
}

std::string control_name(const ::testing::TestParamInfo<Control>& info) {
  return testing::test_name(info.param.scenario + "__" + info.param.control.fault);
}
INSTANTIATE_TEST_SUITE_P(SingleProcess, NegativeControlTest, ::testing::ValuesIn(controls(false)), control_name);
INSTANTIATE_TEST_SUITE_P(MultiProcess, NegativeControlTest, ::testing::ValuesIn(controls(true)), control_name);

// A clean run of each scenario passes (VerifyTest.TheReadmesMainJobPasses, the README's verify),
// and each invariant it checks is named by a control: tests/invariant_coverage_test.py, over
// that run's report.

}  // namespace
}  // namespace trainproof
