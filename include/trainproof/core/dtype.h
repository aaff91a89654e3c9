// The dtypes a trace series can be produced in, how each is stored in a golden, and
// bit-level helpers (ulp distance) that need no LibTorch.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trainproof {

enum class DType { kFloat64, kFloat32, kFloat16, kBFloat16, kInt64, kInt32, kBool };

// How a series is stored in HDF5: every float dtype up to 32 bits is exactly
// representable in float32, every integer dtype in int64.
enum class Storage { kF64, kF32, kI64 };

std::string_view dtype_name(DType d);  // "float32", "bfloat16", ...
std::optional<DType> dtype_from_name(std::string_view name);
Storage storage_of(DType d);
std::string_view storage_name(Storage s);
bool is_integer(DType d);

// Rounds a double to the nearest value of dtype `d` (round-to-nearest-even) and
// returns its bit pattern; used to measure distances in the dtype a value was made in.
uint64_t float_bits(double v, DType d);

// Number of representable values of dtype `d` between a and b (0 iff bitwise equal
// after rounding to `d`, with +0 and -0 one apart). Both must be finite.
uint64_t ulp_distance(double a, double b, DType d);

// The spacing of dtype `d`'s values at |v| (the distance to the next larger magnitude;
// subnormal spacing below the smallest normal). `d` must be a float dtype.
double ulp_size(double v, DType d);

}  // namespace trainproof
