// The trainproof CLI end to end: exit codes (0 pass, 1 mismatch, 2 bad input) and the
// messages that name the file, the series and the first divergent index.
#include <hdf5.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "tests/support/hdf5_patch.h"
#include "tests/support/run_cli.h"
#include "trainproof/core/temp_dir.h"
#include "trainproof/runner/fingerprint.h"
#include "trainproof/runner/runner.h"

namespace trainproof {
namespace {

namespace fs = std::filesystem;

using Result = testing::CliResult;
Result trainproof(const std::string& args, const std::string& env = "") {
  return testing::run_cli(args, env);
}

// A private copy of the committed goldens for the scenarios these tests use.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    golden_ = dir_.path() / "golden";
    fs::create_directories(golden_);
    for (const char* s : {"underflow", "precision_table"})
      fs::copy_file(fs::path("golden") / (std::string(s) + ".h5"), golden_ / (std::string(s) + ".h5"));
  }
  std::string g() const { return " --golden " + golden_.string(); }
  TempDir dir_{"cli"};
  fs::path golden_;
};

TEST_F(CliTest, VersionIsTheProjectVersion) {
  const Result r = trainproof("--version");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output, "trainproof " TRAINPROOF_PROJECT_VERSION "\n");
}

// A crash leaves its evidence: the signal and the stack's addresses on stderr, and the
// process still dies of that signal (the exit status says which). The control: a normal run
// prints no crash report.
TEST_F(CliTest, ACrashPrintsItsStackAndDiesOfItsSignal) {
  const Result crashed = trainproof("list", "TRAINPROOF_INJECT_FAULT=crash-at-start");
  EXPECT_EQ(crashed.code, 128 + SIGSEGV) << crashed.output;
  EXPECT_NE(crashed.output.find("trainproof: fatal signal 11\nbacktrace"), std::string::npos) << crashed.output;
  EXPECT_NE(crashed.output.find("[0x"), std::string::npos) << crashed.output;  // a frame's address
  const Result fine = trainproof("list");
  EXPECT_EQ(fine.code, 0) << fine.output;
  EXPECT_EQ(fine.output.find("fatal signal"), std::string::npos) << fine.output;
}

TEST_F(CliTest, VerifyPassesOnTheCommittedGoldens) {
  const Result r = trainproof("verify underflow precision_table --device cpu" + g());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("0 not passing"), std::string::npos) << r.output;
}

// verify holds the printed lines to the document's, exactly; its negative control: one digit
// printed off by one fails verify (exit 1), naming the scenario, the line and both texts.
TEST_F(CliTest, VerifyComparesTheDocumentsPrintedLines) {
  const Result ok = trainproof("verify underflow precision_table --device cpu" + g());
  EXPECT_EQ(ok.code, 0) << ok.output;
  EXPECT_NE(ok.output.find("document lines: 9/9 printed exactly"), std::string::npos) << ok.output;
  setenv("TRAINPROOF_INJECT_FAULT", "printed-digit-changed", 1);
  const Result r = trainproof("verify underflow precision_table --device cpu" + g());
  unsetenv("TRAINPROOF_INJECT_FAULT");
  EXPECT_EQ(r.code, 1) << r.output;
  std::regex row("(^|\n)precision_table +cpu +printed lines +FAIL");
  EXPECT_TRUE(std::regex_search(r.output, row)) << r.output;
  EXPECT_NE(r.output.find("line 1: printed \"torch.float42   1 + 0.001 = 1.001000   1000 + 1 = 1001.0\" where the "
                          "document prints \"torch.float32"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("document lines: 7/9 printed exactly"), std::string::npos) << r.output;
}

TEST_F(CliTest, EditedValueExitsOneNamingSeriesAndIndex) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const fs::path p = golden_ / "underflow.h5";
  hid_t f = H5Fopen(p.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  hid_t ds = H5Dopen2(f, "cpu/finfo_eps", H5P_DEFAULT);
  hid_t space = H5Dget_space(ds);
  const hsize_t start = 1, count = 1;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, nullptr, &count, nullptr);
  hid_t mem = H5Screate_simple(1, &count, nullptr);
  const double v = 0.5;
  ASSERT_GE(H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &v), 0);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(ds);
  H5Fclose(f);

  const Result r = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("finfo_eps"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("first at [1]"), std::string::npos) << r.output;
}

