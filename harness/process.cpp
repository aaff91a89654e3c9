// Child processes of the CLI (see process.h).
#include "harness/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>

#include "harness/errors.h"

namespace trainproof {
namespace {

std::string& registered() {
  static std::string path;
  return path;
}

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

}  // namespace

void set_cli_executable(const std::string& path) { registered() = path; }

std::string cli_executable() {
  const char* env = std::getenv("TRAINPROOF_BIN");
  if (env && *env) return env;
  if (registered().empty())
    throw BadInput("this program is not the trainproof CLI: set TRAINPROOF_BIN to the trainproof executable");
  return registered();
}

pid_t spawn_cli(const std::vector<std::string>& args, const ChildLogs& logs,
                const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> a = {cli_executable()};
  a.insert(a.end(), args.begin(), args.end());
  const int flags = O_WRONLY | O_CREAT | (logs.append ? O_APPEND : O_TRUNC);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int out = ::open(logs.out.c_str(), flags, 0644);
    const int err = logs.err == logs.out ? out : ::open(logs.err.c_str(), flags, 0644);
    if (out < 0 || err < 0) _exit(126);
    dup2(out, 1);
    dup2(err, 2);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> argv;
    for (auto& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return exit_code_of(status);
}

std::optional<int> poll_exit(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) != pid) return std::nullopt;
  return exit_code_of(status);
}

bool ended_by_signal(int exit_code) { return exit_code > 128; }

void kill_and_reap(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

}  // namespace trainproof
