// The documents' real-world case: a text classifier trained with the modern loop
// (autocast, GradScaler, gradient accumulation, warmup-then-cosine per optimizer step,
// clipping after unscale, validation in eval mode under no-grad, best-checkpoint keeping,
// early stopping) that resumes exactly from its newest valid checkpoint, mid-epoch too.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <c10/core/Device.h>

namespace trainproof {

struct TextClfOptions {
  std::filesystem::path ckpt_dir;
  std::filesystem::path corpus = "/usr/share/games/fortunes";  // Debian package `fortunes`
  int64_t steps = 600;      // optimizer steps (early stopping usually ends it sooner)
  int64_t ckpt_every = 25;  // optimizer steps between checkpoints
  c10::Device device = c10::Device("cpu");
  std::string amp = "auto";  // auto (bf16 on CPU, fp16 + GradScaler on CUDA), bf16, fp16
  uint64_t seed = 0;
  // Negative controls for `trainproof preempt`: none, drop-optimizer, drop-scheduler,
  // drop-scaler, drop-rng, drop-data-position, non-atomic-save.
  std::string sabotage = "none";
};

// Trains (resuming if DIR holds a checkpoint) and writes DIR/final.tpck and DIR/best.tpck.
// Returns the exit code.
int train_textclf(const TextClfOptions& o);

// Why a preempted run's checkpoints differ from the uninterrupted run's, where the cause shows in
// them (empty when it does not): the pieces of state its checkpoints lack ("optimizer",
// "scheduler", "GradScaler", "RNG", ...), else a data position that differs at a step both saved.
// Compares the checkpoints the two folders hold at the same steps; a damaged one is skipped.
std::string resume_difference(const std::filesystem::path& uninterrupted, const std::filesystem::path& preempted);

}  // namespace trainproof
