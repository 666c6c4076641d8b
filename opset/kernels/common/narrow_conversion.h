// The narrow element types (valuestore/narrow_types.h: the 8-bit and 4-bit floats, float8e8m0,
// int4 and uint4) for kernels, which never compute on them directly: a narrow element widens to
// the type kernels compute with (float for the floats, int8_t and uint8_t for int4 and uint4), and
// a result narrows from a double under Cast's options (saturate, round_mode).
//
//   NarrowTypes::Dispatch(dtype, [&](auto tag) { using T = typename decltype(tag)::type; ... });
//
// Header-only templates; no state, no threading concerns.
#ifndef GRAPHGC_OPSET_KERNELS_COMMON_NARROW_CONVERSION_H_
#define GRAPHGC_OPSET_KERNELS_COMMON_NARROW_CONVERSION_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/valuestore/narrow_types.h"

namespace graphgc::kernels {

// How a value becomes a narrow float: Cast's `saturate` (opset 19 on; QuantizeLinear's too) and
// `round_mode` (opset 24, float8e8m0 only). The defaults are the attributes' defaults.
struct NarrowingOptions {
  Saturation saturation = Saturation::kSaturate;
  E8M0Rounding rounding = E8M0Rounding::kUp;
};

template <class T>
inline constexpr bool kIsSmallFloat = requires {
  T::kFormatSpec;
};
template <class T>
inline constexpr bool kIsNarrowFloat = kIsSmallFloat<T> || std::is_same_v<T, Float8E8M0>;
template <class T>
inline constexpr bool kIsInt4 = std::is_same_v<T, Int4> || std::is_same_v<T, UInt4>;
template <class T>
inline constexpr bool kIsNarrow = kIsNarrowFloat<T> || kIsInt4<T>;

using NarrowFloatTypes = internal::TypeList<Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2,
                                            Float8E5M2FNUZ, Float4E2M1, Float8E8M0>;
using Int4Types = internal::TypeList<Int4, UInt4>;
using NarrowTypes = internal::TypeList<Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ,
                                       Float4E2M1, Float8E8M0, Int4, UInt4>;

// The type a narrow element widens to exactly.
template <class T>
using Widened = std::conditional_t<kIsNarrowFloat<T>, float,
                                   std::conditional_t<std::is_same_v<T, Int4>, int8_t, uint8_t>>;

template <class T>
Widened<T> Widen(T x) {
  if constexpr (kIsNarrowFloat<T>) {
    return x.ToFloat();
  } else {
    return x.value;
  }
}

// A narrow float rounded once from a double; float8e8m0 through float, as ONNX's reference reads
// a float's exponent.
template <class T>
T NarrowFloatFromDouble(double x, const NarrowingOptions& options) {
  if constexpr (std::is_same_v<T, Float8E8M0>) {
    // Beyond FLT_MAX plus half an ulp (2^103) a double rounds to infinity; converting it with a
    // cast would be undefined behaviour.
    const double overflow = static_cast<double>(std::numeric_limits<float>::max()) + 0x1p103;
    const float narrowed = std::fabs(x) >= overflow
                               ? std::copysign(std::numeric_limits<float>::infinity(),
                                               static_cast<float>(x > 0 ? 1 : -1))
                               : static_cast<float>(x);
    return T::FromFloat(narrowed, options.saturation, options.rounding);
  } else {
    return T::FromDouble(x, options.saturation);
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_COMMON_NARROW_CONVERSION_H_
