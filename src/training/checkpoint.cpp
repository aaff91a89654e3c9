// The checkpoint container: its keys and values, its file format, checked as it is read.
#include "trainproof/training/checkpoint.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <torch/cuda.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>

#include <fmt/format.h>

#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/fault.h"
#include "trainproof/core/hash.h"

namespace trainproof {
namespace {

constexpr char kMagic[16] = {'T', 'R', 'A', 'I', 'N', 'P', 'R', 'O', 'O', 'F', '-', 'C', 'K', 'P', 'T', '1'};
constexpr size_t kHeader = 16 + 8 + 8;  // magic, payload size, checksum
constexpr uint32_t kMaxEntries = 1u << 20;
constexpr uint32_t kMaxName = 4096;
constexpr uint8_t kMaxDims = 8;
enum Kind : uint8_t { kTensor = 0, kInt = 1, kReal = 2, kText = 3 };

// The dtypes a checkpoint may hold, by their c10 code.
bool allowed_dtype(c10::ScalarType t) {
  switch (t) {
    case c10::kByte:
    case c10::kChar:
    case c10::kShort:
    case c10::kInt:
    case c10::kLong:
    case c10::kHalf:
    case c10::kFloat:
    case c10::kDouble:
    case c10::kBool:
    case c10::kBFloat16:
      return true;
    default:
      return false;
  }
}

template <class T>
void put_raw(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Reads from the payload; every read is bounds-checked and failures name the source.
class Reader {
 public:
  Reader(std::string_view b, const std::string& source) : b_(b), source_(source) {}
  template <class T>
  T raw(const char* what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, b_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::string_view bytes(uint64_t n, const char* what) {
    need(n, what);
    auto s = b_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  void need(uint64_t n, const char* what) const {
    if (n > b_.size() - pos_) fail(fmt::format("truncated while reading {} at byte {}", what, kHeader + pos_));
  }
  bool done() const { return pos_ == b_.size(); }
  [[noreturn]] void fail(const std::string& problem) const {
    throw BadInput(fmt::format("{}: damaged checkpoint: {}", source_, problem));
  }

 private:
  std::string_view b_;
  const std::string& source_;
  size_t pos_ = 0;
};

}  // namespace

uint64_t checkpoint_checksum(std::string_view payload) {
  return fnv1a64(payload);
}

std::string checkpoint_file_from_payload(std::string_view payload) {
  std::string out(kMagic, sizeof kMagic);
  put_raw<uint64_t>(out, payload.size());
  put_raw<uint64_t>(out, checkpoint_checksum(payload));
  out.append(payload);
  return out;
}

void Checkpoint::put(const std::string& key, const torch::Tensor& t) {
  entries_[key] = t.detach().to(torch::kCPU).contiguous().clone();
}

const Checkpoint::Value& Checkpoint::get(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) throw BadInput(fmt::format("{}: checkpoint has no entry '{}'", source_, key));
  return it->second;
}

#define TRAINPROOF_CHECKPOINT_GETTER(RET, NAME, TYPE, KIND)                                         \
  RET Checkpoint::NAME(const std::string& key) const {                                              \
    const auto* v = std::get_if<TYPE>(&get(key));                                                   \
    if (!v) throw BadInput(fmt::format("{}: checkpoint entry '{}' is not {}", source_, key, KIND)); \
    return *v;                                                                                      \
  }
TRAINPROOF_CHECKPOINT_GETTER(const torch::Tensor&, tensor, torch::Tensor, "a tensor")
TRAINPROOF_CHECKPOINT_GETTER(int64_t, integer, int64_t, "an integer")
TRAINPROOF_CHECKPOINT_GETTER(double, real, double, "a real number")
TRAINPROOF_CHECKPOINT_GETTER(const std::string&, text, std::string, "a string")
#undef TRAINPROOF_CHECKPOINT_GETTER

std::vector<std::string> Checkpoint::keys() const {
  std::vector<std::string> k;
  for (const auto& [key, v] : entries_) k.push_back(key);
  return k;
}

std::string Checkpoint::serialize() const {
  std::string p;
  put_raw<uint32_t>(p, static_cast<uint32_t>(entries_.size()));
  for (const auto& [key, value] : entries_) {
    put_raw<uint16_t>(p, static_cast<uint16_t>(key.size()));
    p += key;
    if (const auto* t = std::get_if<torch::Tensor>(&value)) {
      put_raw<uint8_t>(p, kTensor);
      put_raw<uint8_t>(p, static_cast<uint8_t>(t->scalar_type()));
      put_raw<uint8_t>(p, static_cast<uint8_t>(t->dim()));
      for (int64_t d : t->sizes()) put_raw<int64_t>(p, d);
      const uint64_t n = t->numel() * t->element_size();
      put_raw<uint64_t>(p, n);
      p.append(static_cast<const char*>(t->data_ptr()), n);
    } else if (const auto* i = std::get_if<int64_t>(&value)) {
      put_raw<uint8_t>(p, kInt);
      put_raw<int64_t>(p, *i);
    } else if (const auto* d = std::get_if<double>(&value)) {
      put_raw<uint8_t>(p, kReal);
      put_raw<double>(p, *d);
    } else {
      const auto& s = std::get<std::string>(value);
      put_raw<uint8_t>(p, kText);
      put_raw<uint32_t>(p, static_cast<uint32_t>(s.size()));
      p += s;
    }
  }
  return checkpoint_file_from_payload(p);
}

Checkpoint Checkpoint::deserialize(std::string_view bytes, const std::string& source) {
  Checkpoint ck;
  ck.source_ = source;
  Reader header(bytes, source);
  if (bytes.size() < kHeader)
    header.fail(fmt::format("file is {} bytes, shorter than the {}-byte header", bytes.size(), kHeader));
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) header.fail("not a trainproof checkpoint (bad magic)");
  uint64_t size, sum;
  std::memcpy(&size, bytes.data() + 16, 8);
  std::memcpy(&sum, bytes.data() + 24, 8);
  const std::string_view payload = bytes.substr(kHeader);
  if (size != payload.size())
    header.fail(
        fmt::format("header says {} payload bytes, file holds {} (truncated or extended)", size, payload.size()));
  if (checkpoint_checksum(payload) != sum) header.fail("checksum mismatch (the contents were altered)");

  Reader r(payload, source);
  const auto count = r.raw<uint32_t>("entry count");
  if (count > kMaxEntries) r.fail(fmt::format("implausible entry count {}", count));
  for (uint32_t e = 0; e < count; ++e) {
    const auto name_len = r.raw<uint16_t>("entry name length");
    if (name_len == 0 || name_len > kMaxName) r.fail(fmt::format("entry {} has a bad name length {}", e, name_len));
    const std::string key(r.bytes(name_len, "entry name"));
    if (std::any_of(key.begin(), key.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
      r.fail(fmt::format("entry {} has a name with control characters", e));
    if (ck.entries_.count(key)) r.fail(fmt::format("entry '{}' appears twice", key));
    const auto kind = r.raw<uint8_t>("entry kind");
    if (kind == kTensor) {
      const auto dtype = static_cast<c10::ScalarType>(r.raw<uint8_t>("tensor dtype"));
      if (!allowed_dtype(dtype))
        r.fail(fmt::format("entry '{}' has an unsupported dtype code {}", key, static_cast<int>(dtype)));
      const auto ndim = r.raw<uint8_t>("tensor rank");
      if (ndim > kMaxDims) r.fail(fmt::format("entry '{}' has rank {} (max {})", key, ndim, kMaxDims));
      std::vector<int64_t> dims(ndim);
      // Bound every dimension and the product of the non-zero ones (the strides LibTorch
      // computes), not just numel: a zero dimension makes numel 0 whatever the others are.
      uint64_t numel = 1, strides = 1;
      for (auto& d : dims) {
        d = r.raw<int64_t>("tensor dims");
        const uint64_t ud = static_cast<uint64_t>(d);
        if (d < 0 || ud > kMaxCheckpointBytes || (d > 0 && strides > kMaxCheckpointBytes / ud))
          r.fail(fmt::format("entry '{}' has an implausible shape", key));
        if (d > 0) strides *= ud;
        numel *= ud;
      }
      const auto nbytes = r.raw<uint64_t>("tensor byte count");
      if (nbytes != numel * c10::elementSize(dtype))
        r.fail(fmt::format("entry '{}' declares {} bytes for {} elements of {}", key, nbytes, numel,
                           c10::toString(dtype)));
      const auto data = r.bytes(nbytes, "tensor data");
      torch::Tensor t;
      try {
        t = torch::empty(dims, torch::TensorOptions().dtype(dtype));
      } catch (const c10::Error& err) {  // any shape LibTorch refuses is a damaged file too
        r.fail(fmt::format("entry '{}': {}", key, err.what_without_backtrace()));
      }
      if (nbytes) std::memcpy(t.data_ptr(), data.data(), nbytes);
      ck.entries_[key] = t;
    } else if (kind == kInt) {
      ck.entries_[key] = r.raw<int64_t>("integer");
    } else if (kind == kReal) {
      ck.entries_[key] = r.raw<double>("real");
    } else if (kind == kText) {
      const auto n = r.raw<uint32_t>("string length");
      ck.entries_[key] = std::string(r.bytes(n, "string"));
    } else {
      r.fail(fmt::format("entry '{}' has an unknown kind {}", key, kind));
    }
  }
  if (!r.done()) r.fail("trailing bytes after the last entry");
  return ck;
}

void Checkpoint::save(const std::filesystem::path& path) const {
  atomic_write_bytes(path, serialize());
}

Checkpoint Checkpoint::load(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw BadInput(fmt::format("{}: checkpoint not found", path.string()));
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxCheckpointBytes)
    throw BadInput(fmt::format("{}: checkpoint size {} is unreadable or over the limit", path.string(), size));
  std::ifstream in(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!in.read(bytes.data(), static_cast<std::streamsize>(size)))
    throw BadInput(fmt::format("{}: cannot read checkpoint", path.string()));
  return deserialize(bytes, path.string());
}

}  // namespace trainproof
