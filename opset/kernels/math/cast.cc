// Cast and CastLike: element conversions between the numeric types, bool and string. The target
// is the output's element type (Cast's `to`, a name in opset 1 and a code since; CastLike's
// second input's type).
//
// Numbers: integers narrowed wrap modulo 2^bits; reals become integers by truncation toward
// zero, and a value outside the target's range — NaN and the infinities too — declines: ONNX
// leaves it undefined, and ONNX Runtime's results there depend on the CPU (and on x86-64 even on
// whether its loop was vectorized). Anything becomes bool as "!= 0" (NaN is true). Conversions
// to floating point round to nearest even, once: a double becomes float16 in one rounding, where
// ONNX Runtime goes through float (a difference in the last bit at rare double-rounding cases),
// and a float becomes bfloat16 rounded to nearest even as ONNX Runtime does (ONNX 1.12's test data
// truncates instead). Strings: cast_string.h; a string that is not a number declines.
#include <optional>
#include <string>
#include <type_traits>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/cast_string.h"
#include "graphgc/opset/kernels/math/elementwise.h"
#include "graphgc/opset/kernels/math/math_kernels.h"
#include "graphgc/opset/kernels/math/numeric_conversion.h"

namespace graphgc::kernels {
namespace {

using internal::kIsFloatingPoint;
using internal::kIsHalf;
using internal::Load;

template <class To, class From>
std::optional<To> ConvertNumber(From x) {
  if constexpr (std::is_same_v<To, bool>) {
    return Load(x) != 0;
  } else if constexpr (std::is_same_v<From, bool>) {
    return internal::Store<To>(x ? 1 : 0);
  } else if constexpr (kIsFloatingPoint<From> && std::is_integral_v<To>) {
    return TruncateToInteger<To>(static_cast<double>(Load(x)));
  } else if constexpr (kIsHalf<To> && !std::is_same_v<From, double>) {
    return To::FromFloat(static_cast<float>(Load(x)));  // exact for the floats; int64 rounds twice
  } else if constexpr (kIsFloatingPoint<From> && kIsFloatingPoint<To>) {
    return RoundFromDouble<To>(static_cast<double>(Load(x)));
  } else {
    return static_cast<To>(x);  // integer to integer wraps (C++20); integer to real rounds
  }
}

template <class From>
std::string FormatNumber(From x) {
  if constexpr (std::is_same_v<From, bool>) {
    return x ? "1" : "0";
  } else if constexpr (kIsFloatingPoint<From>) {
    return FormatReal(static_cast<double>(Load(x)), !std::is_same_v<From, double>);
  } else if constexpr (std::is_signed_v<From>) {
    return FormatSigned(x);
  } else {
    return FormatUnsigned(x);
  }
}

template <class To>
std::optional<To> ParseNumber(const std::string& text) {
  if constexpr (kIsFloatingPoint<To>) {
    const std::optional<double> value = ParseReal(text);
    if (!value.has_value()) return std::nullopt;
    return RoundFromDouble<To>(*value);
  } else {
    const std::optional<ParsedInteger> value = ParseInteger(text);
    if (!value.has_value()) return std::nullopt;
    if constexpr (std::is_same_v<To, bool>) {
      return value->bits != 0;
    } else {
      if (std::is_signed_v<To> && !value->fits_signed) return std::nullopt;
      return static_cast<To>(value->bits);
    }
  }
}

template <class To, class From>
std::optional<To> Convert(const From& x) {
  if constexpr (std::is_same_v<From, To>) {
    return x;  // not reached: a cast to the same type returns its input
  } else if constexpr (std::is_same_v<From, std::string>) {
    return ParseNumber<To>(x);
  } else if constexpr (std::is_same_v<To, std::string>) {
    return FormatNumber(x);
  } else {
    return ConvertNumber<To>(x);
  }
}

template <class To, class From>
absl::StatusOr<Tensor> CastElements(const KernelContext& ctx, const Tensor& x) {
  return MapPartially<To, From>(
      ctx, x, Convert<To, From>,
      absl::StrCat("a ", DataTypeName(DataTypeOf<From>::value), " value has no defined ",
                   DataTypeName(DataTypeOf<To>::value), " (out of range, or not a number)"));
}

KernelResult Cast(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const DataType to = ctx.output(0).dtype;
  if (x.dtype() == to) return KernelOutputs{x};
  return ForType<AnyTypes>(ctx, x.dtype(), [&](auto from_tag) -> absl::StatusOr<Tensor> {
    std::optional<absl::StatusOr<Tensor>> y;
    AnyTypes::Dispatch(to, [&](auto to_tag) {
      y.emplace(
          CastElements<typename decltype(to_tag)::type, typename decltype(from_tag)::type>(ctx, x));
    });
    if (!y.has_value()) return Decline(absl::StrCat("Cast to ", DataTypeName(to)));
    return *std::move(y);
  });
}

}  // namespace

void RegisterCastKernels(KernelTable& table) {
  const KernelTypes any_to_any = {{"T1", AnyTypes::kSet}, {"T2", AnyTypes::kSet}};
  // Opset 19 adds `saturate` and the float8 types.
  table.add("", "Cast", 1, kLastKnownOpset, any_to_any, Cast);
  table.add("", "CastLike", 15, kLastKnownOpset, any_to_any, Cast);
}

}  // namespace graphgc::kernels
