// Test support: edits a golden file in place with libhdf5, as a hand or h5py would, so a
// test can prove the edit is caught. Every call is checked; a failed edit fails the test.
#pragma once

#include <hdf5.h>

#include <filesystem>
#include <string>

namespace trainproof::testing {

// Replaces (or adds) a variable-length string attribute on an open object.
void set_string_attr(hid_t obj, const std::string& name, const std::string& value);

// The same on the object at `object` ("/" for the root, "cpu/finfo_eps" for a dataset)
// of the file at `file`.
void set_string_attr(const std::filesystem::path& file, const std::string& object, const std::string& name,
                     const std::string& value);

// Reads a variable-length string attribute ("fingerprint" of "cpu").
std::string string_attr(const std::filesystem::path& file, const std::string& object, const std::string& name);

// Adds `delta` to value `index` of a dataset ("cpu/finfo_eps").
void add_to_value(const std::filesystem::path& file, const std::string& dataset, hsize_t index, double delta);

// Renames a group (a link) of the file at `file`: "cpu" -> "cuda" makes a golden of another device.
void rename_group(const std::filesystem::path& file, const std::string& from, const std::string& to);

}  // namespace trainproof::testing
