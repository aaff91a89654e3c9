// Child processes of the CLI (see process.h).
#include "src/process/process.h"

#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <thread>

#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"

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

// posix_spawn's file actions and attributes, destroyed however the spawn ends; every call
// that prepares them checked (an error is this machine's trouble: no memory left).
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  bool has_actions = false, has_attr = false;
  int logs[2] = {-1, -1};  // the child's log descriptors, closed here once it has its own
  SpawnSetup() = default;
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup() {
    if (has_actions) posix_spawn_file_actions_destroy(&actions);
    if (has_attr) posix_spawnattr_destroy(&attr);
    for (const int fd : logs)
      if (fd >= 0) ::close(fd);
  }
  static void check(int rc, const char* what) {
    if (rc != 0) throw std::system_error(rc, std::generic_category(), std::string("posix_spawn: ") + what);
  }
};

// waitpid, again when a signal interrupts it. Any other failure (ECHILD: not our child, or
// reaped already) throws: a wait that failed must never read as an exit with code 0.
pid_t wait_for(pid_t pid, int* status, int options) {
  pid_t r;
  do {
    r = waitpid(pid, status, options);
  } while (r < 0 && errno == EINTR);
  if (r < 0) throw std::system_error(errno, std::generic_category(), "waitpid(" + std::to_string(pid) + ")");
  return r;
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
  // posix_spawn, not fork(): glibc starts the child with clone(CLONE_VFORK) and runs no
  // pthread_atfork handler, which the libraries a CUDA build loads (NCCL, NVSHMEM, cuFile)
  // register; the child sets its own process group (a kill reaches its children too: workers,
  // launchers), redirects, and calls execve. It inherits nothing else of this process: no
  // descriptor above 2 (a library's socket or pipe, open without O_CLOEXEC, would keep its
  // peer waiting), no blocked signal, no ignored one (a SIGTERM we ignore must still end it).
  SpawnSetup setup;
  setup.logs[0] = out;
  if (err != out) setup.logs[1] = err;
  setup.check(posix_spawn_file_actions_init(&setup.actions), "file actions");
  setup.has_actions = true;
  setup.check(posix_spawnattr_init(&setup.attr), "attributes");
  setup.has_attr = true;
  setup.check(posix_spawn_file_actions_adddup2(&setup.actions, out, 1), "stdout");
  setup.check(posix_spawn_file_actions_adddup2(&setup.actions, err, 2), "stderr");
  short spawn_flags = POSIX_SPAWN_SETPGROUP;
  if (!fault_injected("spawn-inherits-parent-state")) {
    setup.check(posix_spawn_file_actions_addclosefrom_np(&setup.actions, 3), "closing descriptors above 2");
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    setup.check(posix_spawnattr_setsigmask(&setup.attr, &none), "signal mask");
    setup.check(posix_spawnattr_setsigdefault(&setup.attr, &all), "signal dispositions");
    spawn_flags |= POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
  }
  setup.check(posix_spawnattr_setflags(&setup.attr, spawn_flags), "flags");
  setup.check(posix_spawnattr_setpgroup(&setup.attr, 0), "process group");
  pid_t pid = -1;
  const int failed = posix_spawn(&pid, argv[0], &setup.actions, &setup.attr, argv.data(), envp.data());
  if (!failed) return pid;
  // The program itself cannot run (absent, not executable, a missing interpreter): bad input.
  // Anything else (no processes or memory left) is this machine's trouble, not the input's.
  const std::string why = program + ": cannot be started: " + std::strerror(failed);
  if (failed == ENOENT || failed == EACCES || failed == ENOEXEC || failed == ENOTDIR || failed == ELOOP)
    throw BadInput(why);
  throw std::system_error(failed, std::generic_category(), why);
}

int wait_exit(pid_t pid) {
  int status = 0;
  wait_for(pid, &status, 0);
  return exit_code_of(status);
}

std::optional<int> poll_exit(pid_t pid) {
  int status = 0;
  if (wait_for(pid, &status, WNOHANG) != pid) return std::nullopt;
  return exit_code_of(status);
}

bool ended_by_signal(int exit_code) {
  return exit_code > 128;
}

namespace {

// The parent and the start time of process `pid`, from /proc/<pid>/stat (its 4th and 22nd
// fields, after the parenthesised name, which may itself hold spaces and parentheses); empty
// once it is gone.
std::optional<std::pair<pid_t, unsigned long long>> parent_and_start(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/stat");
  std::string stat;
  std::getline(in, stat);
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;  // gone between the listing and the read
  std::istringstream rest(stat.substr(close + 1));
  std::string field;
  long ppid = 0;
  if (!(rest >> field >> ppid)) return std::nullopt;
  for (int i = 5; i < 22; ++i) rest >> field;  // fields 5 to 21
  unsigned long long start = 0;
  if (!(rest >> start)) return std::nullopt;
  return std::make_pair(static_cast<pid_t>(ppid), start);
}

}  // namespace

// pid and every process below it, by the parent links in /proc.
std::vector<ListedProcess> process_tree(pid_t root) {
  std::vector<std::pair<ListedProcess, pid_t>> all;  // (process, its parent)
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (const auto ps = parent_and_start(name))
      all.push_back({{static_cast<pid_t>(std::stol(name)), ps->second}, ps->first});
  }
  const auto listed_root = std::find_if(all.begin(), all.end(), [&](const auto& e) { return e.first.pid == root; });
  std::vector<ListedProcess> tree{listed_root == all.end() ? ListedProcess{root, 0} : listed_root->first};
  if (fault_injected("kill-misses-other-sessions")) return tree;
  for (size_t i = 0; i < tree.size(); ++i)
    for (const auto& [p, ppid] : all)
      if (ppid == tree[i].pid && std::find(tree.begin(), tree.end(), p) == tree.end()) tree.push_back(p);
  return tree;
}

