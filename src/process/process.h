// Child processes of the CLI (preemption trials, data-parallel ranks): started as this
// CLI with their output in log files, polled, waited for and killed. One place for starting a process (posix_spawn).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace trainproof {

// The executable children run: $TRAINPROOF_BIN, else the one registered here. The CLI
// registers itself; any other program (a test binary) must name the CLI in TRAINPROOF_BIN,
// or cli_executable() throws BadInput: re-executing a program that is not the CLI would
// start that program over, in every child.
void set_cli_executable(const std::string& path);
std::string cli_executable();

struct ChildLogs {
  std::filesystem::path out, err;  // the same file for both is allowed
  bool append = false;
};

// Starts `program args...` with stdout and stderr in `logs` and `env` added to its environment
// (an empty value removes that variable), in a process group of its own. Started with
// posix_spawn: no fork handler of a loaded library runs, and the child only redirects and calls
// execve. It inherits no descriptor above 2, no blocked signal and no ignored one. Returns its pid. A program that
// cannot run (absent, not executable, a missing interpreter) is BadInput naming it and why; any other failure to start
// (no processes or memory left) is a std::system_error.
pid_t spawn_program(const std::string& program, const std::vector<std::string>& args, const ChildLogs& logs,
                    const std::vector<std::pair<std::string, std::string>>& env = {});
// The same for this CLI: `<cli_executable()> args...`.
pid_t spawn_cli(const std::vector<std::string>& args, const ChildLogs& logs,
                const std::vector<std::pair<std::string, std::string>>& env = {});

// The entry points of this program that the layers below the CLI start it in, each one's argv
// built here and only here; the CLI's subcommand of that name (src/cli/record.cpp,
// src/cli/ddp_worker.cpp) parses it. A lower layer never spells a subcommand.
inline constexpr const char* kRecordEntry = "record";
inline constexpr const char* kDdpWorkerEntry = "ddp-worker";
// `record SCENARIOS... --device DEVICE --out OUT`: the scenarios run, their traces as JSON in OUT.
std::vector<std::string> record_entry(const std::vector<std::string>& scenarios, const std::string& device,
                                      const std::filesystem::path& out);
// `ddp-worker --rank R --world W --store STORE --task TASK --options @OPTIONS --out OUT
// --backend BACKEND`: one rank of a data-parallel task.
struct RankEntry {
  int rank = 0, world = 1;
  std::filesystem::path store;
  std::string task;
  std::filesystem::path options, out;
  std::string backend;
};
std::vector<std::string> ddp_worker_entry(const RankEntry& e);

// The exit code of a child: its status, or 128 + the signal that ended it. A wait that fails
// (not this process's child, or reaped already) is a std::system_error, never an exit code.
int wait_exit(pid_t pid);
std::optional<int> poll_exit(pid_t pid);  // empty while it runs
bool ended_by_signal(int exit_code);

// Waits for the child's exit, polling; once `seconds` have passed (or `stop()` says so) it is
// SIGKILLed with its process group and reaped. Returns its exit code, or nothing when it was
// killed. One place for the wait-with-a-deadline loop every launcher needs.
std::optional<int> wait_exit_within(pid_t pid, double seconds, const std::function<bool()>& stop = {});

// Waits for several children, polling every `poll`: the one wait loop of every launcher that
// starts more than one (a rank per process, a path per process). `on_exit(i, code)` is called
// as child i ends: its exit code, or nothing when it outlived its deadline and was killed with
// its tree and reaped. It may append children (a pool that starts the next as one ends), and
// returns false to stop the wait. A stop (that, or `stop()` turning true: a preemption) kills
// and reaps every child still running, without a call for it. True when every child ended
// with no stop.
struct WaitedChild {
  pid_t pid = -1;
  std::chrono::steady_clock::time_point deadline;
};
bool wait_all_within(std::vector<WaitedChild>& children, const std::function<bool(size_t, std::optional<int>)>& on_exit,
                     const std::function<bool()>& stop = {},
                     std::chrono::milliseconds poll = std::chrono::milliseconds(5));

// Every child runs in a process group of its own, led by it.
// SIGKILLs the child, the rest of its process group (DataLoader workers) and every process
// below it in other sessions (torchrun's ranks), and reaps the child.
void kill_and_reap(pid_t pid);
// SIGKILLs what is left of a reaped child's process group: nothing it started outlives it.
void kill_group(pid_t pid);
// A process as listed: its pid and its start time (clock ticks after boot), which tells it from a
// later process given the same pid.
struct ListedProcess {
  pid_t pid = 0;
  unsigned long long start = 0;
  bool operator==(const ListedProcess&) const = default;
};
// pid and every process below it now, in its group or in sessions of their own (torchrun's
// ranks). Listing takes milliseconds: list before the moment that matters.
std::vector<ListedProcess> process_tree(pid_t root);
// SIGSTOPs the child, its process group and `below` (its tree, listed beforehand) at once: what
// it is doing now (a write) is where a kill_and_reap() after it lands, however long the caller
// looks before sending it. A listed process that has ended since is skipped, and so is its pid
// if another process has it now (its start time differs). A process in a session of its own
// that `below` misses goes on until kill_and_reap() lists the tree again.
void stop_group(pid_t pid, const std::vector<ListedProcess>& below = {});

// A crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) prints "trainproof: fatal signal N" and
// the stack's return addresses to stderr, then ends the process by that signal as before: a
// crash on a machine lent for minutes leaves its evidence in the log. The CLI installs it first.
void install_crash_report();

}  // namespace trainproof
