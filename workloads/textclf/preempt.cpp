// Child processes, SIGKILL, and the bitwise comparison behind `trainproof preempt`.
#include "workloads/textclf/preempt.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "src/process/process.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/temp_dir.h"
#include "workloads/textclf/textclf.h"

namespace trainproof {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Child {
  pid_t pid = -1;
  fs::path out, err;
};

// Starts `trainproof train textclf ...` with stdout/stderr appended to files in `dir`.
Child start(const PreemptOptions& o, const fs::path& dir, const std::string& sabotage) {
  std::vector<std::string> args = {"train",        "textclf",
                                   "--ckpt-dir",   (dir / "ckpt").string(),
                                   "--steps",      std::to_string(o.steps),
                                   "--ckpt-every", std::to_string(o.ckpt_every),
                                   "--amp",        "fp16",
                                   "--sabotage",   sabotage};
  if (!o.corpus.empty()) args.insert(args.end(), {"--corpus", o.corpus});
  Child c{-1, dir / "stdout.log", dir / "stderr.log"};
  // A slower checkpoint write widens the window in which a kill lands mid-write.
  c.pid = spawn_cli(args, {c.out, c.err, /*append=*/true}, {{"TRAINPROOF_CKPT_WRITE_DELAY_MS", "60"}});
  return c;
}

size_t count_lines(const fs::path& p, const std::string& needle) {
  std::ifstream in(p);
  std::string line;
  size_t n = 0;
  while (std::getline(in, line)) n += line.find(needle) != std::string::npos;
  return n;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the child to completion (no kill); returns its exit code.
int run_to_end(const PreemptOptions& o, const fs::path& dir, const std::string& sabotage) {
  return wait_exit(start(o, dir, sabotage).pid);
}

}  // namespace

int run_preempt(const PreemptOptions& o) {
  if (o.trials <= 0) throw BadInput(fmt::format("--trials must be positive, got {}", o.trials));
  TempDir root("preempt");
  fmt::print("preempt: uninterrupted reference run ({} steps, checkpoint every {})\n", o.steps, o.ckpt_every);
  std::fflush(stdout);
  const fs::path ref = root.path() / "reference";
  fs::create_directories(ref);
  const auto t0 = Clock::now();
  if (const int rc = run_to_end(o, ref, "none"); rc != 0)
    throw BadInput(
        fmt::format("the reference training run failed with exit {}: {}", rc, read_file(ref / "stderr.log")));
  const double ref_s = std::chrono::duration<double>(Clock::now() - t0).count();
  const std::string ref_final = read_file(ref / "ckpt" / "final.tpck"),
                    ref_best = read_file(ref / "ckpt" / "best.tpck");

  std::mt19937_64 rng(o.seed);
  int identical = 0;
  for (int trial = 1; trial <= o.trials; ++trial) {
    const fs::path dir = root.path() / fmt::format("trial{}", trial);
    fs::create_directories(dir);
    const int kills = std::uniform_int_distribution<int>(1, 3)(rng);
    int during_write = 0, killed = 0, done = 0;
    std::vector<std::string> how;
    for (int k = 0; k < kills; ++k) {
      Child c = start(o, dir, o.sabotage);
      const bool mid_write = k % 2 == 0;  // alternate: during a checkpoint write, at a random moment
      const size_t saves_before = count_lines(c.out, "saving checkpoint");
      // Not the very first checkpoint: a kill there resumes from scratch and tests nothing.
      const size_t target = saves_before + std::uniform_int_distribution<size_t>(2, 4)(rng);
      const auto deadline =
          Clock::now() + std::chrono::duration<double>(std::uniform_real_distribution<double>(0.05, 0.6)(rng) * ref_s);
      const auto rc = wait_exit_within(c.pid, 1e9, [&] {
        if (!(mid_write ? count_lines(c.out, "saving checkpoint") >= target : Clock::now() >= deadline)) return false;
        if (mid_write) std::this_thread::sleep_for(std::chrono::milliseconds(30));  // inside the 60 ms write
        return true;
      });
      const bool finished = rc.has_value();
      const int code = rc.value_or(0);
      if (finished) {
        done = 1;
        how.push_back(fmt::format("finished before kill {} (exit {})", k + 1, code));
        break;
      }
      during_write += mid_write;
      ++killed;
      how.emplace_back(mid_write ? std::string_view("killed while writing a checkpoint")
                                 : std::string_view("killed at a random moment"));
    }
    if (!done) run_to_end(o, dir, o.sabotage);
    const size_t damaged = count_lines(dir / "stderr.log", "damaged checkpoint");
    const bool same_final = read_file(dir / "ckpt" / "final.tpck") == ref_final;
    const bool same_best = read_file(dir / "ckpt" / "best.tpck") == ref_best;
    const bool ok = same_final && same_best && damaged == 0;
    const std::string cause = ok ? std::string() : resume_difference(ref / "ckpt", dir / "ckpt");
    identical += ok;
    fmt::print("trial {:2d}: {} kill(s), {} during a checkpoint write; {}: {}\n", trial, killed, during_write,
               ok ? "bitwise identical" : "DIFFERENT",
               ok ? fmt::format("{}", fmt::join(how, ", "))
                  : fmt::format("final {} , best {}, damaged checkpoints seen {}{}", same_final ? "same" : "differs",
                                same_best ? "same" : "differs", damaged, cause.empty() ? "" : "; " + cause));
    std::fflush(stdout);
  }
  fmt::print("preempt: {}/{} bitwise identical{}\n", identical, o.trials,
             o.sabotage == "none" ? "" : fmt::format(" (sabotage: {})", o.sabotage));
  return identical == o.trials ? kExitOk : kExitMismatch;
}

}  // namespace trainproof