TEST_F(CliTest, TruncatedGoldenExitsTwoNamingTheFile) {
  const fs::path p = golden_ / "underflow.h5";
  fs::resize_file(p, fs::file_size(p) / 2);
  const Result r = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find(p.string()), std::string::npos) << r.output;
}

TEST_F(CliTest, NonHdf5GoldenExitsTwo) {
  std::ofstream(golden_ / "underflow.h5", std::ios::trunc) << "garbage";
  const Result r = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("not an HDF5 file"), std::string::npos) << r.output;
}

TEST_F(CliTest, MissingGoldenExitsTwo) {
  fs::remove(golden_ / "underflow.h5");
  const Result r = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("golden file not found"), std::string::npos) << r.output;
}

TEST_F(CliTest, UnknownScenarioExitsTwo) {
  const Result r = trainproof("verify no_such_scenario" + g());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown scenario 'no_such_scenario'"), std::string::npos) << r.output;
}

TEST_F(CliTest, BadFlagAndBadDeviceExitTwo) {
  EXPECT_EQ(trainproof("verify --no-such-flag").code, 2);
  const Result r = trainproof("verify underflow --device tpu" + g());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown device 'tpu'"), std::string::npos) << r.output;
  EXPECT_EQ(trainproof("").code, 2) << "a subcommand is required";
}

