// `trainproof ddp-check`: the data-parallel laws on ranks that torchrun or srun started,
// rendezvousing through c10d's TCPStore at MASTER_ADDR:MASTER_PORT (distributed.h).
#define USE_C10D_GLOO 1
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "src/distributed/launch_store.h"
#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"
#include "trainproof/distributed/distributed.h"
#include "trainproof/distributed/rank_task.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/tensors.h"
#include "trainproof/verdict/golden_hold.h"

namespace trainproof {

namespace fs = std::filesystem;

std::optional<LaunchEnv> launch_env(const std::function<const char*(const char*)>& get) {
  auto text = [&](const char* name) -> std::optional<std::string> {
    const char* v = get(name);
    if (!v || !*v) return std::nullopt;
    return std::string(v);
  };
  auto number = [&](const char* name, std::optional<int> fallback, int lo, int hi) {
    const auto v = text(name);
    if (!v) {
      if (fallback) return *fallback;
      throw BadInput(fmt::format("{} is not set (the launcher sets it for every rank)", name));
    }
    size_t used = 0;
    int n = 0;
    try {
      n = std::stoi(*v, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != v->size() || n < lo || n > hi)
      throw BadInput(fmt::format("{}={}: not an integer in [{}, {}]", name, *v, lo, hi));
    return n;
  };
  LaunchEnv e;
  if (text("RANK") || text("WORLD_SIZE")) {
    e.launcher = "torchrun";
    e.world = number("WORLD_SIZE", std::nullopt, 1, 1 << 16);
    e.rank = number("RANK", std::nullopt, 0, e.world - 1);
    e.local_rank = number("LOCAL_RANK", 0, 0, e.world - 1);
  } else if (text("SLURM_PROCID")) {
    e.launcher = "slurm";
    e.world = number("SLURM_NTASKS", std::nullopt, 1, 1 << 16);
    e.rank = number("SLURM_PROCID", std::nullopt, 0, e.world - 1);
    e.local_rank = number("SLURM_LOCALID", 0, 0, e.world - 1);
  } else {
    return std::nullopt;
  }
  const auto addr = text("MASTER_ADDR");
  if (!addr) throw BadInput("MASTER_ADDR is not set (torchrun sets it; under srun the job script exports it)");
  e.master_addr = *addr;
  e.master_port = number("MASTER_PORT", std::nullopt, 1, 65535);
  e.agent_store = text("TORCHELASTIC_USE_AGENT_STORE").value_or("") == "True";
  e.restart_count = number("TORCHELASTIC_RESTART_COUNT", 0, 0, 1 << 20);
  e.max_restarts = number("TORCHELASTIC_MAX_RESTARTS", 0, 0, 1 << 20);
  return e;
}

// A restarted group never reads the last attempt's keys (verdicts): they are under its prefix.
c10::intrusive_ptr<c10d::Store> connect_store(const LaunchEnv& e, std::chrono::milliseconds timeout) {
  c10d::TCPStoreOptions opts;
  opts.port = static_cast<std::uint16_t>(e.master_port);
  opts.isServer = !e.agent_store && e.rank == 0;
  opts.numWorkers = static_cast<std::size_t>(e.world);
  opts.waitWorkers = false;  // a rank that never starts is named below, not waited for in here
  opts.timeout = timeout;
  c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<c10d::TCPStore>(e.master_addr, opts);
  if (e.agent_store)
    store = c10::make_intrusive<c10d::PrefixStore>(fmt::format("/worker/attempt_{}", e.restart_count), store);
  return c10::make_intrusive<c10d::PrefixStore>(fmt::format("trainproof/ddp-check/attempt_{}", e.restart_count), store);
}

c10::intrusive_ptr<c10d::Backend> make_gloo_group(const c10::intrusive_ptr<c10d::Store>& store, int rank, int world,
                                                  std::chrono::milliseconds timeout) {
  auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
  const char* local_world = std::getenv("LOCAL_WORLD_SIZE");
  const bool one_host = !local_world || std::atoi(local_world) == world;
  opts->devices.push_back(one_host ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                   : c10d::ProcessGroupGloo::createDefaultDevice());
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);
}

namespace {

using Clock = std::chrono::steady_clock;

std::string hostname() {
  char buf[256] = {};
  return gethostname(buf, sizeof buf - 1) == 0 ? buf : "?";
}

std::string get_text(c10d::Store& store, const std::string& key) {
  const auto bytes = store.get(key);
  return {bytes.begin(), bytes.end()};
}
void set_text(c10d::Store& store, const std::string& key, const std::string& value) {
  store.set(key, std::vector<uint8_t>(value.begin(), value.end()));
}

// What rank 0 waits for, said on stderr if its launcher stops it: torchrun stops every rank as soon
// as one dies, before the wait could time out, and the rank that waited knows which it waited for.
char g_awaited[512] = {};
extern "C" void say_what_was_awaited(int sig) {
  if (const size_t n = strnlen(g_awaited, sizeof g_awaited); n > 0) (void)!write(STDERR_FILENO, g_awaited, n);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Rank 0 waits for every rank's `key/<r>` until the deadline and names those still missing.
void await_ranks(c10d::Store& store, const std::string& key, int world, std::chrono::seconds timeout,
                 const std::string& what) {
  const auto deadline = Clock::now() + timeout;
  std::vector<std::string> missing, said;
  do {
    missing.clear();
    for (int r = 0; r < world; ++r)
      if (!store.check({fmt::format("{}/{}", key, r)})) missing.push_back(std::to_string(r));
    if (missing.empty()) {
      g_awaited[0] = '\0';
      return;
    }
    if (missing != said) {  // kept whole for the handler: rewritten only when the missing ranks change
      said = missing;
      const std::string line = fmt::format(
          "ddp-check: rank 0 was stopped by its launcher while waiting for rank(s) {} of {} to {}: they died or "
          "never started\n",
          fmt::join(missing, ", "), world, what);
      g_awaited[0] = '\0';
      std::snprintf(g_awaited + 1, sizeof g_awaited - 1, "%s", line.c_str() + 1);  // [0] last: never torn
      g_awaited[0] = line.empty() ? '\0' : line[0];
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (Clock::now() < deadline);
  g_awaited[0] = '\0';
  throw BadInput(fmt::format("rank(s) {} of {} did not {} within {} s (hung, or never started)",
                             fmt::join(missing, ", "), world, what, timeout.count()));
}

// A law on this rank, as every report holds a verdict (report.h).
ReportEntry law(std::string name, Status status, std::string detail = "") {
  return law_entry("ddp-check", "", std::move(name), status, std::move(detail));
}
// A row of another rank's verdict, as it crossed the store: its kind, name and status exactly
// (a row that cannot be read back is an ERROR row saying so, never a pass).
ReportEntry row_of(const nlohmann::json& c) {
  const auto status = status_from_text(c.value("verdict", ""));
  const auto kind = entry_kind_from_text(c.value("kind", "invariant"));
  ReportEntry row("ddp-check", "", kind.value_or(EntryKind::kRun), c.value("name", ""),
                  kind ? status.value_or(Status::kError) : Status::kError, c.value("tolerance", ""),
                  c.value("detail", ""));
  if (!kind)
    row.detail = fmt::format("unreadable kind '{}' from this rank: {}", c.value("kind", ""), row.detail);
  else if (!status)
    row.detail = fmt::format("unreadable verdict '{}' from this rank: {}", c.value("verdict", ""), row.detail);
  return row;
}

uint64_t bits(const torch::Tensor& t) {
  return static_cast<uint64_t>(bitwise_checksum({t}));
}

// Task "grad" on this rank (its body is ddp_equivalence's): the float64 and float32 gradients.
std::pair<torch::Tensor, torch::Tensor> allreduced(const RankContext& ctx, const char* rule, bool uneven, int64_t total,
                                                   uint64_t seed) {
  const Checkpoint r =
      run_rank_task("grad", ctx, GradTaskOptions{.rule = rule, .uneven = uneven, .total = total, .seed = seed});
  return {r.tensor("grad64"), r.tensor("grad32")};
}

// The data-parallel gradient laws on this job's ranks (the names are ddp_equivalence's).
std::vector<ReportEntry> gradient_laws(c10d::Backend& pg, c10d::Store& store, const LaunchEnv& e, uint64_t seed,
                                       Trace& observed) {
  constexpr int64_t kTotal = 64;
  const int n = e.world;
  std::vector<ReportEntry> checks;
  auto add = [&](std::string name, bool ok, std::string detail = "") {
    checks.push_back(law(std::move(name), law_held(ok), std::move(detail)));
  };
  const auto [full64, full32] = reference_gradients(torch::kCPU, kTotal, seed, 1, false, false);
  const auto [acc64, acc32] = reference_gradients(torch::kCPU, kTotal, seed, n, false, true);
  const RankContext ctx{e.rank, n, &pg, torch::kCPU, {}};
  const auto [dp64, dp32] = allreduced(ctx, "mean", false, kTotal, seed);
  add(fmt::format("world {} even: matches the full batch (float32 allclose, float64 to 1e-12)", n),
      torch::allclose(dp32, full32, 1e-5, 1e-6) && torch::allclose(dp64, full64, 1e-12, 1e-14),
      fmt::format("float64 max abs diff {:.2g}", (dp64 - full64).abs().max().item<double>()));
  add(fmt::format("world {} even: equals {}-step accumulation", n, n), torch::allclose(dp64, acc64, 1e-12, 1e-14));
  record(observed, "grad_full_batch_float64", full64);
  record(observed, fmt::format("grad_world{}_even_float64", n), dp64);
  // Every rank must hold the same all-reduced gradient, bit for bit: rank 0 compares.
  set_text(store, fmt::format("grad/{}", e.rank), fmt::format("{:x}:{:x}", bits(dp64), bits(dp32)));
  if (n > 1) {
    const auto [mean64, mean32] = allreduced(ctx, "mean", true, kTotal, seed);
    const auto [size64, size32] = allreduced(ctx, "size", true, kTotal, seed);
    add(fmt::format("world {} uneven: dividing by the world size does not match", n),
        !torch::allclose(mean64, full64, 1e-12, 1e-14));
    add(fmt::format("world {} uneven: weighting by shard size matches", n),
        torch::allclose(size64, full64, 1e-12, 1e-14));
    record(observed, fmt::format("grad_world{}_uneven_by_size_float64", n), size64);
  }
  if (e.rank == 0) {
    await_ranks(store, "grad", n, rank_timeout(), "publish its gradient");
    std::vector<std::string> differ;
    const std::string mine = get_text(store, "grad/0");
    for (int r = 1; r < n; ++r)
      if (get_text(store, fmt::format("grad/{}", r)) != mine) differ.push_back(std::to_string(r));
    add("every rank holds the same all-reduced gradient (bitwise)", differ.empty(),
        differ.empty() ? "" : fmt::format("rank(s) {} differ from rank 0", fmt::join(differ, ", ")));
  }
  return checks;
}

// The goldens' values for this world size (ddp_equivalence on the CPU), as every report holds
// a series against its golden, under the cross-environment tolerances; series the golden has
// for other world sizes are not asked.
std::vector<ReportEntry> golden_series(const fs::path& golden, const Trace& observed, int world) {
  const GoldenFile g = read_golden(golden);
  const auto cpu = g.devices.find("cpu");
  if (cpu == g.devices.end()) throw BadInput(fmt::format("{}: no /cpu group", golden.string()));
  Trace asked;  // the golden's series of this world size (rows: these, then a skipped row for each other)
  for (const auto& s : observed.series)
    if (const Series* w = cpu->second.trace.find(s.name)) asked.series.push_back(*w);
  GoldenHold held = hold_to_golden("ddp-check", "", asked, observed, /*cross=*/true);
  for (auto& row : held.rows)
    if (row.status == Status::kNew)
      row = ReportEntry("ddp-check", "", EntryKind::kSeries, row.name, Status::kSkipped, "",
                        fmt::format("{} has no series for world {}", golden.filename().string(), world));
  return held.rows;
}

// Exact resume under the launcher's own restart: an uninterrupted data-parallel run, then the
// same run in which the last rank SIGKILLs itself mid-run on the first attempt. torchrun
// stops the other ranks and restarts the whole group, which resumes from its checkpoints;
// each rank's final parameters must then be bitwise the uninterrupted run's.
std::vector<ReportEntry> resume_laws(c10d::Backend& pg, const LaunchEnv& e, const DdpCheckOptions& o) {
  const std::string name = "killed and restarted by the launcher: final parameters bitwise the uninterrupted run's";
  if (e.launcher != "torchrun" || e.max_restarts < 1)
    return {law(name, Status::kSkipped,
                "needs a launcher that restarts a failed group: torchrun --max-restarts 1 (or more); srun does not")};
  TrainTaskOptions w{.steps = o.steps, .ckpt_every = o.ckpt_every, .seed = o.seed};
  const fs::path straight = o.run_dir / "uninterrupted", killed = o.run_dir / "preempted";
  fs::create_directories(straight);
  fs::create_directories(killed);
  const auto file = fmt::format("rank{}.tpck", e.rank);
  // Every rank decides alike (collectives follow): the uninterrupted run is complete once all
  // its results exist, as they do after the first attempt.
  bool done = true;
  for (int r = 0; r < e.world; ++r) done = done && fs::exists(straight / fmt::format("rank{}.tpck", r));
  if (!done) run_rank_task("train", {e.rank, e.world, &pg, torch::kCPU, straight}, w).save(straight / file);
  pg.barrier()->wait();
  w.kill_at = e.restart_count == 0 && e.rank == e.world - 1 ? o.kill_at : -1;
  run_rank_task("train", {e.rank, e.world, &pg, torch::kCPU, killed}, w).save(killed / file);
  if (e.restart_count == 0)
    return {law(name, Status::kBroken, fmt::format("no rank was killed (kill at step {} of {})", o.kill_at, o.steps))};
  const auto a = final_parameters(straight / file), b = final_parameters(killed / file);
  const bool same = bitwise_equal(a, b);
  return {
      law(name, law_held(same),
          same ? fmt::format("attempt {}: resumed after the group was restarted", e.restart_count)
               : fmt::format("attempt {}: max abs diff {:.3g}", e.restart_count, (a - b).abs().max().item<double>()))};
}

}  // namespace

const char* ddp_row_status(const ReportEntry& row) {
  return law_status_text(row.skipped() ? Status::kSkipped : law_held(row.passed()));
}

DdpCheckReport ddp_check(const DdpCheckOptions& o) {
  const auto env = launch_env([](const char* name) { return std::getenv(name); });
  if (!env)
    throw BadInput(
        "ddp-check runs as every rank of a torchrun or srun job: neither RANK/WORLD_SIZE nor SLURM_PROCID is set "
        "(e.g. torchrun --standalone --nproc-per-node 2 --max-restarts 1 --no-python trainproof ddp-check ...)");
  const LaunchEnv& e = *env;
  if (o.run_dir.empty()) throw BadInput("ddp-check: --run-dir is required (a folder every rank can reach)");
  if (e.rank == 0) {  // until the store says more: waiting for every other rank to join
    std::vector<int> others;
    for (int r = 1; r < e.world; ++r) others.push_back(r);
    const std::string line = fmt::format(
        "ddp-check: rank 0 was stopped by its launcher while waiting for rank(s) {} of {} to join the rendezvous: "
        "they died or never started\n",
        fmt::join(others, ", "), e.world);
    std::snprintf(g_awaited, sizeof g_awaited, "%s", line.c_str());
    std::signal(SIGTERM, say_what_was_awaited);
  }
  // The dead rank's fault dies once rank 0 is surely up (a launcher stops the rest at once).
  if (fault_injected(fmt::format("rank{}-dies", e.rank))) {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    std::abort();
  }
  if (fault_injected(fmt::format("rank{}-hangs", e.rank))) std::this_thread::sleep_for(std::chrono::hours(1));

  const auto timeout = rank_timeout();
  auto store = connect_store(e, std::chrono::duration_cast<std::chrono::milliseconds>(timeout));
  set_text(*store, fmt::format("joined/{}", e.rank), hostname());
  if (e.rank == 0) {
    await_ranks(*store, "joined", e.world, timeout, "join the rendezvous");
    set_text(*store, "all-joined", "1");
  } else {
    store->wait({"all-joined"});
  }
  auto pg = make_gloo_group(c10::make_intrusive<c10d::PrefixStore>("gloo", store), e.rank, e.world,
                            std::chrono::duration_cast<std::chrono::milliseconds>(timeout));

  DdpCheckReport report{e, hostname(), {}, std::nullopt};
  Trace observed;
  report.laws = gradient_laws(*pg, *store, e, o.seed, observed);
  if (e.rank == 0 && !o.golden.empty())
    for (auto& c : golden_series(o.golden, observed, e.world)) report.laws.push_back(std::move(c));
  for (auto& c : resume_laws(*pg, e, o)) report.laws.push_back(std::move(c));

  // The ranks' verdicts travel through the store as the JSON --out combines.
  nlohmann::json verdict = {{"rank", e.rank}, {"local_rank", e.local_rank}, {"host", report.host}, {"checks", {}}};
  for (const auto& c : report.laws)
    verdict["checks"].push_back({{"law", c.heading()},
                                 {"kind", entry_kind_text(c.kind)},
                                 {"status", ddp_row_status(c)},
                                 {"detail", c.detail},
                                 {"name", c.name},
                                 {"verdict", status_text(c.status)},
                                 {"tolerance", c.tolerance}});
  set_text(*store, fmt::format("verdict/{}", e.rank), verdict.dump());
  if (e.rank != 0) return report;  // rank 0 gathers every rank's verdict and decides the exit code

  await_ranks(*store, "verdict", e.world, timeout, "report its verdict");
  VerifyReport ranks;
  ranks.kind = ReportKind::kDdpCheck;
  ranks.context = {
      {"launcher", e.launcher}, {"world", std::to_string(e.world)}, {"attempt", std::to_string(e.restart_count)}};
  for (int r = 0; r < e.world; ++r) {
    auto v = nlohmann::json::parse(get_text(*store, fmt::format("verdict/{}", r)));
    const std::string device = fmt::format("rank {} ({})", r, v["host"].get<std::string>());
    if (r == 0) {  // this rank's own rows, the golden's series with their values (the HTML plots them)
      for (ReportEntry entry : report.laws) {
        entry.device = device;
        ranks.entries.push_back(std::move(entry));
      }
    } else {
      for (const auto& c : v["checks"]) {
        auto entry = row_of(c);
        entry.device = device;
        ranks.entries.push_back(std::move(entry));
      }
    }
  }
  report.ranks = std::move(ranks);
  return report;
}

}  // namespace trainproof
