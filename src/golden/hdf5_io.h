// HDF5 for the golden store (golden_store.cpp): one small RAII layer over the HDF5 C API, errors
// that name the file and the object, and the store's datasets (a series, a band) read and
// written. Internal to src/golden.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "trainproof/core/errors.h"
#include "trainproof/core/trace.h"
#include "trainproof/golden/golden_store.h"

namespace trainproof::hdf5 {

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

// Error context: file, then group/dataset, then the problem.
struct Where {
  std::string file;
  std::string object;
  [[noreturn]] void fail(const std::string& problem) const {
    throw BadInput(object.empty() ? fmt::format("{}: {}", file, problem)
                                  : fmt::format("{}: {}: {}", file, object, problem));
  }
};

// HDF5 prints its error stack to stderr by default; we report errors ourselves.
void silence_hdf5();
// The innermost message of HDF5's error stack, as " (cause)", or "".
std::string hdf5_cause();
// A failed HDF5 call (rc < 0) is a std::runtime_error naming what was being done.
void check(herr_t rc, const std::string& what);

void write_string_attr(hid_t obj, const char* name, const std::string& value);
void write_int_attr(hid_t obj, const char* name, int64_t value);
bool has_attr(hid_t obj, const char* name);
std::string read_string_attr(hid_t obj, const char* name, const Where& w);
int64_t read_int_attr(hid_t obj, const char* name, const Where& w);
// The names of a group's links, in creation order.
std::vector<std::string> link_names(hid_t group, const Where& w);
H5I_type_t object_type(hid_t parent, const std::string& name);

// One series of a device group (a dataset and its attributes), checked as it is read.
Series read_series(hid_t group, const std::string& name, const Where& file_where, const std::string& device);
void write_series(hid_t group, const Series& s);
// A band golden's spread (the group "band" beside the mean's series).
Band read_band(hid_t device_group, const Trace& mean, const Where& file_where, const std::string& device);
void write_band(hid_t device_group, const Band& b);
// Group creation properties that keep links in creation order.
Hid ordered_group_plist();

}  // namespace trainproof::hdf5