TEST_F(CliTest, RegenDryRunWritesNothingAndRegenRoundTrips) {
  const fs::path fresh = dir_.path() / "fresh";
  Result r = trainproof("regen underflow --device cpu --dry-run --golden " + fresh.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(fresh / "underflow.h5"));
  EXPECT_NE(r.output.find("new"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("execution paths (native, threads-1, "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cross ulp(4): bitwise equal on every path"), std::string::npos) << r.output;

  // The round trip on one execution path: the dry run above has shown the path matrix.
  r = trainproof("regen underflow --device cpu --path-set native --golden " + fresh.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(fresh / "underflow.h5"));
  r = trainproof("regen underflow --device cpu --path-set native --golden " + fresh.string());
  EXPECT_NE(r.output.find("unchanged"), std::string::npos) << r.output;
  EXPECT_EQ(trainproof("verify underflow --device cpu --golden " + fresh.string()).code, 0);
}

// Rewrites one string attribute of a dataset in a golden, as a reviewer with h5py might.
// Moves finfo_eps[1] (float16's epsilon, 2^-10) up by one float64 ulp.
void nudge_finfo_eps(const fs::path& file) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  hid_t ds = H5Dopen2(f, "cpu/finfo_eps", H5P_DEFAULT);
  double v[3];
  ASSERT_GE(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
  v[1] = std::nextafter(v[1], 1.0);
  ASSERT_GE(H5Dwrite(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v), 0);
  H5Dclose(ds);
  H5Fclose(f);
}

// verify applies the tolerances stored in the golden (what regen measured), not the ones
// in the scenario's code: loosening the golden's attribute lets a nudged value through.
TEST_F(CliTest, VerifyAppliesTheGoldensStoredTolerances) {
  // A golden made here, so that its same-environment tolerance is the one that applies.
  ASSERT_EQ(trainproof("regen underflow --device cpu --path-set native" + g()).code, 0);
  const fs::path p = golden_ / "underflow.h5";
  nudge_finfo_eps(p);
  testing::set_string_attr(p, "cpu/finfo_eps", "tolerance", "exact");
  EXPECT_EQ(trainproof("verify underflow --device cpu" + g()).code, 1);
  testing::set_string_attr(p, "cpu/finfo_eps", "tolerance", "ulp(2)");
  const Result r = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(r.code, 0) << r.output;
  // --cross applies tolerance_cross instead, even on the golden's own machine.
  testing::set_string_attr(p, "cpu/finfo_eps", "tolerance_cross", "exact");
  EXPECT_EQ(trainproof("verify underflow --device cpu --cross" + g()).code, 1);
  testing::set_string_attr(p, "cpu/finfo_eps", "tolerance_cross", "ulp(1)");
  EXPECT_EQ(trainproof("verify underflow --device cpu --cross" + g()).code, 0);
}

TEST_F(CliTest, VerifyPathsReportsEachPathAndTheirAgreement) {
  Result r =
      trainproof("verify underflow precision_table --device cpu --paths --path-set threads-1,aten-default" + g());
  EXPECT_EQ(r.code, 0) << r.output;
  for (const char* line : {"native ", "threads-1 ", "aten-default ", "agreement between paths", "3 paths, "})
    EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
  // Negative control: a golden value off by more than its cross tolerance fails on every
  // path that applies it, and the failing paths are named.
  nudge_finfo_eps(golden_ / "underflow.h5");
  testing::set_string_attr(golden_ / "underflow.h5", "cpu/finfo_eps", "tolerance_cross", "exact");
  r = trainproof("verify underflow --device cpu --paths --path-set threads-1" + g());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("cpu@threads-1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("finfo_eps"), std::string::npos) << r.output;
}

TEST_F(CliTest, UnknownExecutionPathExitsTwo) {
  const Result r = trainproof("verify underflow --paths --path-set no-such-path" + g());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown execution path 'no-such-path'"), std::string::npos) << r.output;
}

// regen refuses to freeze a broken law into a golden: a LambdaLR off by one step breaks
// warmup_cosine's invariant (a scenario of a second), and nothing is written.
TEST_F(CliTest, RegenRefusesAScenarioWhoseInvariantBreaks) {
  const fs::path fresh = dir_.path() / "fresh";
  setenv("TRAINPROOF_INJECT_FAULT", "lambda-off-by-one", 1);
  const Result r = trainproof("regen warmup_cosine --device cpu --path-set threads-1 --golden " + fresh.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("REFUSED: invariant 'half the peak at step 550' is broken on path native"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(fresh / "warmup_cosine.h5"));
  // --force writes it, says so, and the golden records what was overridden.
  const Result f = trainproof("regen warmup_cosine --device cpu --path-set native --force --golden " + fresh.string());
  unsetenv("TRAINPROOF_INJECT_FAULT");
  EXPECT_EQ(f.code, 0) << f.output;
  EXPECT_NE(f.output.find("FORCED (--force): invariant 'half the peak"), std::string::npos) << f.output;
  EXPECT_NE(f.output.find("WARNING: warmup_cosine on cpu: written with --force"), std::string::npos) << f.output;
  const Result v = trainproof("verify warmup_cosine --device cpu --golden " + fresh.string());
  EXPECT_NE(v.output.find("was written with regen --force"), std::string::npos) << v.output;
}

// A golden written before tolerances were measured (schema 1) still verifies, and
// `tolerances` says its cross tolerances were declared, not measured.
TEST_F(CliTest, SchemaOneGoldenStillVerifies) {
  fs::copy_file("tests/data/golden_schema1/underflow.h5", golden_ / "underflow.h5",
                fs::copy_options::overwrite_existing);
  Result r = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(r.code, 0) << r.output;
  r = trainproof("tolerances underflow" + g());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("declared (schema 1: not measured)"), std::string::npos) << r.output;
}

// A scenario that fails to run is an internal error (exit 3), not a mismatch: the gate must
// not advise regenerating goldens for it.
TEST_F(CliTest, AScenarioThatFailsToRunExitsThree) {
  setenv("TRAINPROOF_INJECT_FAULT", "throw-in-underflow", 1);
  const Result r = trainproof("verify underflow precision_table --device cpu" + g());
  unsetenv("TRAINPROOF_INJECT_FAULT");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("injected fault: throw-in-underflow"), std::string::npos) << r.output;
}

TEST_F(CliTest, RunPrintsTheDocumentLines) {
  const Result r = trainproof("run underflow");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("tensor(0., dtype=torch.float16)\ntensor(1.0012e-08, dtype=torch.bfloat16)\n"
                          "tensor(0.0007, dtype=torch.float16)\n"),
            std::string::npos)
      << r.output;
}

// A skipped scenario is reported as skipped in the summary and in every report format, and
// never counted as a pass.
TEST_F(CliTest, ASkippedScenarioIsNeitherPassedNorFailedInEveryReport) {
  fs::copy_file(fs::path("golden") / "compile_speed.h5", golden_ / "compile_speed.h5");
  const fs::path json = dir_.path() / "r.json", junit = dir_.path() / "r.xml", html = dir_.path() / "r.html";
  const Result r = trainproof("verify compile_speed underflow --device cpu" + g() + " --json " + json.string() +
                                  " --junit " + junit.string() + " --html " + html.string(),
                              "TRAINPROOF_EXPORT_DIR=" + (dir_.path() / "no-export").string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("compile_speed on cpu ... skipped (no AOTInductor package"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(", 0 failed, 1 skipped)"), std::string::npos) << r.output;
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const std::string j = slurp(json), x = slurp(junit), h = slurp(html);
  EXPECT_NE(j.find("\"skipped\": 1"), std::string::npos) << j;
  EXPECT_NE(j.find("\"status\": \"skipped\""), std::string::npos) << j;
  EXPECT_NE(x.find("skipped=\"1\""), std::string::npos) << x;
  EXPECT_NE(x.find("<skipped message=\"no AOTInductor package"), std::string::npos) << x;
  EXPECT_NE(h.find("0 failed, 1 skipped"), std::string::npos) << h;
  // Its negative control: the counts are the entries', so a skip counted as a pass would show.
  EXPECT_EQ(j.find("\"skipped\": 0"), std::string::npos) << j;
}

// verify --device all on a GPU machine whose goldens have only /cpu groups: the CPU is
// verified and the GPU is NOT VERIFIED (exit 0, said loudly) unless --require-all-devices;
// a device named by --device, and the CPU always, need their group.
TEST(VerifyPolicyTest, AGpuFoundByAllWithoutGoldensIsNotVerified) {
  EXPECT_EQ(missing_group_policy("cuda", "all", false), MissingGroup::kNotVerified);
}
TEST(VerifyPolicyTest, RequireAllDevicesMakesAMissingGpuGroupBadInput) {
  EXPECT_EQ(missing_group_policy("cuda", "all", true), MissingGroup::kBadInput);
}
TEST(VerifyPolicyTest, ADeviceNamedByFlagNeedsItsGroup) {
  EXPECT_EQ(missing_group_policy("cuda", "cuda", false), MissingGroup::kBadInput);
}
TEST(VerifyPolicyTest, TheCpuAlwaysNeedsItsGroup) {
  EXPECT_EQ(missing_group_policy("cpu", "all", false), MissingGroup::kBadInput);
  EXPECT_EQ(missing_group_policy("cpu", "cpu", false), MissingGroup::kBadInput);
}

// Where there is no GPU, `--device all` is the CPU alone and a golden without /cpu is still
// bad input, named with the command that makes it.
TEST_F(CliTest, AllWithoutACpuGroupIsBadInputEvenWithoutRequireAllDevices) {
  testing::rename_group(golden_ / "underflow.h5", "cpu", "cuda");
  const Result r = trainproof("verify underflow --device all" + g());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("no /cpu group (run `trainproof regen underflow --device cpu`"), std::string::npos)
      << r.output;
}

// A golden made on another machine joins regen's spread where this machine's values lie
// inside its envelope, so the new golden holds on both machines. Its negative control: the
// same values with this machine's own fingerprint are a code change, not an environment,
// and do not widen anything.
TEST_F(CliTest, RegenKeepsAPreviousGoldenFromAnotherMachineInTheSpread) {
  const fs::path fresh = dir_.path() / "fresh";
  ASSERT_EQ(trainproof("regen underflow --device cpu --path-set native --golden " + fresh.string()).code, 0);
  const fs::path p = fresh / "underflow.h5";
  const double eps = std::numeric_limits<float>::epsilon();                      // finfo_eps[2], a float64 series
  testing::add_to_value(p, "cpu/finfo_eps", 2, std::nextafter(eps, 1.0) - eps);  // one ulp: inside ulp(4)
  const fs::path same = dir_.path() / "same";
  fs::create_directories(same);
  fs::copy_file(p, same / "underflow.h5");

  std::string fp = testing::string_attr(p, "cpu", "fingerprint");
  const auto at = fp.find("\"cpu_model\":\"");
  ASSERT_NE(at, std::string::npos) << fp;
  fp.insert(at + 13, "Another ");
  testing::set_string_attr(p, "cpu", "fingerprint", fp);

  const Result other = trainproof("regen underflow --device cpu --path-set native --golden " + fresh.string());
  EXPECT_EQ(other.code, 0) << other.output;
  EXPECT_NE(other.output.find("on previous-golden"), std::string::npos) << other.output;
  const Result own = trainproof("regen underflow --device cpu --path-set native --golden " + same.string());
  EXPECT_EQ(own.code, 0) << own.output;
  EXPECT_NE(own.output.find("finfo_eps                        changed"), std::string::npos) << own.output;
  EXPECT_EQ(own.output.find("previous-golden"), std::string::npos) << own.output;
}

// verify says why a golden moved: one ulp off under another CPU's fingerprint is environment
// drift (held by the envelope); the same ulp under this machine's fingerprint is a code
// change; a large change under another fingerprint is both. Each verdict's negative control is
// the other two cases, which must not say it.
TEST_F(CliTest, VerifySaysWhetherTheEnvironmentOrTheCodeMoved) {
  const fs::path p = golden_ / "underflow.h5";
  // This program's LibTorch is in its fingerprint (the runner provides it: verdict/libtorch_fields.h):
  // a verify run by a CLI that lacked it would see the environment move, not the code.
  for (const char* field : {"libtorch_version", "cpu_capability", "threads"})
    EXPECT_EQ(current_fingerprint(c10::kCPU).fields.count(field), 1u) << field;
  // The golden as if made on this machine (the committed one may come from another CPU).
  testing::set_string_attr(p, "cpu", "fingerprint", current_fingerprint(c10::kCPU).json());
  const double eps = std::numeric_limits<float>::epsilon();
  testing::add_to_value(p, "cpu/finfo_eps", 2, std::nextafter(eps, 1.0) - eps);  // one ulp: inside the envelope
  const Result code = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(code.code, 1) << code.output;
  EXPECT_NE(code.output.find("code change: the environment is the golden's and the values moved  (underflow/cpu)"),
            std::string::npos)
      << code.output;

  std::string fp = testing::string_attr(p, "cpu", "fingerprint");
  const auto at = fp.find("\"cpu_model\":\"");
  ASSERT_NE(at, std::string::npos) << fp;
  fp.insert(at + 13, "Another ");
  testing::set_string_attr(p, "cpu", "fingerprint", fp);
  const Result drift = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(drift.code, 0) << drift.output;
  EXPECT_NE(drift.output.find("environment drift: the environment differs from the golden's (cpu_model); the values "
                              "stay within the cross-machine envelope"),
            std::string::npos)
      << drift.output;
  EXPECT_EQ(drift.output.find("code change"), std::string::npos) << drift.output;

  testing::add_to_value(p, "cpu/finfo_eps", 2, 0.01);
  const Result both = trainproof("verify underflow --device cpu" + g());
  EXPECT_EQ(both.code, 1) << both.output;
  EXPECT_NE(both.output.find("both: the environment differs from the golden's (cpu_model) and the values moved"),
            std::string::npos)
      << both.output;
  EXPECT_EQ(both.output.find("environment drift"), std::string::npos) << both.output;
}

// CPU against CUDA (gpu-run.sh's cross-device phase): another device's group, each series
// within the ceiling its scenario declares. A change inside the ceiling passes there and fails
// exactly; one beyond it fails.
TEST_F(CliTest, CompareAcrossDevicesHoldsEachSeriesToItsCeiling) {
  const fs::path ref = golden_ / "underflow.h5", gpu = dir_.path() / "underflow-cuda.h5";
  fs::copy_file(ref, gpu);
  testing::rename_group(gpu, "cpu", "cuda");
  const std::string args = "compare " + ref.string() + " " + gpu.string() + " --device cpu --observed-device cuda";
  EXPECT_EQ(trainproof(args + " --tolerance ceiling").code, 0);
  const double eps = std::numeric_limits<float>::epsilon();   // finfo_eps[2]; ceiling rel(1e-3) of 0.0078
  testing::add_to_value(gpu, "cuda/finfo_eps", 2, 10 * eps);  // 1.2e-6, inside 7.8e-6
  const Result inside = trainproof(args + " --tolerance ceiling");
  EXPECT_EQ(inside.code, 0) << inside.output;
  EXPECT_EQ(trainproof(args + " --tolerance exact").code, 1);
  testing::add_to_value(gpu, "cuda/finfo_eps", 2, 0.01);
  const Result beyond = trainproof(args + " --tolerance ceiling");
  EXPECT_EQ(beyond.code, 1) << beyond.output;
  EXPECT_NE(beyond.output.find("finfo_eps"), std::string::npos) << beyond.output;
  EXPECT_NE(beyond.output.find("cpu/cuda"), std::string::npos) << beyond.output;
}

// A series its scenario declares to differ across devices by design (its dropout masks come
// from the device's own generator) is left out of a cross-device comparison, the row saying
// why; the same move undeclared fails (the control), and so does the declared one on one device.
TEST_F(CliTest, CompareAcrossDevicesLeavesOutWhatDiffersByDesignAndSaysWhy) {
  const fs::path ref = golden_ / "underflow.h5", gpu = dir_.path() / "underflow-cuda.h5";
  const fs::path cpu = dir_.path() / "underflow-cpu.h5";
  fs::copy_file(ref, gpu);
  testing::rename_group(gpu, "cpu", "cuda");
  testing::add_to_value(gpu, "cuda/finfo_eps", 2, 0.01);  // beyond its ceiling
  const std::string args = "compare " + ref.string() + " " + gpu.string() + " --device cpu --observed-device cuda";
  const Result undeclared = trainproof(args + " --tolerance ceiling");
  EXPECT_EQ(undeclared.code, 1) << undeclared.output;

  testing::set_string_attr(gpu, "cuda/finfo_eps", "differs_across_devices", "each device's own generator");
  const Result declared = trainproof(args + " --tolerance ceiling");
  EXPECT_EQ(declared.code, 0) << declared.output;
  EXPECT_NE(declared.output.find("differs across devices by design: each device's own generator"), std::string::npos)
      << declared.output;

  fs::copy_file(gpu, cpu);
  testing::rename_group(cpu, "cuda", "cpu");
  const Result one_device = trainproof("compare " + ref.string() + " " + cpu.string() + " --tolerance ceiling");
  EXPECT_EQ(one_device.code, 1) << one_device.output;
}

// Two folders of goldens: each against the other's of the same name; a golden the observed
// folder lacks is MISSING and one only it holds is NEW (exit 1); a folder against a file is bad input.
TEST_F(CliTest, CompareTwoFoldersGoldenByGolden) {
  const fs::path a = dir_.path() / "a", b = dir_.path() / "b";
  fs::create_directories(a);
  fs::create_directories(b);
  for (const char* s : {"underflow", "precision_table"})
    fs::copy_file(golden_ / (std::string(s) + ".h5"), a / (std::string(s) + ".h5"));
  fs::copy_file(a / "underflow.h5", b / "underflow.h5");
  fs::copy_file(a / "precision_table.h5", b / "precision_table.h5");
  const Result same = trainproof("compare " + a.string() + " " + b.string());
  EXPECT_EQ(same.code, 0) << same.output;
  EXPECT_NE(same.output.find("finfo_eps"), std::string::npos) << same.output;  // underflow's series were compared

  testing::add_to_value(b / "underflow.h5", "cpu/finfo_eps", 2, 0.01);
  const Result moved = trainproof("compare " + a.string() + " " + b.string());
  EXPECT_EQ(moved.code, 1) << moved.output;

  fs::copy_file(b / "underflow.h5", b / "extra.h5");
  fs::remove(b / "underflow.h5");
  const Result missing = trainproof("compare " + a.string() + " " + b.string());
  EXPECT_EQ(missing.code, 1) << missing.output;
  EXPECT_NE(missing.output.find("MISSING"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("NEW"), std::string::npos) << missing.output;

  const Result mixed = trainproof("compare " + a.string() + " " + (b / "precision_table.h5").string());
  EXPECT_EQ(mixed.code, 2) << mixed.output;
  EXPECT_NE(mixed.output.find("is a folder and"), std::string::npos) << mixed.output;
}

}  // namespace
}  // namespace trainproof
