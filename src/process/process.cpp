// Child processes of the CLI (see process.h).
#include "src/process/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "trainproof/core/errors.h"

extern char** environ;

namespace trainproof {
namespace {

std::string& registered() {
  static std::string path;
  return path;
}

int exit_code_of(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

void set_cli_executable(const std::string& path) {
  registered() = path;
}

std::string cli_executable() {
  const char* env = std::getenv("TRAINPROOF_BIN");
  if (env && *env) return env;
  if (registered().empty())
    throw BadInput("this program is not the trainproof CLI: set TRAINPROOF_BIN to the trainproof executable");
  return registered();
}

pid_t spawn_cli(const std::vector<std::string>& args, const ChildLogs& logs,
                const std::vector<std::pair<std::string, std::string>>& env) {
  return spawn_program(cli_executable(), args, logs, env);
}

pid_t spawn_program(const std::string& program, const std::vector<std::string>& args, const ChildLogs& logs,
                    const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> a = {program};
  a.insert(a.end(), args.begin(), args.end());
  // The child's environment: ours, less every variable `env` names, plus its non-empty values.
  std::vector<std::string> e;
  for (char** p = environ; *p; ++p) {
    const std::string_view kv(*p);
    const auto key = kv.substr(0, kv.find('='));
    if (std::none_of(env.begin(), env.end(), [&](const auto& o) { return o.first == key; })) e.emplace_back(kv);
  }
  for (const auto& [k, v] : env)
    if (!v.empty()) e.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (auto& s : a) argv.push_back(s.data());
  argv.push_back(nullptr);
  for (auto& s : e) envp.push_back(s.data());
  envp.push_back(nullptr);
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (logs.append ? O_APPEND : O_TRUNC);
  const int out = ::open(logs.out.c_str(), flags, 0644);
  const int err = logs.err == logs.out ? out : ::open(logs.err.c_str(), flags, 0644);
  if (out < 0 || err < 0) {
    if (out >= 0) ::close(out);
    throw std::runtime_error("cannot open the child's log " + (out < 0 ? logs.out : logs.err).string());
  }
  const pid_t pid = fork();
  if (pid == 0) {   // async-signal-safe calls only from here on
    setpgid(0, 0);  // its own process group: a kill reaches its children too (workers, launchers)
    dup2(out, 1);
    dup2(err, 2);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  ::close(out);
  if (err != out) ::close(err);
  if (pid < 0) throw std::runtime_error("fork failed");
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

bool ended_by_signal(int exit_code) {
  return exit_code > 128;
}

void kill_and_reap(pid_t pid) {
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

std::optional<int> wait_exit_within(pid_t pid, double seconds, const std::function<bool()>& stop) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    if (const auto code = poll_exit(pid)) {
      kill_group(pid);  // what it started and left behind
      return code;
    }
    if (std::chrono::steady_clock::now() > deadline || (stop && stop())) {
      kill_and_reap(pid);
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

void kill_group(pid_t pid) {
  kill(-pid, SIGKILL);
}

}  // namespace trainproof
