// Parsing, printing and applying tolerance policies.
#include "trainproof/core/tolerance.h"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace trainproof {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

double parse_number(std::string_view term, std::string_view arg) {
  const std::string a(trim(arg));
  char* end = nullptr;
  const double v = std::strtod(a.c_str(), &end);
  if (a.empty() || end != a.c_str() + a.size() || !(v >= 0) || std::isinf(v))
    throw std::invalid_argument(fmt::format("tolerance term '{}': bound must be a finite number >= 0", term));
  return v;
}

bool bitwise_equal(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

Tolerance Tolerance::ulp(uint64_t n) {
  Tolerance t;
  t.ulp_ = n;
  return t;
}
Tolerance Tolerance::abs(double a) {
  Tolerance t;
  t.abs_ = a;
  return t;
}
Tolerance Tolerance::rel(double r) {
  Tolerance t;
  t.rel_ = r;
  return t;
}

Tolerance Tolerance::any() {
  Tolerance t;
  t.any_ = true;
  return t;
}

Tolerance Tolerance::operator|(const Tolerance& o) const {
  Tolerance t = *this;
  if (o.ulp_) t.ulp_ = o.ulp_;
  if (o.abs_) t.abs_ = o.abs_;
  if (o.rel_) t.rel_ = o.rel_;
  t.nan_ok_ = nan_ok_ || o.nan_ok_;
  t.any_ = any_ || o.any_;
  return t;
}

Tolerance Tolerance::nan_ok() const {
  Tolerance t = *this;
  t.nan_ok_ = true;
  return t;
}

Tolerance Tolerance::parse(std::string_view text) {
  Tolerance t;
  std::string_view rest = trim(text);
  if (rest.empty()) throw std::invalid_argument("tolerance: empty text");
  while (true) {
    const size_t sep = rest.find(" or ");
    const std::string_view term = trim(rest.substr(0, sep));
    auto arg_of = [&](std::string_view head) -> std::optional<std::string_view> {
      if (term.substr(0, head.size()) != head || term.back() != ')') return std::nullopt;
      return term.substr(head.size(), term.size() - head.size() - 1);
    };
    if (term == "exact") {
    } else if (term == "any") {
      t.any_ = true;
    } else if (term == "nan_ok") {
      t.nan_ok_ = true;
    } else if (auto a = arg_of("ulp(")) {
      const double n = parse_number(term, *a);
      if (n != std::floor(n))
        throw std::invalid_argument(fmt::format("tolerance term '{}': ulp count must be an integer", term));
      t.ulp_ = static_cast<uint64_t>(n);
    } else if (auto a = arg_of("abs(")) {
      t.abs_ = parse_number(term, *a);
    } else if (auto a = arg_of("rel(")) {
      t.rel_ = parse_number(term, *a);
    } else {
      throw std::invalid_argument(
          fmt::format("tolerance: unknown term '{}' (expected exact, ulp(n), abs(a), rel(r), nan_ok or any)", term));
    }
    if (sep == std::string_view::npos) break;
    rest = rest.substr(sep + 4);
  }
  return t;
}

std::string Tolerance::str() const {
  if (any_) return "any";
  std::vector<std::string> terms;
  if (ulp_) terms.push_back(fmt::format("ulp({})", *ulp_));
  if (abs_) terms.push_back(fmt::format("abs({:g})", *abs_));
  if (rel_) terms.push_back(fmt::format("rel({:g})", *rel_));
  if (terms.empty()) terms.push_back("exact");
  if (nan_ok_) terms.push_back("nan_ok");
  return fmt::format("{}", fmt::join(terms, " or "));
}

bool Tolerance::accepts(double golden, double observed, DType produced) const {
  if (any_) return true;
  const bool gnan = std::isnan(golden), onan = std::isnan(observed);
  if (gnan || onan) return gnan && onan && nan_ok_;
  if (bitwise_equal(golden, observed)) return true;
  if (std::isinf(golden) || std::isinf(observed)) return false;  // only an equal inf matches
  const double diff = std::fabs(golden - observed);
  if (abs_ && diff <= *abs_) return true;
  if (rel_ && diff <= *rel_ * std::fabs(golden)) return true;
  if (ulp_ && !is_integer(produced) && ulp_distance(golden, observed, produced) <= *ulp_) return true;
  if (ulp_ && is_integer(produced) && diff <= static_cast<double>(*ulp_)) return true;
  return false;
}

double Tolerance::allowance(double golden, DType produced) const {
  if (any_) return INFINITY;
  double a = 0;
  if (abs_) a = std::max(a, *abs_);
  if (rel_) a = std::max(a, *rel_ * std::fabs(golden));
  if (ulp_) a = std::max(a, static_cast<double>(*ulp_) * (is_integer(produced) ? 1.0 : ulp_size(golden, produced)));
  return a;
}

}  // namespace trainproof