void kill_and_reap(pid_t pid) {
  // Its process group, and every process below it: torchrun starts its ranks in sessions of
  // their own (start_new_session), which a group kill misses; they would train on into the
  // run folder of the restart. Stopped first, the tree cannot grow between listing and kill.
  // The group stops at once, as a kill would: check times its first kill to land during a
  // write, and the listing below takes milliseconds, long enough for the write to end.
  stop_group(pid);
  std::vector<ListedProcess> tree;
  for (int round = 0; round < 5; ++round) {
    std::vector<ListedProcess> now = process_tree(pid);
    for (const ListedProcess& p : now) kill(p.pid, SIGSTOP);
    const bool settled = now.size() == tree.size();
    tree = std::move(now);
    if (settled) break;
  }
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  for (const ListedProcess& p : tree) kill(p.pid, SIGKILL);
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

std::optional<int> wait_exit_within(pid_t pid, double seconds, const std::function<bool()>& stop) {
  const auto limit = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(std::min(seconds, 1e9)));
  std::vector<WaitedChild> child{{pid, std::chrono::steady_clock::now() + limit}};
  std::optional<int> out;
  wait_all_within(
      child,
      [&](size_t, std::optional<int> code) {
        out = code;
        return true;
      },
      stop, std::chrono::milliseconds(1));
  return out;
}

bool wait_all_within(std::vector<WaitedChild>& children, const std::function<bool(size_t, std::optional<int>)>& on_exit,
                     const std::function<bool()>& stop, std::chrono::milliseconds poll) {
  std::vector<bool> ended(children.size(), false);
  const auto stop_all = [&] {
    for (size_t i = 0; i < children.size(); ++i)
      if (!ended[i]) {
        kill_and_reap(children[i].pid);
        ended[i] = true;
      }
    return false;
  };
  while (true) {
    if (stop && stop()) return stop_all();
    bool any_running = false;
    for (size_t i = 0; i < children.size(); ++i) {  // children.size(): on_exit may append
      ended.resize(children.size(), false);
      if (ended[i]) continue;
      std::optional<int> code = poll_exit(children[i].pid);
      if (!code && std::chrono::steady_clock::now() < children[i].deadline) {
        any_running = true;
        continue;
      }
      if (!code) {
        kill_and_reap(children[i].pid);
      } else {
        kill_group(children[i].pid);  // what it started and left behind
      }
      ended[i] = true;
      const bool go_on = on_exit(i, code);
      ended.resize(children.size(), false);
      if (!go_on) return stop_all();
      any_running = any_running || std::find(ended.begin(), ended.end(), false) != ended.end();
    }
    if (!any_running) return true;
    std::this_thread::sleep_for(poll);
  }
}

void kill_group(pid_t pid) {
  kill(-pid, SIGKILL);
}

void stop_group(pid_t pid, const std::vector<ListedProcess>& below) {
  kill(-pid, SIGSTOP);
  kill(pid, SIGSTOP);
  for (const ListedProcess& p : below) {
    const auto now = parent_and_start(std::to_string(p.pid));  // a few reads of one small file each
    if (p.pid != pid && now && now->second == p.start) kill(p.pid, SIGSTOP);
  }
}

std::vector<std::string> record_entry(const std::vector<std::string>& scenarios, const std::string& device,
                                      const std::filesystem::path& out) {
  std::vector<std::string> args = {kRecordEntry};
  args.insert(args.end(), scenarios.begin(), scenarios.end());
  args.insert(args.end(), {"--device", device, "--out", out.string()});
  return args;
}

std::vector<std::string> ddp_worker_entry(const RankEntry& e) {
  // clang-format off
  return {kDdpWorkerEntry,
          "--rank", std::to_string(e.rank), "--world", std::to_string(e.world), "--store", e.store.string(),
          "--task", e.task, "--options", "@" + e.options.string(), "--out", e.out.string(),
          "--backend", e.backend};
  // clang-format on
}

namespace {

void on_fatal_signal(int sig) {
  // Async-signal-safe only: write(2) and backtrace_symbols_fd (backtrace was warmed up when the
  // handler was installed, so it allocates nothing here).
  constexpr const char head[] = "\ntrainproof: fatal signal ";
  [[maybe_unused]] auto w = ::write(2, head, sizeof(head) - 1);
  char num[4] = {static_cast<char>('0' + sig / 10 % 10), static_cast<char>('0' + sig % 10), '\n', 0};
  w = ::write(2, num, 3);
  constexpr const char bt[] = "backtrace (addr2line -e THE_EXECUTABLE -f -C ADDRESS names a frame):\n";
  w = ::write(2, bt, sizeof(bt) - 1);
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
  signal(sig, SIG_DFL);  // then die of it, as without the handler: the exit status says which
  raise(sig);
}

}  // namespace

void install_crash_report() {
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc's unwinder now, not inside the handler
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  for (const int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(sig, &sa, nullptr);
  if (fault_injected("crash-at-start")) raise(SIGSEGV);
}

}  // namespace trainproof
