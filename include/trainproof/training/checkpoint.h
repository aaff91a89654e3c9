// A checkpoint: named tensors and numbers in a plain binary container with a checksum.
// Nothing in the file is executed on load (no pickle, no TorchScript): every length and
// dtype is validated against the bytes present before anything is allocated from it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <torch/torch.h>

namespace trainproof {

inline constexpr uint64_t kMaxCheckpointBytes = uint64_t{2} << 30;

// The container's checksum (FNV-1a 64 of the payload), and a whole file around a payload:
// the fuzzer uses these to get past the checksum and exercise the parser itself.
uint64_t checkpoint_checksum(std::string_view payload);
std::string checkpoint_file_from_payload(std::string_view payload);

class Checkpoint {
 public:
  using Value = std::variant<torch::Tensor, int64_t, double, std::string>;

  void put(const std::string& key, const torch::Tensor& t);  // copied to CPU, contiguous
  void put(const std::string& key, int64_t v) { entries_[key] = v; }
  void put(const std::string& key, double v) { entries_[key] = v; }
  void put(const std::string& key, std::string v) { entries_[key] = std::move(v); }

  bool has(const std::string& key) const { return entries_.count(key) > 0; }
  // Typed getters; a missing key or a wrong kind throws BadInput naming the source file.
  const torch::Tensor& tensor(const std::string& key) const;
  int64_t integer(const std::string& key) const;
  double real(const std::string& key) const;
  const std::string& text(const std::string& key) const;
  std::vector<std::string> keys() const;

  std::string serialize() const;
  // `source` names the origin (a file path) in error messages.
  static Checkpoint deserialize(std::string_view bytes, const std::string& source);

  void save(const std::filesystem::path& path) const;  // atomic (temp + fsync + rename)
  static Checkpoint load(const std::filesystem::path& path);

  const std::string& source() const { return source_; }

 private:
  const Value& get(const std::string& key) const;
  std::map<std::string, Value> entries_;
  std::string source_ = "(in memory)";
};

// State of the pieces a training loop must checkpoint to resume exactly.
void save_module(Checkpoint& ck, const std::string& prefix, const torch::nn::Module& m);
void load_module(const Checkpoint& ck, const std::string& prefix, torch::nn::Module& m);
// SGD, Adam and AdamW: per-parameter state (step, moments, momentum) and each group's
// hyperparameters (lr, betas or momentum, eps, weight decay).
void save_optimizer(Checkpoint& ck, const std::string& prefix, torch::optim::Optimizer& opt);
void load_optimizer(const Checkpoint& ck, const std::string& prefix, torch::optim::Optimizer& opt);
// The default CPU generator, and each CUDA device's when CUDA is present.
void save_rng(Checkpoint& ck, const std::string& prefix);
void load_rng(const Checkpoint& ck, const std::string& prefix);

}  // namespace trainproof
