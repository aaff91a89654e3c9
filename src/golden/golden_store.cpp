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
#include "src/process/process.h"
#include "trainproof/core/atomic_file.h"
#include "trainproof/core/errors.h"
#include "trainproof/core/temp_dir.h"

namespace trainproof {
namespace {

// One owned HDF5 identifier, closed with the matching H5*close.
class Hid {
 public:
  Hid() = default;
  Hid(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Hid(Hid&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Hid& operator=(Hid&& o) noexcept {
    reset();
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
    return *this;
  }
  ~Hid() { reset(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// HDF5 prints its error stack to stderr by default; we report errors ourselves.
void silence_hdf5() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

// The innermost message of HDF5's error stack: usually the actual cause.
std::string hdf5_cause() {
  std::string cause;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        if (n == 0 && e->desc) *static_cast<std::string*>(data) = e->desc;
        return 0;
      },
      &cause);
  H5Eclear2(H5E_DEFAULT);
  return cause.empty() ? "" : " (" + cause + ")";
}

// Error context: file, then group/dataset, then the problem.
struct Where {
  std::string file;
  std::string object;
  [[noreturn]] void fail(const std::string& problem) const {
    throw BadInput(object.empty() ? fmt::format("{}: {}", file, problem)
                                  : fmt::format("{}: {}: {}", file, object, problem));
  }
};

void check(herr_t rc, const std::string& what) {
  if (rc < 0) throw std::runtime_error(fmt::format("HDF5: {} failed{}", what, hdf5_cause()));
}

Hid vlen_string_type() {
  Hid t(H5Tcopy(H5T_C_S1), H5Tclose);
  check(t.valid() ? 0 : -1, "copying the string type");
  check(H5Tset_size(t.get(), H5T_VARIABLE), "making a variable-length string type");
  check(H5Tset_cset(t.get(), H5T_CSET_UTF8), "setting the UTF-8 character set");
  return t;
}

void write_string_attr(hid_t obj, const char* name, const std::string& value) {
  Hid type = vlen_string_type();
  Hid space(H5Screate(H5S_SCALAR), H5Sclose);
  Hid attr(H5Acreate2(obj, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(attr.valid() ? 0 : -1, fmt::format("creating attribute {}", name));
  const char* p = value.c_str();
  check(H5Awrite(attr.get(), type.get(), &p), fmt::format("writing attribute {}", name));
}

void write_int_attr(hid_t obj, const char* name, int64_t value) {
  Hid space(H5Screate(H5S_SCALAR), H5Sclose);
  Hid attr(H5Acreate2(obj, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(attr.valid() ? 0 : -1, fmt::format("creating attribute {}", name));
  check(H5Awrite(attr.get(), H5T_NATIVE_INT64, &value), fmt::format("writing attribute {}", name));
}

void write_double_attr(hid_t obj, const char* name, double value) {
  Hid space(H5Screate(H5S_SCALAR), H5Sclose);
  Hid attr(H5Acreate2(obj, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(attr.valid() ? 0 : -1, fmt::format("creating attribute {}", name));
  check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, &value), fmt::format("writing attribute {}", name));
}

bool has_attr(hid_t obj, const char* name) {
  return H5Aexists(obj, name) > 0;
}

Hid open_attr(hid_t obj, const char* name, const Where& w) {
  if (!has_attr(obj, name)) w.fail(fmt::format("missing attribute '{}'", name));
  Hid attr(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
  if (!attr.valid()) w.fail(fmt::format("cannot open attribute '{}'{}", name, hdf5_cause()));
  Hid space(H5Aget_space(attr.get()), H5Sclose);
  if (!space.valid() || H5Sget_simple_extent_npoints(space.get()) != 1)
    w.fail(fmt::format("attribute '{}' must be a single value", name));
  return attr;
}

std::string read_string_attr(hid_t obj, const char* name, const Where& w) {
  Hid attr = open_attr(obj, name, w);
  Hid type(H5Aget_type(attr.get()), H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING)
    w.fail(fmt::format("attribute '{}' must be a string", name));
  if (H5Tis_variable_str(type.get()) > 0) {
    Hid mem = vlen_string_type();
    char* p = nullptr;
    if (H5Aread(attr.get(), mem.get(), &p) < 0) w.fail(fmt::format("cannot read attribute '{}'{}", name, hdf5_cause()));
    std::string s = p ? p : "";
    H5free_memory(p);
    return s;
  }
  const size_t n = H5Tget_size(type.get());
  if (n == 0 || n > (1u << 24)) w.fail(fmt::format("attribute '{}' has an implausible size {}", name, n));
  std::vector<char> buf(n + 1, '\0');
  if (H5Aread(attr.get(), type.get(), buf.data()) < 0)
    w.fail(fmt::format("cannot read attribute '{}'{}", name, hdf5_cause()));
  return std::string(buf.data(), strnlen(buf.data(), n));
}

int64_t read_int_attr(hid_t obj, const char* name, const Where& w) {
  Hid attr = open_attr(obj, name, w);
  Hid type(H5Aget_type(attr.get()), H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_INTEGER)
    w.fail(fmt::format("attribute '{}' must be an integer", name));
  int64_t v = 0;
  if (H5Aread(attr.get(), H5T_NATIVE_INT64, &v) < 0)
    w.fail(fmt::format("cannot read attribute '{}'{}", name, hdf5_cause()));
  return v;
}

double read_double_attr(hid_t obj, const char* name, const Where& w) {
  Hid attr = open_attr(obj, name, w);
  Hid type(H5Aget_type(attr.get()), H5Tclose);
  if (!type.valid() || H5Tget_class(type.get()) != H5T_FLOAT)
    w.fail(fmt::format("attribute '{}' must be a float", name));
  double v = 0;
  if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &v) < 0)
    w.fail(fmt::format("cannot read attribute '{}'{}", name, hdf5_cause()));
  return v;
}

// Names of the links in a group, in creation order when the file tracks it.
std::vector<std::string> link_names(hid_t group, const Where& w) {
  H5G_info_t info;
  if (H5Gget_info(group, &info) < 0) w.fail("cannot list members" + hdf5_cause());
  if (info.nlinks > 4096) w.fail(fmt::format("implausible number of members ({})", info.nlinks));
  Hid gcpl(H5Gget_create_plist(group), H5Pclose);
  unsigned flags = 0;
  const bool ordered =
      gcpl.valid() && H5Pget_link_creation_order(gcpl.get(), &flags) >= 0 && (flags & H5P_CRT_ORDER_INDEXED);
  const H5_index_t index = ordered ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME;
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t len = H5Lget_name_by_idx(group, ".", index, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
    if (len <= 0 || len > 1024) w.fail(fmt::format("cannot read the name of member {}{}", i, hdf5_cause()));
    std::string name(static_cast<size_t>(len) + 1, '\0');
    if (H5Lget_name_by_idx(group, ".", index, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT) != len)
      w.fail(fmt::format("cannot read the name of member {}{}", i, hdf5_cause()));
    name.resize(static_cast<size_t>(len));
    names.push_back(std::move(name));
  }
  return names;
}

H5I_type_t object_type(hid_t parent, const std::string& name) {
  Hid obj(H5Oopen(parent, name.c_str(), H5P_DEFAULT), H5Oclose);
  return obj.valid() ? H5Iget_type(obj.get()) : H5I_BADID;
}

// A dataset's values must fit in the file: a dataset stored plain (as goldens are) that
// declares more bytes than the file has is corrupt. Checked before anything is allocated for
// it. (A filtered, i.e. compressed, one may declare more; the probe's memory limit bounds it.)
void require_fits_in_file(hid_t ds, hsize_t len, size_t value_bytes, const Where& w) {
  Hid dcpl(H5Dget_create_plist(ds), H5Pclose);
  if (dcpl.valid() && H5Pget_nfilters(dcpl.get()) > 0) return;
  Hid file(H5Iget_file_id(ds), H5Fclose);
  hsize_t file_bytes = 0;
  if (!file.valid() || H5Fget_filesize(file.get(), &file_bytes) < 0)
    w.fail("cannot read the file's size" + hdf5_cause());
  if (len > file_bytes / std::max<size_t>(value_bytes, 1))
    w.fail(fmt::format("declares {} values of {} bytes, more than the file's {} bytes: corrupt", len, value_bytes,
                       file_bytes));
}

Series read_series(hid_t group, const std::string& name, const Where& file_where, const std::string& device) {
  const Where w{file_where.file, fmt::format("dataset /{}/{}", device, name)};
  Hid ds(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.valid()) w.fail("cannot open" + hdf5_cause());

  Series s;
  s.name = name;
  const std::string dtype_text = read_string_attr(ds.get(), "dtype_produced", w);
  const auto dtype = dtype_from_name(dtype_text);
  if (!dtype) w.fail(fmt::format("unknown dtype_produced '{}'", dtype_text));
  s.produced = *dtype;
  try {
    s.tolerance = Tolerance::parse(read_string_attr(ds.get(), "tolerance", w));
    s.cross = has_attr(ds.get(), "tolerance_cross") ? Tolerance::parse(read_string_attr(ds.get(), "tolerance_cross", w))
                                                    : s.tolerance;
  } catch (const std::invalid_argument& e) {
    w.fail(e.what());
  }
  if (has_attr(ds.get(), "unit")) s.unit = read_string_attr(ds.get(), "unit", w);
  if (has_attr(ds.get(), "cross_spread_abs")) {  // schema 2: how tolerance_cross was measured
    Provenance p;
    p.spread_abs = read_double_attr(ds.get(), "cross_spread_abs", w);
    p.spread_rel = read_double_attr(ds.get(), "cross_spread_rel", w);
    p.factor = read_double_attr(ds.get(), "cross_safety_factor", w);
    p.floor = read_string_attr(ds.get(), "cross_floor", w);
    try {
      s.ceiling = Tolerance::parse(read_string_attr(ds.get(), "cross_ceiling", w));
    } catch (const std::invalid_argument& e) {
      w.fail(fmt::format("cross_ceiling: {}", e.what()));
    }
    p.differing = read_string_attr(ds.get(), "cross_paths_differing", w);
    s.provenance = p;
  }

  Hid space(H5Dget_space(ds.get()), H5Sclose);
  if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) != 1) w.fail("must be a 1-D dataset");
  hsize_t len = 0;
  H5Sget_simple_extent_dims(space.get(), &len, nullptr);
  if (len > kMaxSeriesLength) w.fail(fmt::format("length {} exceeds the limit {}", len, kMaxSeriesLength));

  Hid type(H5Dget_type(ds.get()), H5Tclose);
  const H5T_class_t cls = H5Tget_class(type.get());
  const size_t size = H5Tget_size(type.get());
  const Storage want = storage_of(s.produced);
  const bool stored_ok =
      (want == Storage::kF64 && cls == H5T_FLOAT && size == 8) ||
      (want == Storage::kF32 && cls == H5T_FLOAT && size == 4) ||
      (want == Storage::kI64 && cls == H5T_INTEGER && size == 8 && H5Tget_sign(type.get()) == H5T_SGN_2);
  if (!stored_ok)
    w.fail(fmt::format("stored as a {}-byte {} but dtype_produced {} must be stored as {}", size,
                       cls == H5T_FLOAT     ? "float"
                       : cls == H5T_INTEGER ? "integer"
                                            : "non-numeric type",
                       dtype_text, storage_name(want)));
  require_fits_in_file(ds.get(), len, size, w);
  // The file must actually hold the bytes it declares (a truncated file may not).
  herr_t rc = 0;
  if (want == Storage::kI64) {
    s.ints.resize(len);
    if (len) rc = H5Dread(ds.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.ints.data());
  } else if (want == Storage::kF64) {
    s.values.resize(len);
    if (len) rc = H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.values.data());
  } else {
    std::vector<float> f(len);
    if (len) rc = H5Dread(ds.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, f.data());
    s.values.assign(f.begin(), f.end());
  }
  if (rc < 0) w.fail("cannot read the values" + hdf5_cause());
  return s;
}

void write_series(hid_t group, const Series& s) {
  const hsize_t len = s.size();
  Hid space(H5Screate_simple(1, &len, nullptr), H5Sclose);
  const Storage st = storage_of(s.produced);
  const hid_t file_type = st == Storage::kF64 ? H5T_IEEE_F64LE : st == Storage::kF32 ? H5T_IEEE_F32LE : H5T_STD_I64LE;
  Hid ds(H5Dcreate2(group, s.name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  check(ds.valid() ? 0 : -1, "creating dataset " + s.name);
  if (len) {
    if (st == Storage::kI64) {
      check(H5Dwrite(ds.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.ints.data()), "writing " + s.name);
    } else if (st == Storage::kF64) {
      check(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.values.data()), "writing " + s.name);
    } else {
      std::vector<float> f(s.values.begin(), s.values.end());
      check(H5Dwrite(ds.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, f.data()), "writing " + s.name);
    }
  }
  write_string_attr(ds.get(), "dtype_produced", std::string(dtype_name(s.produced)));
  write_string_attr(ds.get(), "tolerance", s.tolerance.str());
  write_string_attr(ds.get(), "tolerance_cross", s.cross.str());
  write_string_attr(ds.get(), "unit", s.unit);
  if (s.provenance) {
    write_double_attr(ds.get(), "cross_spread_abs", s.provenance->spread_abs);
    write_double_attr(ds.get(), "cross_spread_rel", s.provenance->spread_rel);
    write_double_attr(ds.get(), "cross_safety_factor", s.provenance->factor);
    write_string_attr(ds.get(), "cross_floor", s.provenance->floor);
    write_string_attr(ds.get(), "cross_ceiling", ceiling_of(s).str());
    write_string_attr(ds.get(), "cross_paths_differing", s.provenance->differing);
  }
}

Hid ordered_group_plist();

std::vector<double> read_doubles(hid_t group, const std::string& name, const Where& w) {
  Hid ds(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose);
  if (!ds.valid()) w.fail(fmt::format("no dataset '{}'{}", name, hdf5_cause()));
  Hid space(H5Dget_space(ds.get()), H5Sclose);
  if (!space.valid() || H5Sget_simple_extent_ndims(space.get()) != 1) w.fail(fmt::format("'{}' must be 1-D", name));
  hsize_t len = 0;
  H5Sget_simple_extent_dims(space.get(), &len, nullptr);
  if (len > kMaxSeriesLength) w.fail(fmt::format("'{}': length {} exceeds the limit {}", name, len, kMaxSeriesLength));
  Hid type(H5Dget_type(ds.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_FLOAT) w.fail(fmt::format("'{}' must be stored as float64", name));
  require_fits_in_file(ds.get(), len, H5Tget_size(type.get()), Where{w.file, fmt::format("{}: '{}'", w.object, name)});
  std::vector<double> v(len);
  if (len && H5Dread(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()) < 0)
    w.fail(fmt::format("cannot read '{}'{}", name, hdf5_cause()));
  return v;
}

void write_doubles(hid_t group, const std::string& name, const std::vector<double>& v) {
  const hsize_t len = v.size();
  Hid space(H5Screate_simple(1, &len, nullptr), H5Sclose);
  Hid ds(H5Dcreate2(group, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  check(ds.valid() ? 0 : -1, "creating dataset " + name);
  if (len) check(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), "writing " + name);
}

// /<device>/band (schema 3): every series of the mean trace has its spread and finals.
Band read_band(hid_t device_group, const Trace& mean, const Where& file_where, const std::string& device) {
  const Where w{file_where.file, fmt::format("group /{}/band", device)};
  Hid group(H5Gopen2(device_group, "band", H5P_DEFAULT), H5Gclose);
  if (!group.valid()) w.fail("cannot open" + hdf5_cause());
  Band b;
  b.runs = read_int_attr(group.get(), "runs", w);
  if (b.runs < kBandMinRuns) w.fail(fmt::format("runs = {}: a band needs at least {}", b.runs, kBandMinRuns));
  b.varied = read_string_attr(group.get(), "varied", w);
  for (const Series& s : mean.series) {
    if (s.name == "step") continue;
    b.spread[s.name] = read_doubles(group.get(), s.name + ".spread", w);
    b.finals[s.name] = read_doubles(group.get(), s.name + ".finals", w);
    if (b.spread[s.name].size() != s.size() || static_cast<int64_t>(b.finals[s.name].size()) != b.runs)
      w.fail(fmt::format("'{}': {} spreads for {} steps, {} finals for {} runs", s.name, b.spread[s.name].size(),
                         s.size(), b.finals[s.name].size(), b.runs));
  }
  return b;
}

void write_band(hid_t device_group, const Band& b) {
  Hid gcpl = ordered_group_plist();
  Hid group(H5Gcreate2(device_group, "band", H5P_DEFAULT, gcpl.get(), H5P_DEFAULT), H5Gclose);
  check(group.valid() ? 0 : -1, "creating group band");
  write_int_attr(group.get(), "runs", b.runs);
  write_string_attr(group.get(), "varied", b.varied);
  for (const auto& [name, spread] : b.spread) write_doubles(group.get(), name + ".spread", spread);
  for (const auto& [name, finals] : b.finals) write_doubles(group.get(), name + ".finals", finals);
}

Hid ordered_group_plist() {
  Hid gcpl(H5Pcreate(H5P_GROUP_CREATE), H5Pclose);
  check(H5Pset_link_creation_order(gcpl.get(), H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
        "tracking the creation order of a group");
  return gcpl;
}

}  // namespace

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
