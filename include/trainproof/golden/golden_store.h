// Golden traces in HDF5, schema version 2 (README "Golden file format"):
//   /                 attrs schema_version, scenario, trainproof_version, created_utc
//   /<device>/        attrs fingerprint (JSON), output (the printed lines), paths_measured (JSON)
//   /<device>/<name>  1-D dataset; attrs dtype_produced, tolerance, tolerance_cross, unit, and
//                     how tolerance_cross was measured: cross_spread_abs, cross_spread_rel,
//                     cross_safety_factor, cross_floor, cross_ceiling, cross_paths_differing
// Schema 1 (no measurement attributes, tolerance_cross declared by hand) is still read.
// Schema 3, written only for a band (`check --regen --band`): schema 2, each series the runs'
// mean, plus /<device>/band, attrs runs, varied; per series datasets "<name>.spread" (per
// step) and "<name>.finals" (per run), float64.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "trainproof/core/band.h"
#include "trainproof/core/trace.h"

namespace trainproof {

inline constexpr int64_t kGoldenSchemaVersion = 2;
inline constexpr int64_t kOldestGoldenSchemaVersion = 1;
inline constexpr int64_t kBandGoldenSchemaVersion = 3;
// Validation limits, checked before anything sized from the file is allocated.
inline constexpr uint64_t kMaxGoldenFileBytes = uint64_t{4} << 30;
inline constexpr uint64_t kMaxSeriesLength = uint64_t{1} << 28;
// The golden probe's limits for a file of `bytes` (read_golden): wall time 5 s plus 16 MB/s,
// so that a corrupt small file that makes libhdf5 spin is rejected in seconds and a valid
// large one is not cut off; memory 256 MiB plus 8 times the file (a valid golden reads in
// under 30 MiB; a float32 series is read as float, then double). TRAINPROOF_GOLDEN_PROBE_SECONDS
// replaces the 5 s (a positive number; the fuzz tests' hundreds of corrupt files take 1 s).
inline double golden_probe_seconds(uint64_t bytes) {
  const char* env = std::getenv("TRAINPROOF_GOLDEN_PROBE_SECONDS");
  const double set = env ? std::strtod(env, nullptr) : 0.0;
  return (set > 0 ? set : 5.0) + static_cast<double>(bytes) / 16e6;
}
inline uint64_t golden_probe_memory(uint64_t bytes) {
  return std::min<uint64_t>((uint64_t{256} << 20) + 8 * bytes, kMaxGoldenFileBytes * 4);
}

struct DeviceGolden {
  std::string fingerprint;     // JSON text
  Trace trace;                 // series and output; invariants are not stored
  std::string paths_measured;  // JSON: the execution paths regen ran ([] in schema 1)
  std::string forced;          // what `regen --force` overrode (empty: nothing)
  std::optional<Band> band;    // a band golden: `trace` is the runs' mean
};

struct GoldenFile {
  int64_t schema_version = kGoldenSchemaVersion;
  std::string scenario;
  std::string trainproof_version;
  std::string created_utc;
  std::map<std::string, DeviceGolden> devices;  // "cpu", "cuda"
};

// Reads and validates the whole file. Throws BadInput naming the file, the group or
// dataset, and the problem (missing, not HDF5, truncated, wrong schema, bad dtype, ...).
// The file is first read by trainproof-golden-probe, a program of its own (started with
// execve, time-limited by the file's size), so that a libhdf5 crash or hang on a hostile
// file is reported as BadInput instead of taking this process down.
GoldenFile read_golden(const std::filesystem::path& path);
// The same without the child (for callers that already isolate it, and the fuzzer's seed check).
GoldenFile read_golden_in_process(const std::filesystem::path& path);

// A golden, or why it could not be read (BadInput's message, naming the file).
struct GoldenRead {
  std::optional<GoldenFile> file;
  std::string error;
  // Its group for `device`, or null.
  const DeviceGolden* group(const std::string& device) const;
};
// The golden verify compares with: a missing file is an error too.
GoldenRead try_read_golden(const std::filesystem::path& path);
// The golden a regen replaces (regen and check --regen), read before anything is written: the
// baseline for what changed, and the groups of devices not run. No file: none, and no error.
// An unreadable file is replaced: none, and why in `error`.
GoldenRead read_old_golden(const std::filesystem::path& path);

// Writes atomically: an interrupted write leaves any previous file intact.
void write_golden(const std::filesystem::path& path, const GoldenFile& golden);

}  // namespace trainproof
