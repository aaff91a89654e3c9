// dtype names, storage mapping and ulp distance without LibTorch.
#include "trainproof/core/dtype.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace trainproof {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::kFloat64, "float64"},   {DType::kFloat32, "float32"}, {DType::kFloat16, "float16"},
    {DType::kBFloat16, "bfloat16"}, {DType::kInt64, "int64"},     {DType::kInt32, "int32"},
    {DType::kBool, "bool"},
};

uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// float32 -> float16 bits, round to nearest even, IEEE semantics including subnormals.
uint16_t f16_bits(float f) {
  const uint32_t x = f32_bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) return sign | (absx > 0x7f800000u ? 0x7e00 : 0x7c00);
  if (absx >= 0x477ff000u) return sign | 0x7c00;  // rounds to inf (>= 65520)
  const int exp = static_cast<int>(absx >> 23) - 127;
  uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
  int shift;  // how many low bits of the 24-bit significand are dropped
  uint32_t base;
  if (exp < -14) {  // subnormal in half: value = m * 2^-24
    shift = 13 + (-14 - exp);
    if (shift > 24) return sign;
    base = 0;
  } else {
    shift = 13;
    base = static_cast<uint32_t>(exp + 15) << 10;
    mant = absx & 0x7fffffu;  // the implicit bit lives in the exponent field
  }
  uint32_t kept = mant >> shift;
  const uint32_t rem = mant & ((1u << shift) - 1);
  const uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (kept & 1u))) ++kept;
  return static_cast<uint16_t>(sign | (base + kept));  // a carry rolls into the exponent
}

uint16_t bf16_bits(float f) {
  uint32_t u = f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

// Maps sign-magnitude bits onto a line where neighbours differ by one.
int64_t ordered(uint64_t bits, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  const int64_t mag = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -mag - 1 : mag;
}

int width_of(DType d) {
  switch (d) {
    case DType::kFloat64:
      return 64;
    case DType::kFloat32:
      return 32;
    default:
      return 16;
  }
}

}  // namespace

std::string_view dtype_name(DType d) {
  for (const auto& i : kDTypes)
    if (i.dtype == d) return i.name;
  return "unknown";
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& i : kDTypes)
    if (i.name == name) return i.dtype;
  return std::nullopt;
}

Storage storage_of(DType d) {
  switch (d) {
    case DType::kFloat64:
      return Storage::kF64;
    case DType::kFloat32:
    case DType::kFloat16:
    case DType::kBFloat16:
      return Storage::kF32;
    default:
      return Storage::kI64;
  }
}

std::string_view storage_name(Storage s) {
  switch (s) {
    case Storage::kF64:
      return "float64";
    case Storage::kF32:
      return "float32";
    default:
      return "int64";
  }
}

bool is_integer(DType d) {
  return storage_of(d) == Storage::kI64;
}

uint64_t float_bits(double v, DType d) {
  switch (d) {
    case DType::kFloat64: {
      uint64_t u;
      std::memcpy(&u, &v, sizeof u);
      return u;
    }
    case DType::kFloat32:
      return f32_bits(static_cast<float>(v));
    case DType::kFloat16:
      return f16_bits(static_cast<float>(v));
    case DType::kBFloat16:
      return bf16_bits(static_cast<float>(v));
    default:
      throw std::invalid_argument("float_bits: integer dtype " + std::string(dtype_name(d)));
  }
}

uint64_t ulp_distance(double a, double b, DType d) {
  const int w = width_of(d);
  const int64_t oa = ordered(float_bits(a, d), w);
  const int64_t ob = ordered(float_bits(b, d), w);
  return oa > ob ? static_cast<uint64_t>(oa) - static_cast<uint64_t>(ob)
                 : static_cast<uint64_t>(ob) - static_cast<uint64_t>(oa);
}

double ulp_size(double v, DType d) {
  int mantissa = 0, min_exp = 0;
  switch (d) {
    case DType::kFloat64:
      mantissa = 52;
      min_exp = -1022;
      break;
    case DType::kFloat32:
      mantissa = 23;
      min_exp = -126;
      break;
    case DType::kFloat16:
      mantissa = 10;
      min_exp = -14;
      break;
    case DType::kBFloat16:
      mantissa = 7;
      min_exp = -126;
      break;
    default:
      throw std::invalid_argument("ulp_size: integer dtype " + std::string(dtype_name(d)));
  }
  const int e = v == 0 || !std::isfinite(v) ? min_exp : std::max(std::ilogb(v), min_exp);
  return std::ldexp(1.0, e - mantissa);
}

}  // namespace trainproof
