// The HDF5 golden store behind one small RAII layer over the HDF5 C API.
#include "trainproof/golden/golden_store.h"
#include "trainproof/core/data_dirs.h"

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "src/core/envelope.h"
#include "src/golden/hdf5_io.h"
#include "src/process/process.h"
#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/temp_dir.h"

namespace trainproof {
using namespace hdf5;

// The in-process reader, used once a sandboxed probe of the same file has succeeded.
GoldenFile read_golden_in_process(const std::filesystem::path& path) {
  silence_hdf5();
  const Where w{path.string(), ""};
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) w.fail("golden file not found (run `trainproof regen` to create it)");
  if (!std::filesystem::is_regular_file(path, ec)) w.fail("not a regular file");
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec) w.fail("cannot read file size: " + ec.message());
  if (bytes > kMaxGoldenFileBytes)
    w.fail(fmt::format("file is {} bytes, over the limit of {}", bytes, kMaxGoldenFileBytes));
  if (H5Fis_hdf5(path.c_str()) <= 0)
    w.fail("not an HDF5 file (no HDF5 signature: empty, truncated at the start, or another format)");
  Hid file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) w.fail("cannot open as HDF5: corrupt or truncated" + hdf5_cause());

  GoldenFile g;
  const Where root{w.file, "group /"};
  g.schema_version = read_int_attr(file.get(), "schema_version", root);
  if (g.schema_version < kOldestGoldenSchemaVersion || g.schema_version > kBandGoldenSchemaVersion)
    root.fail(
        fmt::format("schema_version {} is not supported (this build reads {} to {}; a newer trainproof wrote it?)",
                    g.schema_version, kOldestGoldenSchemaVersion, kBandGoldenSchemaVersion));
  g.scenario = read_string_attr(file.get(), "scenario", root);
  g.trainproof_version = read_string_attr(file.get(), "trainproof_version", root);
  g.created_utc = read_string_attr(file.get(), "created_utc", root);

  for (const std::string& device : link_names(file.get(), root)) {
    const Where gw{w.file, "group /" + device};
    if (device != "cpu" && device != "cuda") gw.fail("unexpected member (expected device groups cpu or cuda)");
    if (object_type(file.get(), device) != H5I_GROUP) gw.fail("must be a group");
    Hid group(H5Gopen2(file.get(), device.c_str(), H5P_DEFAULT), H5Gclose);
    if (!group.valid()) gw.fail("cannot open" + hdf5_cause());
    DeviceGolden dg;
    dg.fingerprint = read_string_attr(group.get(), "fingerprint", gw);
    if (!nlohmann::json::accept(dg.fingerprint)) gw.fail("attribute 'fingerprint' is not valid JSON");
    if (has_attr(group.get(), "output")) dg.trace.output = read_string_attr(group.get(), "output", gw);
    dg.paths_measured =
        has_attr(group.get(), "paths_measured") ? read_string_attr(group.get(), "paths_measured", gw) : "[]";
    if (!nlohmann::json::accept(dg.paths_measured)) gw.fail("attribute 'paths_measured' is not valid JSON");
    if (has_attr(group.get(), "forced")) dg.forced = read_string_attr(group.get(), "forced", gw);
    bool band = false;
    for (const std::string& name : link_names(group.get(), gw)) {
      if (name == "band" && g.schema_version >= kBandGoldenSchemaVersion &&
          object_type(group.get(), name) == H5I_GROUP) {
        band = true;
        continue;
      }
      if (object_type(group.get(), name) != H5I_DATASET)
        Where{w.file, fmt::format("/{}/{}", device, name)}.fail("must be a dataset");
      dg.trace.series.push_back(read_series(group.get(), name, w, device));
    }
    if (band) dg.band = read_band(group.get(), dg.trace, w, device);
    g.devices.emplace(device, std::move(dg));
  }
  if (g.devices.empty()) root.fail("holds no device group (cpu or cuda)");
  return g;
}

