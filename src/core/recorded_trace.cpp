// Recorded traces: the reader that tolerates a torn tail and nothing else, and the recorder.
#include "trainproof/core/recorded_trace.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trainproof/core/compare.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/hash.h"

namespace trainproof {

namespace {

constexpr std::string_view kHeader = "TPTRACE 1\n";

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string digest(std::string_view payload) {
  return fmt::format("{:016x}", fnv1a64(payload));
}

std::vector<float> floats_from_hex(const std::string& hex, const std::string& where) {
  if (hex.size() % 8 != 0) throw BadInput(fmt::format("{}: parameter bytes are not whole float32 values", where));
  std::vector<float> out(hex.size() / 8);
  auto nibble = [&](char c) -> uint8_t {
    if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
    throw BadInput(fmt::format("{}: parameter bytes are not hex", where));
  };
  for (size_t i = 0; i < out.size(); ++i) {
    uint8_t b[4];
    for (int k = 0; k < 4; ++k)
      b[k] = static_cast<uint8_t>(nibble(hex[8 * i + 2 * k]) << 4 | nibble(hex[8 * i + 2 * k + 1]));
    const uint32_t bits = uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
    std::memcpy(&out[i], &bits, 4);
  }
  return out;
}

double number(const nlohmann::json& v) {
  if (v.is_number()) return v.get<double>();
  const std::string s = v.get<std::string>();  // non-finite values travel as Python's repr
  if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s == "inf") return INFINITY;
  if (s == "-inf") return -INFINITY;
  throw std::invalid_argument("not a number: " + s);
}

}  // namespace

RecordedTrace read_recorded_trace(const std::filesystem::path& path) {
  if (!std::ifstream(path))
    throw BadInput(
        fmt::format("{}: no trace (the command recorded nothing; is TRAINPROOF_TRACE passed on?)", path.string()));
  const std::string data = slurp(path);
  if (data.compare(0, kHeader.size(), kHeader) != 0)
    throw BadInput(fmt::format("{}: not a trainproof trace (no 'TPTRACE 1' header)", path.string()));
  RecordedTrace r;
  size_t pos = kHeader.size(), index = 0;
  int launch = 0;  // the current start's, as check said it
  while (pos < data.size()) {
    ++index;
    const size_t nl = data.find('\n', pos);
    const std::string_view line(data.data() + pos, (nl == std::string::npos ? data.size() : nl) - pos);
    const bool last = nl == std::string::npos || nl + 1 == data.size();
    pos = nl == std::string::npos ? data.size() : nl + 1;
    const size_t tab = line.rfind('\t');
    const bool checked =
        nl != std::string::npos && tab != std::string_view::npos && line.substr(tab + 1) == digest(line.substr(0, tab));
    if (!checked) {
      if (last) {
        r.torn_tail = true;  // a writer killed in the middle of its last record
        break;
      }
      throw BadInput(fmt::format("{}: record {} is damaged (bad checksum or format)", path.string(), index));
    }
    const std::string where = fmt::format("{}: record {}", path.string(), index);
    try {
      const auto j = nlohmann::json::parse(line.substr(0, tab));
      const std::string kind = j.at("kind");
      if (kind == "log") {
        auto& step = r.steps[j.at("step").get<int64_t>()];
        step.clear();
        for (const auto& [k, v] : j.at("values").items()) step[k] = number(v);
      } else if (kind == "param") {
        r.params[j.at("name")] = floats_from_hex(j.at("bits"), where);
      } else if (kind == "start") {
        ++r.starts;
        launch = j.value("launch", 0);
        r.process = j.value("process", "");
        if (r.env.empty() && j.contains("env") && j.at("env").is_object())
          for (const auto& [k, v] : j.at("env").items()) r.env[k] = v.is_string() ? v.get<std::string>() : v.dump();
      } else if (kind == "probe") {
        ProbeStep p;
        p.start = r.starts;
        p.seq = j.at("seq").get<int64_t>();
        for (const auto& [k, v] : j.at("values").items()) p.values[k] = number(v);
        for (const auto& [k, v] : j.at("digests").items()) p.digests[k] = v.get<std::string>();
        if (j.contains("opt_step") && !j.at("opt_step").is_null()) p.opt_step = j.at("opt_step").get<int64_t>();
        p.where = j.value("where", "");
        p.launch = launch;
        if (j.contains("sums"))
          for (const auto& [k, v] : j.at("sums").items()) p.sums[k] = std::stoull(v.get<std::string>(), nullptr, 16);
        if (j.contains("samples"))
          for (const auto& v : j.at("samples")) p.samples.push_back(std::stoull(v.get<std::string>(), nullptr, 16));
        // A second optimizer's update in the same step (a GAN's G after its D): one step, the
        // second's values and digests its own series ("opt1.loss").
        if (!r.probe.empty() && r.probe.back().start == p.start && r.probe.back().seq == p.seq) {
          r.probe.back().values.insert(p.values.begin(), p.values.end());
          r.probe.back().digests.insert(p.digests.begin(), p.digests.end());
          r.probe.back().sums.insert(p.sums.begin(), p.sums.end());
        } else {
          r.probe.push_back(std::move(p));
        }
      } else if (kind == "save" || kind == "load") {
        ProbeFileOp f;
        f.kind = kind;
        f.start = r.starts;
        f.seq = j.at("seq").get<int64_t>();
        if (!j.at("path").is_null()) f.path = j.at("path").get<std::string>();
        f.existed = j.value("existed", false);
        if (j.contains("keys")) f.keys = j.at("keys").get<std::vector<std::string>>();
        f.where = j.value("where", "");
        f.checkpoint = j.value("checkpoint", false);
        if (j.contains("holds")) f.holds = j.at("holds").get<std::vector<std::string>>();
        if (j.contains("needs")) f.needs = j.at("needs").get<std::vector<std::string>>();
        if (j.contains("weights_only"))
          f.weights_only =
              j.at("weights_only").is_string() ? j.at("weights_only").get<std::string>() : j.at("weights_only").dump();
        f.dcp = j.value("dcp", false);
        f.complete = j.value("complete", false);
        r.file_ops.push_back(std::move(f));
      } else if (kind == "op") {
        r.ops.push_back({j.at("seq").get<int64_t>(), j.at("i").get<int64_t>(), j.at("op").get<std::string>(),
                         j.at("in").get<std::string>(), j.at("out").get<std::string>(), j.value("where", "")});
      } else if (kind == "fact") {
        ProbeFact f;
        f.fact = j.at("fact").get<std::string>();
        f.start = r.starts;
        f.seq = j.at("seq").get<int64_t>();
        if (j.at("where").is_string()) f.where = j.at("where").get<std::string>();
        for (const auto& [k, v] : j.at("data").items()) f.data[k] = v.is_string() ? v.get<std::string>() : v.dump();
        r.facts.push_back(std::move(f));
      } else if (kind == "final") {
        r.final_digests = j.at("digests").get<std::map<std::string, std::string>>();
      } else {
        throw std::invalid_argument("unknown kind '" + kind + "'");
      }
    } catch (const BadInput&) {
      throw;
    } catch (const std::exception& e) {
      throw BadInput(fmt::format("{}: {}", where, e.what()));
    }
    ++r.records;
  }
  r.steps_from_probe = r.steps.empty() && !r.probe.empty();
  if (r.steps_from_probe)
    for (const auto& p : r.probe) r.steps[p.opt_step ? *p.opt_step + 1 : p.seq] = p.values;
  return r;
}

