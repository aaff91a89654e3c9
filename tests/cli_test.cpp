// The trainproof CLI end to end: exit codes (0 pass, 1 mismatch, 2 bad input) and the
// messages that name the file, the series and the first divergent index.
#include <hdf5.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "harness/temp_dir.h"

namespace trainproof {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string output;  // stdout and stderr together
};

Result trainproof(const std::string& args) {
  const char* bin = std::getenv("TRAINPROOF_BIN");
  if (!bin) throw std::runtime_error("TRAINPROOF_BIN is not set (run through ctest)");
  const std::string cmd = std::string(bin) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
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

TEST_F(CliTest, VerifyPassesOnTheCommittedGoldens) {
  const Result r = trainproof("verify underflow precision_table --device cpu" + g());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("0 not passing"), std::string::npos) << r.output;
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

  r = trainproof("regen underflow --device cpu --golden " + fresh.string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(fs::exists(fresh / "underflow.h5"));
  r = trainproof("regen underflow --device cpu --golden " + fresh.string());
  EXPECT_NE(r.output.find("unchanged"), std::string::npos) << r.output;
  EXPECT_EQ(trainproof("verify underflow --device cpu --golden " + fresh.string()).code, 0);
}

TEST_F(CliTest, RunPrintsTheDocumentLines) {
  const Result r = trainproof("run underflow");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("tensor(0., dtype=torch.float16)\ntensor(1.0012e-08, dtype=torch.bfloat16)\n"
                          "tensor(0.0007, dtype=torch.float16)\n"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace trainproof
