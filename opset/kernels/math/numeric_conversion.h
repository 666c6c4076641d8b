// Conversions of real numbers to the element types with no undefined behaviour, shared by Cast,
// Pow and Shrink.
#ifndef GRAPHGC_OPSET_KERNELS_MATH_NUMERIC_CONVERSION_H_
#define GRAPHGC_OPSET_KERNELS_MATH_NUMERIC_CONVERSION_H_

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "graphgc/opset/kernels/common/dispatch.h"

namespace graphgc::kernels {

// x truncated toward zero, when that lies in Int's range; nullopt for NaN, the infinities and
// values beyond the range, which ONNX leaves undefined (ONNX Runtime's results there depend on
// the CPU, and on x86-64 even on whether its loop was vectorized).
template <class Int>
std::optional<Int> TruncateToInteger(double x) {
  const double t = std::trunc(x);
  // Int's limits as doubles are exact: the minimum is 0 or a power of two, and so is max + 1.
  const double lowest = static_cast<double>(std::numeric_limits<Int>::min());
  const double above_max = static_cast<double>(std::numeric_limits<Int>::max()) + 1.0;
  if (!(t >= lowest && t < above_max)) return std::nullopt;  // NaN fails both
  return static_cast<Int>(t);
}

// Rounded to nearest even like the hardware, spelled out at the top of the range, where
// converting an out-of-range double is undefined behaviour in C++: magnitudes from FLT_MAX plus
// half an ulp (2^103) upward become infinities.
inline float DoubleToFloat(double x) {
  const double overflow = static_cast<double>(std::numeric_limits<float>::max()) + 0x1p103;
  if (x >= overflow) return std::numeric_limits<float>::infinity();
  if (x <= -overflow) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(x);
}

// A double as the floating-point type Real, rounded once to nearest even.
template <class Real>
Real RoundFromDouble(double x) {
  if constexpr (internal::kIsHalf<Real>) {
    return Real::FromDouble(x);
  } else if constexpr (std::is_same_v<Real, float>) {
    return DoubleToFloat(x);
  } else {
    return x;
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_NUMERIC_CONVERSION_H_
