#include "graphgc/opset/kernels/math/cast.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "graphgc/opset/kernels/common/dispatch.h"

namespace graphgc::internal {
namespace {

// A value of a "wide" type: every source is first loaded as double, int64 or uint64, losslessly.
template <class From>
auto Widen(From x) {
  if constexpr (std::is_same_v<From, bool>) {
    return static_cast<uint64_t>(x);
  } else if constexpr (kIsHalf<From> || std::is_floating_point_v<From>) {
    return static_cast<double>(Load(x));
  } else if constexpr (std::is_signed_v<From>) {
    return static_cast<int64_t>(x);
  } else {
    return static_cast<uint64_t>(x);
  }
}

// Rounds to nearest even like the hardware, spelled out at the top of the range, where the
// conversion of an out-of-range double is undefined behaviour in C++: magnitudes from FLT_MAX plus
// half an ulp (2^103) upward become infinities.
float DoubleToFloat(double x) {
  const double overflow = static_cast<double>(std::numeric_limits<float>::max()) + 0x1p103;
  if (x >= overflow) return std::numeric_limits<float>::infinity();
  if (x <= -overflow) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(x);
}

template <class To>
To FromDouble(double x) {
  if constexpr (std::is_same_v<To, bool>) {
    return x != 0.0;  // NaN != 0 is true
  } else if constexpr (kIsHalf<To>) {
    return To::FromDouble(x);
  } else if constexpr (std::is_same_v<To, float>) {
    return DoubleToFloat(x);
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(x);
  } else {
    if (std::isnan(x)) return To{0};
    const double t = std::trunc(x);
    // Limits as doubles: min is exact (a power of two or 0); max+1 is exact, so compare with it.
    const double lowest = static_cast<double>(std::numeric_limits<To>::min());
    const double above_max = static_cast<double>(std::numeric_limits<To>::max()) + 1.0;
    if (t < lowest) return std::numeric_limits<To>::min();
    if (t >= above_max) return std::numeric_limits<To>::max();
    return static_cast<To>(t);
  }
}

template <class To, class Wide>
To FromInteger(Wide x) {
  if constexpr (std::is_same_v<To, bool>) {
    return x != 0;
  } else if constexpr (kIsHalf<To>) {
    return To::FromFloat(static_cast<float>(x));
  } else {
    return static_cast<To>(x);  // integers wrap (C++20); int to float rounds
  }
}

template <class To, class From>
To Convert(From x) {
  const auto wide = Widen(x);
  if constexpr (std::is_same_v<decltype(wide), const double>) {
    return FromDouble<To>(wide);
  } else {
    return FromInteger<To>(wide);
  }
}

template <class From, class To>
std::optional<Tensor> CastOfTypes(const Tensor& input, DataType to) {
  auto out = MutableTensor::allocate(to, input.shape());
  if (!out.ok()) return std::nullopt;
  const From* src = input.data<From>().data();
  To* dst = out->mutable_data<To>().data();
  for (int64_t i = 0; i < input.size(); ++i) dst[i] = Convert<To>(src[i]);
  return std::move(*out).freeze();
}

}  // namespace

std::optional<Tensor> ComputeCast(const Tensor& input, DataType to) {
  if (input.dtype() == to) return input;
  std::optional<Tensor> result;
  DispatchNumericOrBool(input.dtype(), [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    DispatchNumericOrBool(to, [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      result = CastOfTypes<From, To>(input, to);
    });
  });
  return result;
}

}  // namespace graphgc::internal
