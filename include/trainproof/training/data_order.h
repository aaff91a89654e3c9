// The batch order of DataLoader(dataset, batch_size, shuffle=True, num_workers=0),
// reproduced draw for draw: each epoch's iterator first draws its base seed (one int64
// from the global CPU generator), then RandomSampler draws its own seed (another int64)
// and permutes with torch.randperm(n, Generator(seed)).
#pragma once

#include <cstdint>
#include <vector>

#include <torch/torch.h>

namespace trainproof {

class ShuffledBatches {
 public:
  ShuffledBatches(int64_t dataset_size, int64_t batch_size, bool drop_last = false);

  // The index batches of the next epoch (advances the global generator as DataLoader does).
  std::vector<torch::Tensor> epoch() const;
  int64_t batches_per_epoch() const;

 private:
  int64_t n_, batch_size_;
  bool drop_last_;
};

}  // namespace trainproof
