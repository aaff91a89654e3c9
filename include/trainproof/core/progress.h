// Progress of long work, for the person waiting on it. Nothing below the CLI prints: verify,
// regen, record, the path matrix and check hand their progress to a sink the CLI gives them
// (it writes it to stderr as it comes); a library caller that gives none sees none.
#pragma once

#include <functional>
#include <string>

namespace trainproof {

// Text as it comes, newlines included: "[3/24] warmup on cpu ... " is finished by a later
// "ok (0.21 s)\n", so that a slow step shows what it is doing while it runs.
using ProgressSink = std::function<void(const std::string& text)>;

// Hands `text` to `sink`, where there is one.
inline void report_progress(const ProgressSink& sink, const std::string& text) {
  if (sink) sink(text);
}

}  // namespace trainproof
