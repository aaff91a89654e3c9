// The text-classification loop (see textclf.h).
#include "workloads/textclf/textclf.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/torch.h>

#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"
#include "trainproof/training/checkpoint.h"
#include "trainproof/training/grad_scaler.h"
#include "trainproof/training/lr_scheduler.h"
#include "trainproof/training/optim.h"
#include "trainproof/training/tensors.h"
#include "trainproof/training/training.h"
#include "trainproof/training/training_state.h"

namespace trainproof {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kVocab = 4096, kEmbed = 64, kMaxTokens = 64, kBatch = 32, kMicroBatches = 2, kPatience = 3;
const char* const kCategories[] = {"computers", "politics", "science"};

struct Doc {
  std::vector<int64_t> tokens;
  int64_t label;
};

uint32_t fnv1a32(const std::string& s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

// Lower-cased alphanumeric words, hashed into kVocab buckets.
std::vector<int64_t> tokenize(const std::string& text) {
  std::vector<int64_t> ids;
  std::string word;
  auto flush = [&] {
    if (!word.empty() && static_cast<int64_t>(ids.size()) < kMaxTokens) ids.push_back(fnv1a32(word) % kVocab);
    word.clear();
  };
  for (unsigned char c : text) {
    if (std::isalnum(c))
      word += static_cast<char>(std::tolower(c));
    else
      flush();
  }
  flush();
  if (ids.empty()) ids.push_back(0);
  return ids;
}

// Fortune files: entries separated by lines holding a single '%'. Every fifth entry of a
// category is held out for validation.
void load_corpus(const fs::path& dir, std::vector<Doc>& train, std::vector<Doc>& val) {
  for (int64_t label = 0; label < 3; ++label) {
    const fs::path p = dir / kCategories[label];
    std::ifstream in(p);
    if (!in)
      throw BadInput(fmt::format(
          "{}: corpus file not found (install the Debian package `fortunes`, or pass --corpus DIR)", p.string()));
    std::string line, entry;
    int64_t i = 0;
    auto add = [&] {
      if (entry.find_first_not_of(" \t\n") == std::string::npos) return;
      (i++ % 5 == 0 ? val : train).push_back({tokenize(entry), label});
      entry.clear();
    };
    while (std::getline(in, line)) {
      if (line == "%")
        add();
      else
        entry += line + "\n";
    }
    add();
  }
  if (train.empty() || val.empty()) throw BadInput(fmt::format("{}: corpus has no entries", dir.string()));
}

struct Batch {
  torch::Tensor input, offsets, labels;
};
Batch make_batch(const std::vector<Doc>& docs, const int64_t* idx, int64_t n, c10::Device device) {
  std::vector<int64_t> flat, offsets, labels;
  for (int64_t i = 0; i < n; ++i) {
    const Doc& d = docs[idx[i]];
    offsets.push_back(static_cast<int64_t>(flat.size()));
    flat.insert(flat.end(), d.tokens.begin(), d.tokens.end());
    labels.push_back(d.label);
  }
  auto t = [&](const std::vector<int64_t>& v) { return torch::tensor(v, torch::kLong).to(device); };
  return {t(flat), t(offsets), t(labels)};
}

struct TextClfImpl : torch::nn::Module {
  TextClfImpl() {
    emb = register_module("emb",
                          torch::nn::EmbeddingBag(torch::nn::EmbeddingBagOptions(kVocab, kEmbed).mode(torch::kMean)));
    drop = register_module("drop", torch::nn::Dropout(0.1));
    fc = register_module("fc", torch::nn::Linear(kEmbed, 3));
  }
  torch::Tensor forward(const torch::Tensor& input, const torch::Tensor& offsets) {
    return fc(drop(emb(input, offsets)));
  }
  torch::nn::EmbeddingBag emb{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(TextClf);

// Everything a resume needs, beside the model and the optimizer's own state.
struct Position {
  int64_t step = 0, epoch = 0, batch = 0;  // batch: the next batch of `epoch`
  int64_t stopped = 0;                     // early stopping fired
};

fs::path ckpt_path(const fs::path& dir, int64_t step) {
  return dir / fmt::format("ckpt-{:08d}.tpck", step);
}

std::vector<fs::path> checkpoints_newest_first(const fs::path& dir) {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    if (name.rfind("ckpt-", 0) == 0 && e.path().extension() == ".tpck") v.push_back(e.path());
  }
  std::sort(v.rbegin(), v.rend());
  return v;
}

// Writes in two halves with an optional pause between them (TRAINPROOF_CKPT_WRITE_DELAY_MS),
// which widens the window in which `trainproof preempt` kills a writer.
void write_slowly(const fs::path& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error(fmt::format("{}: cannot create", path.string()));
  const size_t half = bytes.size() / 2;
  f.write(bytes.data(), static_cast<std::streamsize>(half));
  f.flush();
  if (const char* d = std::getenv("TRAINPROOF_CKPT_WRITE_DELAY_MS"))
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(d)));
  f.write(bytes.data() + half, static_cast<std::streamsize>(bytes.size() - half));
  f.flush();
  if (!f) throw std::runtime_error(fmt::format("{}: write failed", path.string()));
}

void save_file(const fs::path& path, const Checkpoint& ck, bool atomic) {
  const std::string bytes = ck.serialize();
  if (atomic)
    atomic_replace(path, [&](const fs::path& tmp) { write_slowly(tmp, bytes); });
  else
    write_slowly(path, bytes);  // the non-atomic-save sabotage
}

}  // namespace

