// Reads TRAINPROOF_INJECT_FAULT (see fault.h).
#include "trainproof/core/fault.h"

#include <cstdlib>
#include <string>

namespace trainproof {

bool fault_injected(std::string_view name) {
  const char* env = std::getenv("TRAINPROOF_INJECT_FAULT");
  if (!env || !*env) return false;
  const std::string list = std::string(",") + env + ",";
  return list.find("," + std::string(name) + ",") != std::string::npos;
}

}  // namespace trainproof
