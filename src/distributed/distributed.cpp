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
#include "trainproof/distributed/rank_task.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"

namespace trainproof {
namespace fs = std::filesystem;

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
  for (const auto& k : ck.keys())
    if (k.rfind("model/", 0) == 0) flat.push_back(ck.tensor(k).reshape({-1}));
  if (flat.empty()) throw BadInput(fmt::format("{}: no final parameters (model/...) in it", file.string()));
  return torch::cat(flat);
}

namespace {

// --options: JSON text, or @FILE holding it (what launch_task passes).
nlohmann::json task_options(const std::string& text) {
  std::string json = text;
  if (!text.empty() && text[0] == '@') {
    std::ifstream in(text.substr(1));
    if (!in) throw BadInput(fmt::format("ddp-worker --options {}: cannot read the file", text));
    std::stringstream ss;
    ss << in.rdbuf();
    json = ss.str();
  }
  try {
    return nlohmann::json::parse(json.empty() ? "{}" : json);
  } catch (const nlohmann::json::exception& e) {
    throw BadInput(fmt::format("ddp-worker --options {}: not JSON: {}", text, e.what()));
  }
}

}  // namespace

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
  (void)rank_task(o.task);  // an unknown task is bad input before any rank waits for another
  // Our launcher's marker that this rank got this far: a rank that hangs before it is told from
  // the ranks that only waited for it (launch_task).
  if (!o.store.empty())
    std::ofstream(std::filesystem::path(o.store).parent_path() / fmt::format("rank{}.reached", o.rank));
  if (o.out.empty()) throw BadInput("ddp-worker: --out is required");
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
    make_nccl_backend(store, o.rank, o.world, timeout, group);
  } else {
    group = make_gloo_group(store, o.rank, o.world, timeout);
  }
  report_progress(o.progress,
                  fmt::format("rank {} of {} joined the {} group on {}\n", o.rank, o.world, o.backend, device.str()));
  const RankContext ctx{o.rank, o.world, group.get(), device, o.out};
  const Checkpoint result = rank_task(o.task)(ctx, task_options(o.options));
  if (!result.keys().empty()) result.save(fs::path(o.out) / fmt::format("rank{}.tpck", o.rank));
  return kExitOk;
}

}  // namespace trainproof