std::string resume_difference(const fs::path& uninterrupted, const fs::path& preempted) {
  static const std::map<std::string, std::string> kPiece = {{"model", "model"},
                                                            {"opt", "optimizer"},
                                                            {"sched", "scheduler"},
                                                            {"scaler", "GradScaler"},
                                                            {"rng", "RNG"},
                                                            {"pos", "data position"},
                                                            {"early_stopping", "early stopping"}};
  const auto pieces = [](const Checkpoint& ck) {
    std::set<std::string> out;
    for (const auto& k : ck.keys()) out.insert(k.substr(0, k.find('/')));
    return out;
  };
  std::set<std::string> lacks;
  std::string position;
  for (const auto& path : checkpoints_newest_first(preempted)) {
    const fs::path ref = uninterrupted / path.filename();
    std::error_code ec;
    if (!fs::exists(ref, ec)) continue;
    try {
      const Checkpoint got = Checkpoint::load(path), want = Checkpoint::load(ref);
      const auto has = pieces(got);
      for (const auto& piece : pieces(want))
        if (!has.count(piece)) lacks.insert(kPiece.count(piece) ? kPiece.at(piece) : piece);
      for (const auto& k : want.keys())
        if (position.empty() && k.rfind("pos/", 0) == 0 && got.has(k) && got.integer(k) != want.integer(k))
          position = fmt::format("the data position differs: {} {} in {}, {} uninterrupted", k.substr(4),
                                 got.integer(k), path.filename().string(), want.integer(k));
    } catch (const BadInput&) {  // a torn checkpoint: counted as damaged by the caller
    }
  }
  if (!lacks.empty()) return fmt::format("its checkpoints lack the {}", fmt::join(lacks, ", "));
  return position;
}

