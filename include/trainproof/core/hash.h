// FNV-1a, 64 bit: the checksum of checkpoint payloads and of traced parameter bytes.
// Chain it by passing the previous result as `h`.
#pragma once

#include <cstdint>
#include <string_view>

namespace trainproof {

inline constexpr uint64_t kFnv1a64Offset = 1469598103934665603ull;

inline uint64_t fnv1a64(std::string_view bytes, uint64_t h = kFnv1a64Offset) {
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace trainproof
