// Child processes (src/process/process.h): a child inherits nothing of its parent but its
// environment and its logs, and a wait that fails never reads as a clean exit.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include <gtest/gtest.h>

#include "src/process/process.h"
#include "trainproof/core/temp_dir.h"

namespace trainproof {
namespace {

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// What a child sees of its parent's state: whether descriptor `fd` is open in it (test(1) opens
// none of its own), and whether SIGUSR1 is blocked and SIGUSR2 ignored (awk reads its own
// /proc masks; a shell would not do, it clears its mask as it starts).
std::string child_state(const TempDir& dir, int fd) {
  const auto log = dir.path() / "child.log";
  const pid_t test = spawn_program("/usr/bin/test", {"-e", "/proc/self/fd/" + std::to_string(fd)}, {log, log});
  const int open = wait_exit(test);
  const pid_t awk =
      spawn_program("/usr/bin/awk",
                    {"/^SigBlk/ { print \"blk:\" substr($2, 14, 1) } /^SigIgn/ { print \"ign:\" substr($2, 14, 1) }",
                     "/proc/self/status"},
                    {log, log});
  EXPECT_EQ(wait_exit(awk), 0) << read_all(log);
  return (open == 0 ? "fd:open\n" : "fd:closed\n") + read_all(log);
}

// The parent holds a descriptor open without O_CLOEXEC, blocks SIGUSR1 and ignores SIGUSR2;
// the child has none of it. The negative control (TRAINPROOF_INJECT_FAULT=
// spawn-inherits-parent-state) shows each would reach the child unless reset.
TEST(ProcessTest, AChildInheritsNoDescriptorNorSignalStateOfItsParent) {
  TempDir dir("proc");
  const int fd = ::open((dir.path() / "held").c_str(), O_WRONLY | O_CREAT, 0644);
  ASSERT_GE(fd, 3);
  sigset_t usr1, before;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  ASSERT_EQ(pthread_sigmask(SIG_BLOCK, &usr1, &before), 0);
  const auto old_usr2 = signal(SIGUSR2, SIG_IGN);

  const std::string clean = child_state(dir, fd);
  setenv("TRAINPROOF_INJECT_FAULT", "spawn-inherits-parent-state", 1);
  const std::string leaky = child_state(dir, fd);
  unsetenv("TRAINPROOF_INJECT_FAULT");

  signal(SIGUSR2, old_usr2);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  ::close(fd);
  // SIGUSR1 is signal 10 (bit 9: hex digit 14 of 16 holds bits 8-11, value 2), SIGUSR2 bit 11 (8).
  EXPECT_EQ(clean, "fd:closed\nblk:0\nign:0\n");
  EXPECT_EQ(leaky, "fd:open\nblk:2\nign:8\n");
}

// A wait that fails (the child reaped already: ECHILD) throws; it must not read as exit 0.
TEST(ProcessTest, AFailedWaitIsAnErrorNotACleanExit) {
  TempDir dir("proc");
  const auto log = dir.path() / "true.log";
  const pid_t pid = spawn_program("/bin/sh", {"-c", "exit 3"}, {log, log});
  EXPECT_EQ(wait_exit(pid), 3);
  EXPECT_THROW(wait_exit(pid), std::system_error);
  EXPECT_THROW(poll_exit(pid), std::system_error);
}

// The state letter of process `pid` (R, S, T, Z...), or 0 once it is gone.
char state_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(in, stat);
  const size_t close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() ? 0 : stat[close + 2];
}

// Whether `pid` is stopped within `ms` milliseconds (a signal lands when the process next runs).
bool stopped_within(pid_t pid, int ms) {
  for (int waited = 0; state_of(pid) != 'T'; waited += 5) {
    if (waited >= ms) return false;
    usleep(5000);
  }
  return true;
}

// torchrun starts its ranks in sessions of their own. A stop of the child's group misses them
// (the control, first), and so does a listing whose start times are not theirs (their pids reused);
// a stop handed the tree listed beforehand reaches them at once, so that a
// kill timed to land during a rank's write lands there. The kill then ends them too.
TEST(ProcessTest, AStopReachesAListedProcessInASessionOfItsOwn) {
  TempDir dir("proc");
  const auto log = dir.path() / "tree.log";
  const auto file = dir.path() / "rank.pid";
  const pid_t pid = spawn_program(
      "/bin/sh", {"-c", "setsid sh -c 'echo $$ > \"" + file.string() + "\"; exec sleep 60' & wait"}, {log, log});
  pid_t rank = 0;
  for (int i = 0; i < 1000 && rank == 0; ++i) {
    std::istringstream(read_all(file)) >> rank;
    if (rank == 0) usleep(10000);
  }
  ASSERT_GT(rank, 0) << read_all(log);
  ASSERT_NE(getsid(rank), getsid(pid));
  const auto tree = process_tree(pid);
  ASSERT_TRUE(std::any_of(tree.begin(), tree.end(), [&](const ListedProcess& p) { return p.pid == rank; }));

  stop_group(pid);
  EXPECT_FALSE(stopped_within(rank, 300)) << "a stop of the group alone reached another session";
  // A listed pid that another process has now (its start time differs) is not stopped.
  std::vector<ListedProcess> reused = tree;
  for (auto& p : reused) p.start += 1;
  stop_group(pid, reused);
  EXPECT_FALSE(stopped_within(rank, 300)) << "a stop reached a process the listing did not name";
  stop_group(pid, tree);
  EXPECT_TRUE(stopped_within(rank, 5000));
  kill_and_reap(pid);
  char left = 'T';
  for (int i = 0; i < 500 && left != 0 && left != 'Z'; ++i) {
    usleep(10000);
    left = state_of(rank);
  }
  EXPECT_TRUE(left == 0 || left == 'Z') << "the rank outlived the kill: " << left;
}

}  // namespace
}  // namespace trainproof
