// The launcher and the rank side, on Gloo or NCCL (see distributed.h, nccl_backend.h).
#include "trainproof/distributed/distributed.h"

#include <algorithm>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/cuda.h>
#include <torch/csrc/distributed/c10d/FileStore.hpp>

#include "src/distributed/launch_store.h"
#include "src/distributed/nccl_backend.h"
#include "src/process/process.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"
#include "trainproof/training/training_state.h"

namespace trainproof {
namespace {

namespace fs = std::filesystem;

std::string prefixed(const fs::path& log, int rank) {
  std::ifstream in(log);
  std::string line, out;
  while (std::getline(in, line)) out += fmt::format("[rank {}] {}\n", rank, line);
  return out;
}

}  // namespace

std::string backend_for(const c10::Device& device) {
  return device.is_cuda() ? "nccl" : "gloo";
}

std::vector<int> data_parallel_worlds(const c10::Device& device, int gpus) {
  if (!device.is_cuda()) return {2, 4};
  std::vector<int> worlds;
  for (int n : {2, 4})
    if (n <= gpus) worlds.push_back(n);
  if (worlds.empty()) worlds.push_back(1);
  return worlds;
}

std::vector<int64_t> shard_bounds(int64_t total, int world, bool uneven) {
  std::vector<int64_t> b{0};
  const int64_t weights = uneven ? static_cast<int64_t>(world) * (world + 1) / 2 : world;
  int64_t acc = 0;
  for (int r = 0; r < world; ++r) {
    acc += uneven ? r + 1 : 1;
    b.push_back(total * acc / weights);
  }
  return b;
}

GradProblem make_grad_problem(int64_t total, uint64_t seed, const c10::Device& device) {
  auto gen = at::detail::createCPUGenerator(seed);
  GradProblem p;
  p.X = torch::randn({total, 8}, gen, torch::kDouble);
  p.y = torch::randint(0, 3, {total}, gen);
  torch::manual_seed(static_cast<int64_t>(seed));
  p.model64 = torch::nn::Linear(8, 3);
  p.model64->to(torch::kDouble);
  p.model32 = torch::nn::Linear(8, 3);
  torch::NoGradGuard no_grad;
  p.model32->weight.copy_(p.model64->weight);
  p.model32->bias.copy_(p.model64->bias);
  p.X = p.X.to(device), p.y = p.y.to(device);  // drawn on the CPU: the same data on every device
  p.model64->to(device);
  p.model32->to(device);
  return p;
}

std::pair<torch::Tensor, torch::Tensor> reference_gradients(const c10::Device& device, int64_t total, uint64_t seed,
                                                            int world, bool uneven, bool accumulate) {
  GradProblem p = make_grad_problem(total, seed, device);
  const auto b = shard_bounds(total, world, uneven);
  std::vector<torch::Tensor> out;
  for (auto* m : {&p.model64, &p.model32}) {
    auto& model = *m;
    const auto X = model->weight.scalar_type() == torch::kDouble ? p.X : p.X.to(torch::kFloat);
    if (!accumulate) {
      torch::nn::functional::cross_entropy(model(X), p.y).backward();
    } else {
      for (int r = 0; r < world; ++r)
        (torch::nn::functional::cross_entropy(model(X.slice(0, b[r], b[r + 1])), p.y.slice(0, b[r], b[r + 1])) *
         accumulation_weight(Accumulation::kDivideByCount, 0, world, total))
            .backward();
    }
    out.push_back(model->weight.grad().cpu());
  }
  return {out[0], out[1]};
}

torch::Tensor final_parameters(const fs::path& file) {
  const Checkpoint ck = Checkpoint::load(file);
  std::vector<torch::Tensor> flat;
  for (const auto& k : ck.keys()) flat.push_back(ck.tensor(k).reshape({-1}));
  return torch::cat(flat);
}

std::vector<RankRun> launch_ranks(int world, const std::vector<std::string>& args, const fs::path& dir,
                                  const std::string& kill_when_all_print) {
  const char* env = std::getenv("TRAINPROOF_RANK_TIMEOUT_S");
  const std::chrono::seconds timeout(env && std::atoi(env) > 0 ? std::atoi(env) : 120);
  fs::create_directories(dir);
  const fs::path store = dir / "store";
  fs::remove(store);
  std::vector<pid_t> pids;
  for (int rank = 0; rank < world; ++rank) {
    std::vector<std::string> a = {"ddp-worker",          "--rank",  std::to_string(rank), "--world",
                                  std::to_string(world), "--store", store.string()};
    a.insert(a.end(), args.begin(), args.end());
    const fs::path log = dir / fmt::format("rank{}.log", rank);
    pids.push_back(spawn_cli(a, {log, log}));
  }
  std::vector<RankRun> runs(world);
  std::vector<bool> done(world, false);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto kill_all = [&] {
    for (int r = 0; r < world; ++r)
      if (!done[r]) {
        kill_and_reap(pids[r]);
        done[r] = true;
      }
  };
  int remaining = world;
  auto all_printed = [&] {
    for (int r = 0; r < world; ++r) {
      std::ifstream in(dir / fmt::format("rank{}.log", r));
      std::stringstream ss;
      ss << in.rdbuf();
      if (ss.str().find(kill_when_all_print) == std::string::npos) return false;
    }
    return true;
  };
  while (remaining > 0) {
    if (!kill_when_all_print.empty() && all_printed()) {  // the preemption: every rank at once
      kill_all();
      for (int r = 0; r < world; ++r) runs[r] = {r, 128 + SIGKILL, prefixed(dir / fmt::format("rank{}.log", r), r)};
      return runs;
    }
    for (int r = 0; r < world; ++r) {
      if (done[r]) continue;
      const auto code = poll_exit(pids[r]);
      if (!code) continue;
      done[r] = true;
      --remaining;
      runs[r] = {r, *code, prefixed(dir / fmt::format("rank{}.log", r), r)};
      if (*code != 0) {  // one rank down: the others would wait for it forever
        kill_all();
        throw BadInput(fmt::format("rank {} of {} {} (exit {}); the other ranks were stopped. Its output:\n{}", r,
                                   world, ended_by_signal(*code) ? "was killed" : "failed", *code, runs[r].output));
      }
    }
    if (remaining > 0 && std::chrono::steady_clock::now() > deadline) {
      std::vector<std::string> hung;
      for (int r = 0; r < world; ++r)
        if (!done[r]) hung.push_back(std::to_string(r));
      kill_all();
      throw BadInput(fmt::format("rank(s) {} of {} did not finish within {} s and were killed", fmt::join(hung, ", "),
                                 world, timeout.count()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return runs;
}

std::pair<torch::Tensor, torch::Tensor> allreduced_gradients(c10d::Backend& pg, int rank, int world,
                                                             const std::string& rule_name, bool uneven, int64_t total,
                                                             uint64_t seed, const c10::Device& device) {
  GradProblem p = make_grad_problem(total, seed, device);
  const auto b = shard_bounds(total, world, uneven);
  // The classic mistake, as a negative control: no DistributedSampler, every rank reads shard 0.
  const int shard = fault_injected("ranks-read-the-same-shard") ? 0 : rank;
  const int64_t lo = b[shard], hi = b[shard + 1];
  const auto rule = rule_name == "size" ? Accumulation::kWeightBySize : Accumulation::kDivideByCount;
  const double w = accumulation_weight(rule, hi - lo, world, total);
  std::vector<torch::Tensor> out;
  for (auto* m : {&p.model64, &p.model32}) {
    auto& model = *m;
    const auto X = model->weight.scalar_type() == torch::kDouble ? p.X : p.X.to(torch::kFloat);
    (torch::nn::functional::cross_entropy(model(X.slice(0, lo, hi)), p.y.slice(0, lo, hi)) * w).backward();
    // The negative control: a rank that skips the all-reduce keeps its local gradient (it
    // still joins the collective with a copy, so the other ranks are not left waiting).
    const bool skip = fault_injected(fmt::format("rank{}-skips-allreduce", rank));
    std::vector<at::Tensor> grads = {skip ? model->weight.grad().clone() : model->weight.grad()};
    pg.allreduce(grads)->wait();
    out.push_back(model->weight.grad().cpu());
  }
  fmt::print("rank {} of {}: shard [{}, {}), gradient all-reduced\n", rank, world, lo, hi);
  return {out[0], out[1]};
}

int train_task(const WorkerOptions& o, c10d::Backend& pg, const torch::Device& device) {
  const fs::path dir = o.out;
  auto gen = at::detail::createCPUGenerator(o.seed);
  const auto X = torch::randn({256, 8}, gen).to(device), y = torch::randint(0, 3, {256}, gen).to(device);
  torch::manual_seed(static_cast<int64_t>(o.seed));  // the same initial weights on every rank
  auto fc1 = torch::nn::Linear(8, 16);
  auto relu = torch::nn::ReLU();
  auto drop = torch::nn::Dropout(0.2);
  auto fc2 = torch::nn::Linear(16, 3);
  torch::nn::Sequential model(fc1, relu, drop, fc2);
  model->to(device);
  if (fault_injected("dropout-left-in-eval-mode")) model->eval();  // the masks stop mattering
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  torch::manual_seed(static_cast<int64_t>(o.seed * 1000 + o.rank + 1));  // each rank its own dropout masks
  const int64_t batch = 32, per_epoch = 256 / batch;
  int64_t step = 0;
  // The parameters and the optimizer once (rank 0 writes them); each rank its RNG state and
  // its data position.
  const TrainingState shared{.model = model.get(), .optimizer = &opt, .rng = false};
  const TrainingState own{.rng = true, .position = {{"step", &step}}};

  // Resume from the newest step whose files are all present: parameters once, and every rank's own.
  std::vector<int64_t> saved;
  if (fs::exists(dir) && !fault_injected("resume-ignores-checkpoints"))
    for (const auto& e : fs::directory_iterator(dir)) {
      const auto n = e.path().filename().string();
      if (n.rfind("params-", 0) == 0 && e.path().extension() == ".tpck") saved.push_back(std::stoll(n.substr(7, 8)));
    }
  std::sort(saved.rbegin(), saved.rend());
  for (int64_t s : saved) {
    bool complete = true;
    for (int r = 0; r < o.world; ++r) complete = complete && fs::exists(dir / fmt::format("rank{}-{:08d}.tpck", r, s));
    if (!complete) continue;
    shared.load(Checkpoint::load(dir / fmt::format("params-{:08d}.tpck", s)));
    own.load(Checkpoint::load(dir / fmt::format("rank{}-{:08d}.tpck", o.rank, s)),
             o.sabotage == "drop-rng" ? TrainingState::kRng : 0u);
    fmt::print("rank {} resumed at step {}\n", o.rank, step);
    break;
  }

  const auto shard = shard_bounds(batch, o.world, false);
  for (; step < o.steps;) {
    const int64_t epoch = step / per_epoch, within = step % per_epoch;
    auto order_gen = at::detail::createCPUGenerator(o.seed + 7919 * static_cast<uint64_t>(epoch + 1));
    const auto perm = torch::randperm(256, order_gen, torch::kLong);
    const auto idx = perm.slice(0, within * batch + shard[o.rank], within * batch + shard[o.rank + 1]).to(device);
    opt.zero_grad();
    (torch::nn::functional::cross_entropy(model->forward(X.index_select(0, idx)), y.index_select(0, idx)) /
     static_cast<double>(o.world))
        .backward();
    std::vector<at::Tensor> grads;
    for (auto& p : model->parameters()) grads.push_back(p.grad());
    const bool skip = fault_injected(fmt::format("rank{}-skips-allreduce", o.rank));
    for (auto& g : grads) {  // average the gradients across ranks
      std::vector<at::Tensor> one = {skip ? g.clone() : g};
      pg.allreduce(one)->wait();
    }
    opt.step();
    ++step;
    if (step == o.kill_at) {  // a preemption: this rank dies mid-run, without a checkpoint
      fmt::print("rank {} SIGKILLs itself at step {}\n", o.rank, step);
      std::fflush(stdout);
      std::raise(SIGKILL);
    }
    if (step % o.ckpt_every == 0) {
      Checkpoint mine;
      own.save(mine);
      mine.save(dir / fmt::format("rank{}-{:08d}.tpck", o.rank, step));
      if (o.rank == 0) {
        Checkpoint params;
        shared.save(params);
        params.save(dir / fmt::format("params-{:08d}.tpck", step));
      }
      pg.barrier()->wait();  // a checkpoint counts once every rank has written its part
      fmt::print("saved checkpoint at step {}\n", step);
      std::fflush(stdout);
    }
  }
  Checkpoint final;
  save_module(final, "model", *model);
  final.save(dir / fmt::format("final-rank{}.tpck", o.rank));
  fmt::print("rank {} finished {} steps\n", o.rank, step);
  return kExitOk;
}

int ddp_worker_main(const WorkerOptions& options) {
  WorkerOptions o = options;
  if (o.store.empty()) {
    o.env = launch_env([](const char* name) { return std::getenv(name); });
    if (!o.env)
      throw BadInput(
          "ddp-worker: give --rank, --world and --store (our launcher does), or run it under torchrun "
          "or srun, which set RANK/WORLD_SIZE or SLURM_PROCID");
    o.rank = o.env->rank;
    o.world = o.env->world;
  }
  if (o.rank < 0 || o.rank >= o.world)
    throw BadInput(fmt::format("--rank {} is outside a world of {}", o.rank, o.world));
  if (fault_injected(fmt::format("rank{}-dies", o.rank))) std::abort();
  if (fault_injected(fmt::format("rank{}-hangs", o.rank))) std::this_thread::sleep_for(std::chrono::hours(1));
  if (o.backend != "gloo" && o.backend != "nccl")
    throw BadInput(fmt::format("unknown backend '{}' (gloo | nccl)", o.backend));
  const bool nccl = o.backend == "nccl";
  const torch::Device device = nccl ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(o.rank)) : torch::kCPU;
  if (nccl) make_cuda_deterministic();  // the resume check is bitwise: deterministic kernels
  const auto timeout = std::chrono::milliseconds(60'000);
  // Our launcher names a FileStore; torchrun and srun set the environment instead.
  c10::intrusive_ptr<c10d::Store> store;
  if (o.store.empty())
    store = connect_store(*o.env, timeout);
  else
    store = c10::make_intrusive<c10d::FileStore>(o.store, o.world);
  c10::intrusive_ptr<c10d::Backend> group;
  if (nccl) {
    group = make_nccl_backend(store, o.rank, o.world, timeout);
  } else {
    group = make_gloo_group(store, o.rank, o.world, timeout);
  }
  c10d::Backend& pg = *group;
  fmt::print("rank {} of {} joined the {} group on {}\n", o.rank, o.world, o.backend, device.str());
  if (o.task == "train") return train_task(o, pg, device);

  const auto [g64, g32] = allreduced_gradients(pg, o.rank, o.world, o.rule, o.uneven, o.total, o.seed, device);
  Checkpoint out;
  out.put("grad64", g64);
  out.put("grad32", g32);
  out.save(fs::path(o.out) / fmt::format("rank{}.tpck", o.rank));
  return kExitOk;
}

}  // namespace trainproof
