// See hdf5_patch.h.
#include "tests/support/hdf5_patch.h"

#include <stdexcept>

namespace trainproof::testing {
namespace {

hid_t check(hid_t id, const std::string& what) {
  if (id < 0) throw std::runtime_error("test HDF5 edit failed: " + what);
  return id;
}

}  // namespace

void set_string_attr(hid_t obj, const std::string& name, const std::string& value) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (H5Aexists(obj, name.c_str()) > 0) check(H5Adelete(obj, name.c_str()), "delete attribute " + name);
  const hid_t type = check(H5Tcopy(H5T_C_S1), "string type");
  check(H5Tset_size(type, H5T_VARIABLE), "variable-length string");
  check(H5Tset_cset(type, H5T_CSET_UTF8), "UTF-8 string");  // as the golden store writes its strings
  const hid_t space = check(H5Screate(H5S_SCALAR), "scalar space");
  const hid_t attr = check(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), "create " + name);
  const char* text = value.c_str();
  const herr_t written = H5Awrite(attr, type, &text);
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  check(written, "write " + name);
}

void set_string_attr(const std::filesystem::path& file, const std::string& object, const std::string& name,
                     const std::string& value) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = check(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "open " + file.string());
  const hid_t obj = H5Oopen(f, object.c_str(), H5P_DEFAULT);
  if (obj < 0) {
    H5Fclose(f);
    check(obj, "open " + object + " in " + file.string());
  }
  try {
    set_string_attr(obj, name, value);
  } catch (...) {
    H5Oclose(obj);
    H5Fclose(f);
    throw;
  }
  H5Oclose(obj);
  check(H5Fclose(f), "close " + file.string());
}

std::string string_attr(const std::filesystem::path& file, const std::string& object, const std::string& name) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = check(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open " + file.string());
  const hid_t attr = H5Aopen_by_name(f, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  if (attr < 0) {
    H5Fclose(f);
    check(attr, "open attribute " + name + " of " + object + " in " + file.string());
  }
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);  // as the golden store writes its strings
  char* text = nullptr;
  const herr_t read = H5Aread(attr, type, &text);
  std::string value = read >= 0 && text ? text : "";
  if (read >= 0 && text) H5free_memory(text);
  H5Tclose(type);
  H5Aclose(attr);
  H5Fclose(f);
  check(read, "read attribute " + name + " of " + object + " in " + file.string());
  return value;
}

void add_to_value(const std::filesystem::path& file, const std::string& dataset, hsize_t index, double delta) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = check(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "open " + file.string());
  const hid_t ds = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  if (ds < 0) {
    H5Fclose(f);
    check(ds, "open " + dataset + " in " + file.string());
  }
  const hid_t space = H5Dget_space(ds);
  const hsize_t count = 1;
  H5Sselect_hyperslab(space, H5S_SELECT_SET, &index, nullptr, &count, nullptr);
  const hid_t mem = H5Screate_simple(1, &count, nullptr);
  double v = 0;
  herr_t ok = H5Dread(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &v);
  v += delta;
  if (ok >= 0) ok = H5Dwrite(ds, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &v);
  H5Sclose(mem);
  H5Sclose(space);
  H5Dclose(ds);
  H5Fclose(f);
  check(ok, "edit " + dataset + " in " + file.string());
}

void rename_group(const std::filesystem::path& file, const std::string& from, const std::string& to) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t f = check(H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "open " + file.string());
  const herr_t moved = H5Lmove(f, from.c_str(), f, to.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  H5Fclose(f);
  check(moved, "rename " + from + " to " + to + " in " + file.string());
}

}  // namespace trainproof::testing
