// Tolerance policies a series declares: exact (bitwise), ulp(n), abs(a), rel(r), any of
// them joined with " or ", and nan_ok when NaN is an expected value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trainproof/core/dtype.h"

namespace trainproof {

class Tolerance {
 public:
  Tolerance() = default;  // exact
  static Tolerance exact() { return {}; }
  static Tolerance ulp(uint64_t n);
  static Tolerance abs(double a);
  static Tolerance rel(double r);
  // Informational: recorded and shown, never fails (timings; hashes made elsewhere).
  static Tolerance any();

  // Parses the text form, e.g. "exact", "ulp(4)", "abs(1e-6) or rel(1e-4)", "exact or nan_ok", "any".
  // Throws std::invalid_argument naming the offending term.
  static Tolerance parse(std::string_view text);
  std::string str() const;

  // Any-of: a value passes if it is bitwise equal or within one of the given bounds.
  Tolerance operator|(const Tolerance& other) const;
  Tolerance nan_ok() const;

  // Whether `observed` is close enough to `golden`, measured in dtype `produced`.
  // NaN never equals anything unless nan_ok (then NaN equals NaN only).
  bool accepts(double golden, double observed, DType produced) const;

  // The largest |observed - golden| accepted at `golden` (0 for exact, infinity for any).
  double allowance(double golden, DType produced) const;

  bool is_exact() const { return !ulp_ && !abs_ && !rel_ && !any_; }
  bool is_any() const { return any_; }
  std::optional<double> abs_bound() const { return abs_; }
  std::optional<double> rel_bound() const { return rel_; }
  bool operator==(const Tolerance& o) const { return str() == o.str(); }

 private:
  std::optional<uint64_t> ulp_;
  std::optional<double> abs_;
  std::optional<double> rel_;
  bool nan_ok_ = false;
  bool any_ = false;
};

}  // namespace trainproof
