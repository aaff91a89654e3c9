// The probe's records read as paths and steps: shared by the findings (resume_findings.cpp,
// script_findings.cpp). Internal to src/check.
#pragma once

#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "trainproof/core/recorded_trace.h"

namespace trainproof::probe_records {

inline std::string parent_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}
inline std::string name_of(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

// Whether a folder's name holds the number `n` on its own ("checkpoint-8", "step_8.tmp" for 8):
// the step a restart reads back from the name (Trainer's get_last_checkpoint does).
inline bool names_number(const std::string& name, int64_t n) {
  const std::string digits = std::to_string(n);
  for (size_t at = name.find(digits); at != std::string::npos; at = name.find(digits, at + 1)) {
    const bool before = at == 0 || !std::isdigit(static_cast<unsigned char>(name[at - 1]));
    const size_t end = at + digits.size();
    const bool after = end == name.size() || !std::isdigit(static_cast<unsigned char>(name[end]));
    if (before && after) return true;
  }
  return false;
}

// The start a trace's probe records begin in: its first start that recorded a step (1 where none did).
inline int first_start(const RecordedTrace& t) {
  return t.probe.empty() ? 1 : t.probe.front().start;
}

// A fact's field as text, or `fallback` where the fact has none.
inline std::string data_or(const ProbeFact& f, const std::string& key, const std::string& fallback = "") {
  const auto it = f.data.find(key);
  return it == f.data.end() ? fallback : it->second;
}

inline std::vector<const ProbeStep*> steps_of_start(const RecordedTrace& t, int start) {
  std::vector<const ProbeStep*> out;
  for (const auto& p : t.probe)
    if (p.start == start) out.push_back(&p);
  return out;
}

}  // namespace trainproof::probe_records
