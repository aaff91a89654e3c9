// checkpoint(): a custom autograd function in the manner of torch/utils/checkpoint.py's
// CheckpointFunction (the reentrant variant); CpuMemoryMeter: a counting CPU allocator.
#include "trainproof/training/activation_checkpoint.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>

#include <c10/core/CPUAllocator.h>
#include <c10/core/CachingDeviceAllocator.h>

#include "trainproof/core/fault.h"

namespace trainproof {
namespace {

struct SegmentState : torch::CustomClassHolder {
  Segment segment;
  bool preserve_rng_state = true;
  torch::Tensor cpu_rng_state;
  std::optional<c10::Device> device;  // an accelerator whose generator the segment may draw from
  torch::Tensor device_rng_state;
};

// The state of a generator (at::Generator is a handle to the shared one), under its lock.
torch::Tensor state_of(at::Generator gen) {
  std::lock_guard<std::mutex> lock(gen.mutex());
  return gen.get_state();
}
void restore(at::Generator gen, const torch::Tensor& state) {
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_state(state);
}

// Restores the random state a segment saw at its forward pass, and afterwards the state the
// backward pass had (PyTorch's torch.random.fork_rng).
class ForkRng {
 public:
  explicit ForkRng(const SegmentState& s) : s_(s) {
    if (!s_.preserve_rng_state) return;
    cpu_before_ = state_of(at::detail::getDefaultCPUGenerator());
    restore(at::detail::getDefaultCPUGenerator(), s_.cpu_rng_state);
    if (s_.device) {
      device_before_ = state_of(at::globalContext().defaultGenerator(*s_.device));
      restore(at::globalContext().defaultGenerator(*s_.device), s_.device_rng_state);
    }
  }
  ~ForkRng() {
    if (!s_.preserve_rng_state) return;
    restore(at::detail::getDefaultCPUGenerator(), cpu_before_);
    if (s_.device) restore(at::globalContext().defaultGenerator(*s_.device), device_before_);
  }
  ForkRng(const ForkRng&) = delete;
  ForkRng& operator=(const ForkRng&) = delete;

 private:
  const SegmentState& s_;
  torch::Tensor cpu_before_, device_before_;
};

class CheckpointFunction : public torch::autograd::Function<CheckpointFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, c10::intrusive_ptr<SegmentState> state,
                               const torch::Tensor& input) {
    if (state->preserve_rng_state) {
      state->cpu_rng_state = state_of(at::detail::getDefaultCPUGenerator());
      if (!input.device().is_cpu()) {
        state->device = input.device();
        state->device_rng_state = state_of(at::globalContext().defaultGenerator(input.device()));
      }
    }
    ctx->saved_data["state"] = c10::IValue::make_capsule(state);
    ctx->save_for_backward({input});  // the only activation the segment keeps
    torch::NoGradGuard no_grad;
    return state->segment(input);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    const auto state = c10::static_intrusive_pointer_cast<SegmentState>(ctx->saved_data["state"].toCapsule());
    const auto input = ctx->get_saved_variables()[0];
    auto x = input.detach().requires_grad_(input.requires_grad());
    torch::Tensor out;
    {
      ForkRng fork(*state);
      torch::AutoGradMode enable_grad(true);
      out = state->segment(x);
    }
    torch::autograd::backward({out}, {grad_outputs[0]});
    return {torch::Tensor(), x.requires_grad() ? x.grad() : torch::Tensor()};
  }
};

// Counts the bytes of every live CPU allocation and forwards to the allocator it replaced.
// Its DataPtrs have data == context, as LibTorch's raw_allocate (oneDNN, MKL scratch) requires.
class CountingAllocator final : public c10::Allocator {
 public:
  explicit CountingAllocator(c10::Allocator* inner) : inner_(inner) {}

  c10::DataPtr allocate(size_t n) override {
    c10::DataPtr inner = inner_->allocate(n);
    void* data = inner.get();
    if (!data) return inner;  // zero bytes: nothing to count
    const auto device = inner.device();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      held_.emplace(data, Held{std::move(inner), n});
    }
    const int64_t now = live_ += static_cast<int64_t>(n);
    int64_t peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
    return {data, data, &release, device};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release; }
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }

  int64_t live() const { return live_.load(); }
  int64_t peak() const { return peak_.load(); }
  void reset_peak() { peak_ = live_.load(); }
  c10::Allocator* inner() const { return inner_; }

  static CountingAllocator& instance() {
    static auto* counter = new CountingAllocator(c10::GetCPUAllocator());  // outlives the tensors it made
    return *counter;
  }

 private:
  struct Held {
    c10::DataPtr inner;  // frees the memory through the allocator that made it
    size_t bytes;
  };
  static void release(void* data) {
    CountingAllocator& self = instance();
    Held h;
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      auto it = self.held_.find(data);
      if (it == self.held_.end()) return;
      h = std::move(it->second);
      self.held_.erase(it);
    }
    self.live_ -= static_cast<int64_t>(h.bytes);
  }

  c10::Allocator* inner_;
  std::mutex mutex_;
  std::unordered_map<void*, Held> held_;
  std::atomic<int64_t> live_{0}, peak_{0};
};

}  // namespace

torch::Tensor checkpoint(const Segment& segment, const torch::Tensor& input, bool preserve_rng_state) {
  auto state = c10::make_intrusive<SegmentState>();
  state->segment = segment;
  // The mistake the negative control makes: recompute with whatever random state is current.
  state->preserve_rng_state = preserve_rng_state && !fault_injected("checkpoint-forgets-rng-state");
  return CheckpointFunction::apply(state, input);
}

int64_t replay_state_bytes(c10::Device device) {
  return device.is_cpu() ? static_cast<int64_t>(state_of(at::detail::getDefaultCPUGenerator()).nbytes()) : 0;
}

namespace {
c10::CachingAllocator::Stat cuda_allocated(c10::Device device) {
  const auto stats = c10::getDeviceAllocator(c10::DeviceType::CUDA)->getDeviceStats(device.index());
  return stats.allocated_bytes[static_cast<size_t>(c10::CachingAllocator::StatType::AGGREGATE)];
}
}  // namespace

MemoryMeter::MemoryMeter(c10::Device device) : device_(device) {
  if (device_.is_cpu()) {
    // Counts only while a meter lives: every CPU allocation pays a lock while it does.
    CountingAllocator& counter = CountingAllocator::instance();
    if (c10::GetCPUAllocator() == &counter) throw std::logic_error("MemoryMeter: one CPU meter at a time");
    c10::SetCPUAllocator(&counter, /*priority=*/100);
    counter.reset_peak();
  } else if (device_.is_cuda()) {
    if (!device_.has_index()) device_ = c10::Device(c10::DeviceType::CUDA, 0);
    c10::getDeviceAllocator(c10::DeviceType::CUDA)->resetPeakStats(device_.index());
  } else {
    throw std::invalid_argument("MemoryMeter: no memory statistics for device " + device_.str());
  }
}
MemoryMeter::~MemoryMeter() {
  // Tensors it counted are freed later through the counter, which forwards to this allocator.
  if (device_.is_cpu()) c10::SetCPUAllocator(CountingAllocator::instance().inner(), /*priority=*/100);
}
int64_t MemoryMeter::live() const {
  return device_.is_cpu() ? CountingAllocator::instance().live() : cuda_allocated(device_).current;
}
int64_t MemoryMeter::peak() const {
  return device_.is_cpu() ? CountingAllocator::instance().peak() : cuda_allocated(device_).peak;
}

}  // namespace trainproof