namespace {

// libhdf5 itself is not safe on hostile files: fuzzing found heap overflows inside
// H5Aexists on a corrupted attribute message (tests/data/hostile/). So a file is first read
// by trainproof-golden-probe, a small program of its own (spawn_program: no copy of this
// multithreaded process runs libhdf5): a crash, hang or runaway allocation there
// becomes BadInput naming the file, and only a file it read cleanly is read again here.
std::filesystem::path golden_probe_executable() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("TRAINPROOF_GOLDEN_PROBE"); env && *env) return env;
  std::vector<fs::path> dirs;
  std::error_code ec;
  if (const auto self = program_dir(); !self.empty()) dirs.push_back(self);
  if (const char* bin = std::getenv("TRAINPROOF_BIN"); bin && *bin) dirs.push_back(fs::path(bin).parent_path());
  for (const auto& d : dirs)
    if (fs::exists(d / "trainproof-golden-probe", ec)) return d / "trainproof-golden-probe";
  throw std::runtime_error(
      "cannot find trainproof-golden-probe beside this program or $TRAINPROOF_BIN: set TRAINPROOF_GOLDEN_PROBE to it");
}

double probe_limit_s(const std::filesystem::path& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  return golden_probe_seconds(ec ? 0 : bytes);
}

void probe_in_child(const std::filesystem::path& path) {
  const Where w{path.string(), ""};
  const double limit = probe_limit_s(path);
  TempDir dir("probe");
  const auto reply_file = dir.path() / "reply", err_file = dir.path() / "stderr";
  pid_t pid = -1;
  try {  // the probe is our program: not starting it says nothing of the golden
    pid = spawn_program(golden_probe_executable().string(), {path.string()}, {reply_file, err_file});
  } catch (const BadInput& e) {
    throw std::runtime_error(e.what());
  }
  const std::optional<int> code = wait_exit_within(pid, limit);
  if (!code) w.fail(fmt::format("reading it took over {:.0f} s (corrupt or hostile HDF5)", limit));
  std::ifstream in(reply_file, std::ios::binary);
  const std::string reply((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (ended_by_signal(*code))
    w.fail(fmt::format("the HDF5 library crashed reading it (signal {}): corrupt or hostile HDF5", *code - 128));
  // A reader that ends without a reply died inside libhdf5 (a sanitizer exits, not signals).
  if (reply.empty())
    w.fail(fmt::format("the HDF5 library crashed reading it (the reader exited with code {}): corrupt or hostile HDF5",
                       *code));
  if (reply.rfind("E", 0) == 0) throw BadInput(reply.substr(1));
  if (reply != "OK") w.fail("could not be read: " + reply.substr(1));
}

}  // namespace

GoldenFile read_golden(const std::filesystem::path& path) {
  probe_in_child(path);
  return read_golden_in_process(path);
}

GoldenRead try_read_golden(const std::filesystem::path& path) {
  GoldenRead r;
  try {
    r.file = read_golden(path);
  } catch (const BadInput& e) {
    r.error = e.what();
  }
  return r;
}

GoldenRead read_old_golden(const std::filesystem::path& path) {
  return std::filesystem::exists(path) ? try_read_golden(path) : GoldenRead{};
}

const DeviceGolden* GoldenRead::group(const std::string& device) const {
  if (!file) return nullptr;
  const auto g = file->devices.find(device);
  return g == file->devices.end() ? nullptr : &g->second;
}

void write_golden(const std::filesystem::path& path, const GoldenFile& golden) {
  silence_hdf5();
  atomic_replace(path, [&](const std::filesystem::path& tmp) {
    Hid fcpl(H5Pcreate(H5P_FILE_CREATE), H5Pclose);
    check(H5Pset_link_creation_order(fcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
          "tracking the creation order of the file's root");
    Hid file(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, fcpl.get(), H5P_DEFAULT), H5Fclose);
    check(file.valid() ? 0 : -1, "creating " + tmp.string());
    write_int_attr(file.get(), "schema_version", golden.schema_version);
    write_string_attr(file.get(), "scenario", golden.scenario);
    write_string_attr(file.get(), "trainproof_version", golden.trainproof_version);
    write_string_attr(file.get(), "created_utc", golden.created_utc);
    for (const auto& [device, dg] : golden.devices) {
      Hid gcpl = ordered_group_plist();
      Hid group(H5Gcreate2(file.get(), device.c_str(), H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
      check(group.valid() ? 0 : -1, "creating group " + device);
      write_string_attr(group.get(), "fingerprint", dg.fingerprint);
      write_string_attr(group.get(), "output", dg.trace.output);
      write_string_attr(group.get(), "paths_measured", dg.paths_measured.empty() ? "[]" : dg.paths_measured);
      if (!dg.forced.empty()) write_string_attr(group.get(), "forced", dg.forced);
      for (const auto& s : dg.trace.series) write_series(group.get(), s);
      if (dg.band) write_band(group.get(), *dg.band);
    }
    check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "flushing " + tmp.string());
  });
}

}  // namespace trainproof
