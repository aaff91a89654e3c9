// DataLoader shuffle order (see data_order.h).
#include "trainproof/training/data_order.h"

#include <ATen/CPUGeneratorImpl.h>

#include <stdexcept>

#include "trainproof/core/fault.h"

namespace trainproof {
namespace {
int64_t draw_int64_seed() {  // torch.empty((), dtype=torch.int64).random_().item()
  return torch::empty({}, torch::kLong).random_().item<int64_t>();
}
}  // namespace

ShuffledBatches::ShuffledBatches(int64_t dataset_size, int64_t batch_size, bool drop_last)
    : n_(dataset_size), batch_size_(batch_size), drop_last_(drop_last) {
  if (n_ <= 0 || batch_size_ <= 0) throw std::invalid_argument("ShuffledBatches: sizes must be positive");
}

std::vector<torch::Tensor> ShuffledBatches::epoch() const {
  if (!fault_injected("sampler-no-base-seed"))
    draw_int64_seed();                     // _BaseDataLoaderIter.__init__: self._base_seed (unused with no workers)
  const int64_t seed = draw_int64_seed();  // RandomSampler.__iter__
  auto gen = at::detail::createCPUGenerator(static_cast<uint64_t>(seed));
  const torch::Tensor perm = torch::randperm(n_, gen, torch::kLong);
  std::vector<torch::Tensor> batches;
  for (int64_t start = 0; start < n_; start += batch_size_) {
    const int64_t end = std::min(start + batch_size_, n_);
    if (drop_last_ && end - start < batch_size_) break;
    batches.push_back(perm.slice(0, start, end));
  }
  return batches;
}

int64_t ShuffledBatches::batches_per_epoch() const {
  return drop_last_ ? n_ / batch_size_ : (n_ + batch_size_ - 1) / batch_size_;
}

}  // namespace trainproof
