// The rank-task registry and the launcher (rank_task.h).
#include "trainproof/distributed/rank_task.h"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/process/process.h"
#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"

namespace trainproof {

namespace fs = std::filesystem;

namespace {

std::map<std::string, RankTaskFn>& registry() {
  static std::map<std::string, RankTaskFn> tasks;
  return tasks;
}

std::string prefixed(const fs::path& log, int rank) {
  std::ifstream in(log);
  std::string line, out;
  while (std::getline(in, line)) out += fmt::format("[rank {}] {}\n", rank, line);
  return out;
}

}  // namespace

bool register_rank_task(const std::string& name, RankTaskFn fn) {
  return registry().emplace(name, std::move(fn)).second;
}

std::vector<std::string> rank_task_names() {
  std::vector<std::string> names;
  for (const auto& [name, fn] : registry()) names.push_back(name);
  return names;
}

const RankTaskFn& rank_task(const std::string& name) {
  const auto it = registry().find(name);
  if (it == registry().end())
    throw BadInput(fmt::format("unknown rank task '{}' (registered: {})", name, fmt::join(rank_task_names(), ", ")));
  return it->second;
}

std::chrono::seconds rank_timeout() {
  const char* env = std::getenv("TRAINPROOF_RANK_TIMEOUT_S");
  return std::chrono::seconds(env && std::atoi(env) > 0 ? std::atoi(env) : 120);
}

std::vector<RankRun> launch_task(int world, const std::string& task, const nlohmann::json& options, const fs::path& dir,
                                 const fs::path& out, const LaunchOptions& lo) {
  const std::chrono::seconds timeout = rank_timeout();
  fs::create_directories(dir);
  fs::create_directories(out);
  const fs::path store = dir / "store", options_file = dir / "options.json";
  fs::remove(store);
  for (int rank = 0; rank < world; ++rank) fs::remove(dir / fmt::format("rank{}.reached", rank));
  atomic_write_bytes(options_file, options.dump(2) + "\n");
  std::vector<pid_t> pids;
  for (int rank = 0; rank < world; ++rank) {
    const fs::path log = dir / fmt::format("rank{}.log", rank);
    pids.push_back(spawn_cli(ddp_worker_entry({rank, world, store, task, options_file, out, lo.backend}), {log, log}));
  }
  std::vector<RankRun> runs(world);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<WaitedChild> children;
  for (const pid_t pid : pids) children.push_back({pid, deadline});
  std::vector<std::string> hung;
  std::optional<int> down;  // the first rank that failed: the others would wait for it forever
  const bool all_ended = wait_all_within(
      children,
      [&](size_t r, std::optional<int> code) {
        runs[r] = {static_cast<int>(r), code.value_or(128 + SIGKILL),
                   prefixed(dir / fmt::format("rank{}.log", r), static_cast<int>(r))};
        if (!code) {
          hung.push_back(std::to_string(r));
          return true;
        }
        if (*code != 0) down = static_cast<int>(r);
        return *code == 0;
      },
      lo.preempt_when);
  if (down)
    throw BadInput(fmt::format("rank {} of {} {} (exit {}); the other ranks were stopped. Its output:\n{}", *down,
                               world, ended_by_signal(runs[*down].exit_code) ? "was killed" : "failed",
                               runs[*down].exit_code, runs[*down].output));
  if (!hung.empty()) {
    // Ranks that never reached the process group hung before it; the rest waited for them there.
    std::vector<std::string> stuck;
    for (const auto& r : hung)
      if (std::error_code ec; !fs::exists(dir / fmt::format("rank{}.reached", r), ec)) stuck.push_back(r);
    throw BadInput(fmt::format("rank(s) {} of {} did not finish within {} s and were killed{}", fmt::join(hung, ", "),
                               world, timeout.count(),
                               stuck.empty() || stuck.size() == hung.size()
                                   ? std::string()
                                   : fmt::format(": rank(s) {} hung before reaching the process group, the others "
                                                 "waited for them",
                                                 fmt::join(stuck, ", "))));
  }
  if (!all_ended)  // the preemption: every rank at once
    for (int r = 0; r < world; ++r) runs[r] = {r, 128 + SIGKILL, prefixed(dir / fmt::format("rank{}.log", r), r)};
  return runs;
}

}  // namespace trainproof
