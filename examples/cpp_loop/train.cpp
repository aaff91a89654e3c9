// A LibTorch training loop written the way the documents teach, and held to their laws by
// `trainproof check` (the C++ twin of examples/python_loop/train.py):
//
//     trainproof check --kills 3 --expect-lr 'warmup-cosine --lr 3e-3 --warmup 6 --total 60' \
//         -- build/examples/cpp_loop/cpp_loop --run-dir {run_dir}
//
// AdamW with weight decay on weights only, warmup-cosine LambdaLR stepped per optimizer step,
// bf16 autocast with a GradScaler (disabled on the CPU, as the documents do), dropout, 2-step
// gradient accumulation, clipping after unscale_, and an atomic checkpoint every 10 steps of
// model, optimizer, scheduler, scaler, step, data position and RNG state (one TrainingState),
// resumed on start. --mistake plants one of the classic errors, each of which `check` catches:
//     no-scheduler-state, no-rng-state, no-optimizer-state, no-data-position  (exact resume)
//     unseeded-shuffle                                                        (determinism)
//     non-atomic-save (the checkpoint written straight over the live one)     (exact resume)
//     scheduler-per-epoch (a per-step schedule stepped once per epoch)       (the schedule)
//     short-warmup (3 warmup steps where the schedule says 6)                (the schedule)
//     lr-logged-after-step (the rate read after scheduler.step())            (the schedule)
// --noise S adds unseeded noise of S times each gradient's mean magnitude: a loop whose runs
// differ (`check --regen --band`); --noise-seed N seeds it (a band over noise seeds, whose test
// outcome does not depend on chance); --lr, --weight-decay, --seed and --dropout change the loop.
// On start it says when it finds an interrupted checkpoint write (a ckpt.pt.tmp left by a
// kill): independent evidence that `check` killed it during a write.
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include <torch/torch.h>

#include "trainproof/core/recorded_trace.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/grad_scaler.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"
#include "trainproof/training/training_state.h"

namespace fs = std::filesystem;
using trainproof::TrainingState;

namespace {

constexpr int64_t kAccum = 2, kBatch = 32, kCkptEvery = 10;

struct Args {
  fs::path run_dir;
  std::string mistake = "none";
  int64_t steps = 60;
  double dropout = 0.1;
  double lr = 3e-3;
  double weight_decay = 0.01;
  int64_t seed = 0;         // the model's initialisation
  double noise = 0;         // unseeded noise of this scale on every gradient: GPU atomics, standing in
  int64_t noise_seed = -1;  // the noise's seed (-1: unseeded)
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(k + ": needs a value");
    const std::string v = argv[++i];
    if (k == "--run-dir")
      a.run_dir = v;
    else if (k == "--mistake")
      a.mistake = v;
    else if (k == "--steps")
      a.steps = std::stoll(v);
    else if (k == "--dropout")
      a.dropout = std::stod(v);
    else if (k == "--lr")
      a.lr = std::stod(v);
    else if (k == "--weight-decay")
      a.weight_decay = std::stod(v);
    else if (k == "--seed")
      a.seed = std::stoll(v);
    else if (k == "--noise")
      a.noise = std::stod(v);
    else if (k == "--noise-seed")
      a.noise_seed = std::stoll(v);
    else
      throw std::invalid_argument("unknown option " + k);
  }
  static const char* known[] = {"none",
                                "no-scheduler-state",
                                "no-rng-state",
                                "no-optimizer-state",
                                "no-data-position",
                                "unseeded-shuffle",
                                "non-atomic-save",
                                "scheduler-per-epoch",
                                "short-warmup",
                                "lr-logged-after-step"};
  if (std::find(std::begin(known), std::end(known), a.mistake) == std::end(known))
    throw std::invalid_argument("unknown --mistake " + a.mistake);
  if (a.run_dir.empty()) throw std::invalid_argument("--run-dir is required");
  return a;
}

// A large checkpoint takes a while to reach the disk: written in chunks, each synced.
void write_file(const fs::path& path, const std::string& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + path.string());
  for (size_t at = 0; at < bytes.size(); at += 4096) {
    const size_t n = std::min<size_t>(4096, bytes.size() - at);
    if (::write(fd, bytes.data() + at, n) != static_cast<ssize_t>(n)) throw std::runtime_error("short write");
    ::fsync(fd);
  }
  ::close(fd);
}

void save_checkpoint(const fs::path& run_dir, const trainproof::Checkpoint& ck, bool atomic) {
  const fs::path live = run_dir / "ckpt.pt";
  if (!atomic) {
    write_file(live, ck.serialize());  // the mistake: a kill mid-write leaves a torn checkpoint
    return;
  }
  const fs::path tmp = run_dir / "ckpt.pt.tmp";
  write_file(tmp, ck.serialize());
  fs::rename(tmp, live);  // a checkpoint is either complete or absent
}

// TRAINPROOF_THREADS: the thread count of check --regen's thread paths.
void apply_thread_count() {
  if (const char* n = std::getenv("TRAINPROOF_THREADS"); n && *n) at::set_num_threads(std::atoi(n));
}

