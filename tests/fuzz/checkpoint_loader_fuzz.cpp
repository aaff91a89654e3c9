// libFuzzer target: arbitrary bytes as a checkpoint. Checkpoint::deserialize must either
// return entries or throw BadInput; the loaders must reject what does not fit the model.
#include <cstdint>
#include <string>
#include <string_view>

#include <torch/torch.h>

#include "trainproof/core/errors.h"
#include "trainproof/training/checkpoint.h"

// The first byte chooses: odd, the rest is a whole file (header and checksum included);
// even, the rest is a payload wrapped in a valid header, so mutations reach the parser.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string bytes = data[0] & 1 ? std::string(rest) : trainproof::checkpoint_file_from_payload(rest);
  try {
    const auto ck = trainproof::Checkpoint::deserialize(bytes, "fuzz-input");
    static torch::nn::Linear model(4, 2);
    trainproof::load_module(ck, "model", *model);
  } catch (const trainproof::BadInput&) {
  }
  return 0;
}
