// Bit-exact trace JSON (trace_json.h).
#include "src/core/trace_json.h"

#include <bit>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"

namespace trainproof {

nlohmann::json trace_to_json(const Trace& t) {
  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : t.series) {
    nlohmann::json js = {{"name", s.name},
                         {"dtype", std::string(dtype_name(s.produced))},
                         {"tolerance", s.tolerance.str()},
                         {"cross", s.cross.str()},
                         {"unit", s.unit}};
    if (s.ceiling) js["ceiling"] = s.ceiling->str();
    if (!s.across_devices.empty()) js["across_devices"] = s.across_devices;
    if (is_integer(s.produced)) {
      js["ints"] = s.ints;
    } else {
      std::vector<uint64_t> bits(s.values.size());
      for (size_t i = 0; i < bits.size(); ++i) bits[i] = std::bit_cast<uint64_t>(s.values[i]);
      js["bits"] = bits;
    }
    series.push_back(std::move(js));
  }
  nlohmann::json inv = nlohmann::json::array();
  for (const auto& i : t.invariants) inv.push_back({{"name", i.name}, {"held", i.held}, {"detail", i.detail}});
  return {{"series", series}, {"invariants", inv}, {"output", t.output}};
}

Trace trace_from_json(const nlohmann::json& j, const std::string& where) {
  try {
    Trace t;
    t.output = j.at("output").get<std::string>();
    for (const auto& js : j.at("series")) {
      const std::string name = js.at("name").get<std::string>();
      const auto dtype = dtype_from_name(js.at("dtype").get<std::string>());
      if (!dtype) throw BadInput(fmt::format("{}: series '{}': unknown dtype", where, name));
      const Tolerance tol = Tolerance::parse(js.at("tolerance").get<std::string>());
      Series* s = nullptr;
      if (is_integer(*dtype)) {
        s = &t.add_ints(name, *dtype, js.at("ints").get<std::vector<int64_t>>(), tol, js.at("unit").get<std::string>());
      } else {
        std::vector<double> v;
        for (const auto& b : js.at("bits")) v.push_back(std::bit_cast<double>(b.get<uint64_t>()));
        s = &t.add(name, *dtype, std::move(v), tol, js.at("unit").get<std::string>());
      }
      s->cross = Tolerance::parse(js.at("cross").get<std::string>());
      if (js.contains("ceiling")) s->ceiling = Tolerance::parse(js.at("ceiling").get<std::string>());
      s->across_devices = js.value("across_devices", "");
    }
    for (const auto& ji : j.at("invariants"))
      t.check(ji.at("name").get<std::string>(), ji.at("held").get<bool>(), ji.at("detail").get<std::string>());
    return t;
  } catch (const BadInput&) {
    throw;
  } catch (const std::exception& e) {  // json type/key errors, tolerance parse errors
    throw BadInput(fmt::format("{}: malformed trace: {}", where, e.what()));
  }
}

void write_recording(const std::filesystem::path& path, const Recording& r) {
  nlohmann::json scenarios = nlohmann::json::object();
  for (const auto& [name, rec] : r.scenarios) {
    nlohmann::json js = {{"status", run_status_text(rec.status)}, {"reason", rec.reason}};
    if (rec.status == RunStatus::kOk) js["trace"] = trace_to_json(rec.trace);
    scenarios[name] = std::move(js);
  }
  const nlohmann::json j = {{"fingerprint", r.fingerprint}, {"scenarios", scenarios}};
  atomic_write_bytes(path, j.dump());
}

Recording read_recording(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw BadInput(fmt::format("{}: cannot open the recording", path.string()));
  std::stringstream text;
  text << in.rdbuf();
  const auto j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw BadInput(fmt::format("{}: not a JSON recording", path.string()));
  Recording r;
  try {
    r.fingerprint = j.at("fingerprint").get<std::string>();
    for (const auto& [name, js] : j.at("scenarios").items()) {
      ScenarioRecord rec;
      const auto status = run_status_from_text(js.at("status").get<std::string>());
      if (!status)
        throw BadInput(fmt::format("{}: {}: unknown status {}", path.string(), name, js.at("status").dump()));
      rec.status = *status;
      rec.reason = js.at("reason").get<std::string>();
      if (rec.status == RunStatus::kOk) rec.trace = trace_from_json(js.at("trace"), path.string() + ": " + name);
      r.scenarios.emplace(name, std::move(rec));
    }
  } catch (const BadInput&) {
    throw;
  } catch (const std::exception& e) {
    throw BadInput(fmt::format("{}: malformed recording: {}", path.string(), e.what()));
  }
  return r;
}

}  // namespace trainproof