std::map<std::string, RecordedTrace> read_process_traces(const std::filesystem::path& path) {
  std::map<std::string, RecordedTrace> out;
  if (std::ifstream(path)) {
    RecordedTrace main = read_recorded_trace(path);
    const std::string who = main.process;
    out.emplace(who, std::move(main));
  }
  const std::string prefix = path.filename().string() + ".";
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(path.parent_path(), ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 && e.is_regular_file())
      out.emplace(name.substr(prefix.size()), read_recorded_trace(e.path()));
  }
  return out;
}

std::vector<int64_t> logged_steps_from(const std::filesystem::path& path, size_t offset) {
  const std::string data = slurp(path);
  std::vector<int64_t> steps;
  for (size_t pos = std::max(offset, kHeader.size()); pos < data.size();) {
    const size_t nl = data.find('\n', pos);
    if (nl == std::string::npos) break;
    const std::string_view line(data.data() + pos, nl - pos);
    pos = nl + 1;
    const size_t tab = line.rfind('\t');
    if (tab == std::string_view::npos || line.substr(tab + 1) != digest(line.substr(0, tab))) continue;
    const auto j = nlohmann::json::parse(line.substr(0, tab), nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.value("kind", "") == "log" && j.contains("step") && j["step"].is_number_integer())
      steps.push_back(j["step"].get<int64_t>());
  }
  return steps;
}

size_t StepTally::now() {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return count();
  in.seekg(0, std::ios::end);
  const auto size = static_cast<uintmax_t>(in.tellg());
  if (size < offset_) {  // replaced or truncated: from the start again
    offset_ = 0;
    logged_.clear();
    probed_.clear();
  }
  if (size == offset_) return count();
  std::string chunk(size - offset_, '\0');
  in.seekg(static_cast<std::streamoff>(offset_));
  in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  chunk.resize(static_cast<size_t>(in.gcount()));
  size_t pos = 0;
  if (offset_ == 0) {
    if (chunk.size() < kHeader.size() || chunk.compare(0, kHeader.size(), kHeader) != 0) return count();
    pos = kHeader.size();
  }
  for (size_t nl; (nl = chunk.find('\n', pos)) != std::string::npos; pos = nl + 1) {
    const std::string_view line(chunk.data() + pos, nl - pos);
    const size_t tab = line.rfind('\t');
    if (tab == std::string_view::npos || line.substr(tab + 1) != digest(line.substr(0, tab))) continue;
    const auto j = nlohmann::json::parse(line.substr(0, tab), nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) continue;
    const std::string kind = j.value("kind", "");
    if (kind == "log" && j.contains("step") && j["step"].is_number_integer()) {
      logged_.insert(j["step"].get<int64_t>());
    } else if (kind == "probe" && j.contains("seq") && j["seq"].is_number_integer()) {
      const bool counter = j.contains("opt_step") && j["opt_step"].is_number_integer();
      probed_.insert(counter ? j["opt_step"].get<int64_t>() + 1 : j["seq"].get<int64_t>());
    }
  }
  offset_ += pos;
  return count();
}

