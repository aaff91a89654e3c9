// Test support: run the trainproof CLI under test (TRAINPROOF_BIN, set by ctest) and read
// its exit code and output.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace trainproof::testing {

struct CliResult {
  int code;
  std::string output;  // stdout and stderr together
};

// `env` is prepended to the command line as NAME=value words (values without spaces).
inline CliResult run_cli(const std::string& args, const std::string& env = "") {
  const char* bin = std::getenv("TRAINPROOF_BIN");
  if (!bin) throw std::runtime_error("TRAINPROOF_BIN is not set (run through ctest)");
  const std::string cmd = (env.empty() ? "" : "env " + env + " ") + "'" + bin + "' " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot start: " + cmd);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}

}  // namespace trainproof::testing
