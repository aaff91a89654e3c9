// Test support: a parameter's text as a GoogleTest name (letters, digits and '_' only).
#pragma once

#include <cctype>
#include <string>

namespace trainproof::testing {

inline std::string test_name(std::string text) {
  for (auto& ch : text)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return text;
}

}  // namespace trainproof::testing
