// Building traces.
#include "trainproof/core/trace.h"

#include <stdexcept>

namespace trainproof {
namespace {
void require_new(const Trace& t, const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos)
    throw std::invalid_argument("series name must be non-empty and contain no '/': '" + name + "'");
  if (t.find(name)) throw std::invalid_argument("series '" + name + "' recorded twice");
}
}  // namespace

Series& Trace::add(std::string name, DType produced, std::vector<double> values, Tolerance tol, std::string unit) {
  require_new(*this, name);
  if (is_integer(produced)) throw std::invalid_argument("series '" + name + "': add() takes float dtypes");
  series.push_back(Series{
      std::move(name), produced, std::move(values), {}, tol, tol, std::move(unit), std::nullopt, std::nullopt, {}});
  return series.back();
}

Series& Trace::add_ints(std::string name, DType produced, std::vector<int64_t> values, Tolerance tol,
                        std::string unit) {
  require_new(*this, name);
  if (!is_integer(produced)) throw std::invalid_argument("series '" + name + "': add_ints() takes integer dtypes");
  series.push_back(Series{
      std::move(name), produced, {}, std::move(values), tol, tol, std::move(unit), std::nullopt, std::nullopt, {}});
  return series.back();
}

void Trace::check(std::string name, bool held, std::string detail) {
  invariants.push_back(Invariant{std::move(name), held, std::move(detail)});
}

void Trace::differ_across_devices(const std::string& why) {
  for (auto& s : series)
    if (!s.cross.is_any() && s.across_devices.empty()) s.across_devices = why;
}

const Series* Trace::find(const std::string& name) const {
  for (const auto& s : series)
    if (s.name == name) return &s;
  return nullptr;
}

const char* run_status_text(RunStatus s) {
  switch (s) {
    case RunStatus::kOk:
      return "ok";
    case RunStatus::kSkipped:
      return "skipped";
    case RunStatus::kError:
      return "error";
  }
  return "?";
}

std::optional<RunStatus> run_status_from_text(const std::string& text) {
  for (RunStatus s : {RunStatus::kOk, RunStatus::kSkipped, RunStatus::kError})
    if (text == run_status_text(s)) return s;
  return std::nullopt;
}

}  // namespace trainproof
