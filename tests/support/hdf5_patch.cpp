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

}  // namespace trainproof::testing