int train(const Args& a) {
  fs::create_directories(a.run_dir);
  const fs::path torn = a.run_dir / "ckpt.pt.tmp";
  if (fs::exists(torn)) {  // a kill during a write: the live checkpoint is untouched, the torn one is dropped
    std::printf("found an interrupted checkpoint write: ckpt.pt.tmp (%ju bytes), discarded\n",
                static_cast<uintmax_t>(fs::file_size(torn)));
    std::fflush(stdout);  // a later kill must not take the line with it
    fs::remove(torn);
  }
  apply_thread_count();
  at::globalContext().setDeterministicAlgorithms(true, false);

  torch::manual_seed(1234);
  const torch::Tensor X = torch::randn({512, 16});
  const torch::Tensor y = (X.slice(1, 0, 4).sum(1) > 0).to(torch::kLong);
  torch::manual_seed(a.seed);
  torch::nn::Sequential model(torch::nn::Linear(16, 64), torch::nn::ReLU(), torch::nn::Dropout(a.dropout),
                              torch::nn::Linear(64, 2));
  trainproof::AdamW opt(
      trainproof::weight_decay_groups(*model, torch::optim::AdamWOptions(a.lr).weight_decay(a.weight_decay)));
  const int64_t warmup = a.mistake == "short-warmup" ? 3 : 6;
  trainproof::LambdaLR sched(opt, trainproof::warmup_cosine(warmup, a.steps));
  trainproof::GradScaler scaler(torch::kCPU, {.enabled = false});  // bf16 needs no scaler
  int64_t step = 0, epoch = 0, batch = 0;
  const TrainingState state{.model = model.ptr().get(),
                            .optimizer = &opt,
                            .scheduler = &sched,
                            .scaler = &scaler,
                            .early_stopping = nullptr,
                            .rng = true,
                            .position = {{"step", &step}, {"epoch", &epoch}, {"batch", &batch}}};
  unsigned omit = 0;
  if (a.mistake == "no-scheduler-state") omit = TrainingState::kScheduler;
  if (a.mistake == "no-rng-state") omit = TrainingState::kRng;
  if (a.mistake == "no-optimizer-state") omit = TrainingState::kOptimizer;

  const fs::path live = a.run_dir / "ckpt.pt";
  if (fs::exists(live)) {  // resume, as a preemptible job does
    state.load(trainproof::Checkpoint::load(live), omit);
    if (a.mistake == "no-data-position") batch = 0;  // the mistake: the epoch starts over at its first batch
  }

  auto noise = at::make_generator<at::CPUGeneratorImpl>(a.noise_seed >= 0 ? static_cast<uint64_t>(a.noise_seed) * 7919 +
                                                                                static_cast<uint64_t>(step)
                                                                          : std::random_device{}());
  trainproof::Recorder rec;
  const int64_t per_epoch = X.size(0) / (kBatch * kAccum);
  model->train();
  while (step < a.steps) {
    auto shuffle = at::make_generator<at::CPUGeneratorImpl>(
        a.mistake == "unseeded-shuffle" ? std::random_device{}() : static_cast<uint64_t>(1000 + epoch));
    const torch::Tensor order = torch::randperm(X.size(0), shuffle);
    for (; batch < per_epoch && step < a.steps;) {
      opt.zero_grad();
      double total = 0;
      for (int64_t micro = 0; micro < kAccum; ++micro) {
        const int64_t from = (batch * kAccum + micro) * kBatch;
        const torch::Tensor idx = order.slice(0, from, from + kBatch);
        torch::Tensor loss;
        {
          trainproof::AutocastGuard autocast(torch::kCPU, torch::kBFloat16);
          loss = torch::nn::functional::cross_entropy(model->forward(X.index({idx})), y.index({idx})) / kAccum;
        }
        scaler.scale(loss).backward();
        total += loss.item<double>();
      }
      if (a.noise > 0) {  // run to run, as atomics reorder a GPU's sums: unseeded unless --noise-seed
        for (auto& p : model->parameters())
          p.mutable_grad().add_(torch::randn(p.sizes(), noise).mul_(a.noise * p.grad().abs().mean().item<double>()));
      }
      scaler.unscale_(opt);
      const double norm = trainproof::clip_grad_norm_(model->parameters(), 1.0);
      double lr = sched.get_last_lr()[0];  // the rate this step uses
      scaler.step(opt);
      scaler.update();
      if (a.mistake != "scheduler-per-epoch") sched.step();                  // per optimizer step, not per epoch
      if (a.mistake == "lr-logged-after-step") lr = sched.get_last_lr()[0];  // the next step's rate
      ++batch;
      ++step;
      rec.log(step, {{"loss", total}, {"lr", lr}, {"grad_norm", norm}});
      if (step % kCkptEvery == 0) {
        trainproof::Checkpoint ck;
        state.save(ck, omit);
        save_checkpoint(a.run_dir, ck, a.mistake != "non-atomic-save");
      }
    }
    if (batch == per_epoch) {
      ++epoch;
      batch = 0;
      if (a.mistake == "scheduler-per-epoch") sched.step();
    }
  }
  for (const auto& p : model->named_parameters()) {
    const torch::Tensor t = p.value().detach().contiguous().to(torch::kFloat32);
    rec.param(p.key(), {t.data_ptr<float>(), t.data_ptr<float>() + t.numel()}, t.sizes().vec());
  }
  rec.close();
  std::printf("trained %lld steps\n", static_cast<long long>(step));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return train(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cpp_loop: %s\n", e.what());
    return 1;
  }
}