size_t complete_size(const std::filesystem::path& path) {
  const std::string data = slurp(path);
  const size_t nl = data.rfind('\n');
  return nl == std::string::npos ? 0 : nl + 1;
}

Trace to_trace(const RecordedTrace& r) {
  Trace t;
  std::vector<int64_t> steps;
  std::map<std::string, std::vector<double>> scalars;
  for (const auto& [step, values] : r.steps)
    for (const auto& [k, v] : values) scalars[k];
  for (const auto& [step, values] : r.steps) {
    steps.push_back(step);
    for (auto& [k, column] : scalars) {
      auto it = values.find(k);
      column.push_back(it == values.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
    }
  }
  t.add_ints("step", DType::kInt64, steps);
  for (auto& [k, column] : scalars) t.add(k, DType::kFloat64, std::move(column), Tolerance::exact().nan_ok());
  for (const auto& [name, values] : r.params) t.add("param." + name, DType::kFloat32, {values.begin(), values.end()});
  return t;
}

// Where two traces first differ: the step (for per-step series) or the parameter, and the values.
std::string first_difference(const RecordedTrace& a, const RecordedTrace& b) {
  const Trace ta = to_trace(a), tb = to_trace(b);
  std::vector<int64_t> steps;
  for (const auto& [s, v] : a.steps) steps.push_back(s);
  for (const auto& c : compare_traces(ta, tb, /*cross_environment=*/false)) {
    if (c.passed()) continue;
    if (c.series.rfind("param.", 0) == 0)
      return fmt::format("final parameter {} differs ({})", c.series.substr(6), c.detail);
    const size_t i = static_cast<size_t>(std::max<int64_t>(c.first_divergence, 0));
    // Two values that differ: a series that only ends early or runs longer has none at its first
    // missing step (its golden and observed values are not set there), so it says how long each is.
    if (c.first_divergence >= 0 && i < steps.size() && i < std::min(c.golden_size, c.observed_size))
      return fmt::format("first at step {} in '{}': {:.9g} vs {:.9g}", steps[i], c.series, c.golden_value,
                         c.observed_value);
    if (c.verdict == Verdict::kLengthMismatch && i < steps.size())
      return fmt::format("from step {} in '{}': {} values against {}, none to compare there", steps[i], c.series,
                         c.golden_size, c.observed_size);
    return fmt::format("'{}': {}", c.series, c.detail);
  }
  return "";
}

Recorder::Recorder() {
  const char* env = std::getenv("TRAINPROOF_TRACE");
  if (env && *env) open(env);
}

Recorder::Recorder(const std::filesystem::path& path) {
  open(path);
}

void Recorder::open(const std::filesystem::path& path) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw BadInput(fmt::format("{}: cannot open the trace: {}", path.string(), std::strerror(errno)));
  const off_t size = ::lseek(fd_, 0, SEEK_END);
  if (size == 0) {
    if (::write(fd_, kHeader.data(), kHeader.size()) < 0)
      throw BadInput(fmt::format("{}: cannot write the trace: {}", path.string(), std::strerror(errno)));
    return;
  }
  // A restart after a SIGKILL: drop a torn last record before appending to the file.
  const size_t end = complete_size(path);
  if (end < static_cast<size_t>(size) && ::ftruncate(fd_, static_cast<off_t>(end)) != 0)
    throw BadInput(fmt::format("{}: cannot drop the torn record: {}", path.string(), std::strerror(errno)));
}

Recorder::~Recorder() {
  close();
}

void Recorder::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void Recorder::append(const std::string& json) {
  if (fd_ < 0) return;
  const std::string line = json + "\t" + digest(json) + "\n";
  if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()) || ::fsync(fd_) != 0)
    throw BadInput(fmt::format("{}: cannot write the trace: {}", path_.string(), std::strerror(errno)));
}

void Recorder::log(int64_t step, const std::map<std::string, double>& scalars) {
  if (fd_ < 0) return;
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [k, v] : scalars)
    values[k] = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
  append(nlohmann::json{{"kind", "log"}, {"step", step}, {"values", values}}.dump());
}

void Recorder::param(const std::string& name, const std::vector<float>& values, const std::vector<int64_t>& shape) {
  if (fd_ < 0) return;
  std::string hex;
  hex.reserve(values.size() * 8);
  for (float f : values) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int k = 0; k < 4; ++k) hex += fmt::format("{:02x}", (bits >> (8 * k)) & 0xff);
  }
  append(
      nlohmann::json{{"kind", "param"}, {"name", name}, {"dtype", "float32"}, {"shape", shape}, {"bits", hex}}.dump());
}

}  // namespace trainproof