int train_textclf(const TextClfOptions& o) {
  static const char* const kSabotage[] = {"none",     "drop-optimizer",     "drop-scheduler", "drop-scaler",
                                          "drop-rng", "drop-data-position", "non-atomic-save"};
  if (std::find(std::begin(kSabotage), std::end(kSabotage), o.sabotage) == std::end(kSabotage))
    throw BadInput(fmt::format("--sabotage: unknown mode '{}'", o.sabotage));
  const bool fp16 = o.amp == "fp16" || (o.amp == "auto" && o.device.is_cuda());
  if (o.amp != "auto" && o.amp != "fp16" && o.amp != "bf16")
    throw BadInput(fmt::format("--amp: unknown '{}' (auto, bf16, fp16)", o.amp));
  std::error_code ec;
  fs::create_directories(o.ckpt_dir, ec);
  if (ec) throw BadInput(fmt::format("{}: cannot create checkpoint folder: {}", o.ckpt_dir.string(), ec.message()));

  std::vector<Doc> train, val;
  load_corpus(o.corpus, train, val);
  const int64_t batches_per_epoch = (static_cast<int64_t>(train.size()) + kBatch - 1) / kBatch;

  torch::manual_seed(static_cast<int64_t>(o.seed));
  TextClf model;
  model->to(o.device);
  // AdamW's default decay (0.01) on the embedding and the head's weight; none on the bias
  // (the training-loop document: exclude biases and normalization weights from decay).
  AdamW opt(weight_decay_groups(*model, torch::optim::AdamWOptions(2e-2)));
  LambdaLR sched(opt, warmup_cosine(std::max<int64_t>(1, o.steps / 10), o.steps + 1));  // per optimizer step
  // float16: a scale that grows fast enough to overflow now and then, so skipped steps and
  // back-offs are part of the run (and of what a resume must reproduce).
  GradScaler scaler(o.device, GradScalerOptions{.init_scale = 65536.0, .growth_interval = 10, .enabled = fp16});
  EarlyStopping stopper(kPatience);
  Position pos;
  const TrainingState state{
      .model = model.get(),
      .optimizer = &opt,
      .scheduler = &sched,
      .scaler = &scaler,
      .early_stopping = &stopper,
      .rng = true,
      .position = {{"step", &pos.step}, {"epoch", &pos.epoch}, {"batch", &pos.batch}, {"stopped", &pos.stopped}}};
  // A sabotage drops a piece from the resume checkpoints only; final.tpck is always complete.
  const unsigned sabotaged = o.sabotage == "drop-optimizer"   ? TrainingState::kOptimizer
                             : o.sabotage == "drop-scheduler" ? TrainingState::kScheduler
                             : o.sabotage == "drop-scaler"    ? TrainingState::kScaler
                             : o.sabotage == "drop-rng"       ? TrainingState::kRng
                                                              : 0u;

  // Resume from the newest checkpoint that loads; a damaged one is reported and skipped.
  for (const auto& path : checkpoints_newest_first(o.ckpt_dir)) {
    try {
      state.load(Checkpoint::load(path));
      if (o.sabotage == "drop-data-position") pos.batch = 0;
      fmt::print("resumed from {} (step {}, epoch {}, batch {})\n", path.filename().string(), pos.step, pos.epoch,
                 pos.batch);
      break;
    } catch (const BadInput& e) {
      fmt::print(stderr, "trainproof: warning: damaged checkpoint {}: {}; trying the previous one\n", path.string(),
                 e.what());
    }
  }

  auto save_checkpoint = [&] {
    Checkpoint ck;
    state.save(ck, sabotaged);
    fmt::print("saving checkpoint at step {}\n", pos.step);
    std::fflush(stdout);
    save_file(ckpt_path(o.ckpt_dir, pos.step), ck, o.sabotage != "non-atomic-save");
    const auto all = checkpoints_newest_first(o.ckpt_dir);  // keep the newest three
    for (size_t i = 3; i < all.size(); ++i) fs::remove(all[i], ec);
  };
  auto validate = [&](double& loss_out) {
    model->eval();
    torch::NoGradGuard no_grad;
    std::vector<int64_t> idx(val.size());
    std::iota(idx.begin(), idx.end(), 0);
    const Batch b = make_batch(val, idx.data(), static_cast<int64_t>(idx.size()), o.device);
    const auto logits = model(b.input, b.offsets);
    loss_out = torch::nn::functional::cross_entropy(logits, b.labels).item<double>();
    const double acc = logits.argmax(1).eq(b.labels).to(torch::kDouble).mean().item<double>();
    model->train();
    return acc;
  };

  const auto amp_dtype = fp16 ? torch::kHalf : torch::kBFloat16;
  const auto t_start = std::chrono::steady_clock::now();
  int64_t samples = 0;
  model->train();
  while (pos.step < o.steps && !pos.stopped) {
    // This epoch's order depends only on (seed, epoch): a resume continues it mid-epoch.
    auto gen = at::detail::createCPUGenerator(o.seed * 1000003 + static_cast<uint64_t>(pos.epoch));
    const torch::Tensor perm = torch::randperm(static_cast<int64_t>(train.size()), gen, torch::kLong);
    for (; pos.batch < batches_per_epoch && pos.step < o.steps; ++pos.batch) {
      const int64_t start = pos.batch * kBatch,
                    n = std::min<int64_t>(kBatch, static_cast<int64_t>(train.size()) - start);
      const int64_t* idx = perm.data_ptr<int64_t>() + start;
      opt.zero_grad();
      double loss_sum = 0;
      for (int64_t m = 0; m < kMicroBatches; ++m) {  // gradient accumulation, weighted by size
        const int64_t ms = m * n / kMicroBatches, me = (m + 1) * n / kMicroBatches;
        if (me == ms) continue;
        const Batch b = make_batch(train, idx + ms, me - ms, o.device);
        torch::Tensor loss;
        {
          AutocastGuard autocast(o.device.type(), amp_dtype);
          loss = torch::nn::functional::cross_entropy(model(b.input, b.offsets), b.labels);
        }
        scaler.scale(loss * accumulation_weight(Accumulation::kWeightBySize, me - ms, kMicroBatches, n)).backward();
        loss_sum += loss.item<double>() * static_cast<double>(me - ms) / static_cast<double>(n);
      }
      scaler.unscale_(opt);  // true gradients before clipping
      clip_grad_norm_(model->parameters(), 1.0);
      scaler.step(opt);
      scaler.update();
      sched.step();  // once per optimizer step
      ++pos.step;
      samples += n;
      if (pos.step % 20 == 0 || pos.step == o.steps) {
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
        fmt::print("step {:4d}/{}  epoch {}  loss {:.4f}  lr {:.2e}  scale {:g}  {:.0f} samples/s\n", pos.step, o.steps,
                   pos.epoch, loss_sum, sched.get_last_lr()[0], scaler.get_scale(), samples / std::max(secs, 1e-9));
      }
      if (pos.step % o.ckpt_every == 0) {
        ++pos.batch;  // the batch just done is part of the saved position
        save_checkpoint();
        --pos.batch;
      }
    }
    if (pos.batch == batches_per_epoch) {  // end of epoch: validate, keep the best, maybe stop
      double val_loss = 0;
      const double acc = validate(val_loss);
      const auto verdict = stopper.step(val_loss);
      fmt::print("epoch {} done: val_loss {:.4f}  val_acc {:.4f}{}\n", pos.epoch, val_loss, acc,
                 verdict == EarlyStopping::Verdict::kNewBest ? "  new best -> best.tpck" : "");
      if (verdict == EarlyStopping::Verdict::kNewBest) {
        Checkpoint best;
        save_module(best, "model", *model);
        best.put("val_loss", val_loss);
        best.put("val_acc", acc);
        best.put("epoch", pos.epoch);
        save_file(o.ckpt_dir / "best.tpck", best, true);
      }
      pos.stopped = verdict == EarlyStopping::Verdict::kStop;
      if (pos.stopped)
        fmt::print("early stopping: {} epochs without a new best (best {:.4f})\n", kPatience, stopper.best());
      ++pos.epoch;
      pos.batch = 0;
    }
  }
  double val_loss = 0;
  const double acc = validate(val_loss);
  Checkpoint final;
  state.save(final);
  final.put("val_loss", val_loss);
  final.put("val_acc", acc);
  save_file(o.ckpt_dir / "final.tpck", final, true);
  fmt::print(
      "finished at step {}: validation loss {:.4f}, validation accuracy {:.4f} ({} train / {} validation texts)\n",
      pos.step, val_loss, acc, train.size(), val.size());
  return kExitOk;
}

}  // namespace trainproof
