// See hdf5_io.h.
#include "src/golden/hdf5_io.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "src/core/envelope.h"

namespace trainproof::hdf5 {

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
  if (has_attr(ds.get(), "differs_across_devices"))
    s.across_devices = read_string_attr(ds.get(), "differs_across_devices", w);
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
  if (!s.across_devices.empty()) write_string_attr(ds.get(), "differs_across_devices", s.across_devices);
  if (s.provenance) {
    write_double_attr(ds.get(), "cross_spread_abs", s.provenance->spread_abs);
    write_double_attr(ds.get(), "cross_spread_rel", s.provenance->spread_rel);
    write_double_attr(ds.get(), "cross_safety_factor", s.provenance->factor);
    write_string_attr(ds.get(), "cross_floor", s.provenance->floor);
    write_string_attr(ds.get(), "cross_ceiling", ceiling_of(s).str());
    write_string_attr(ds.get(), "cross_paths_differing", s.provenance->differing);
  }
}

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

}  // namespace trainproof::hdf5
