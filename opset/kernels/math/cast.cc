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
//
// The narrow types (opset 19 on: float8, 21: int4 and uint4, 23: float4e2m1, 24: float8e8m0)
// convert through their widened type (common/narrow_conversion.h): from one, the value is first
// exactly a float (int8, uint8 for the 4-bit integers); to a narrow float, a value is rounded
// once to nearest even from a double, with `saturate` (opset 19 on; default 1) choosing between
// the largest finite value and the format's infinity or NaN past the range, and float8e8m0 rounds
// by `round_mode` (opset 24; default "up"). To int4 and uint4, values wrap modulo 16 as every
// narrowing integer conversion does (ONNX's test data casts -9.0 to int4 7); reals are truncated
// first, and one outside int64 declines as above.
#include <optional>
#include <string>
#include <type_traits>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/common/narrow_conversion.h"
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

// The value of a number, bool or string as a double (nullopt: a string that is not a number).
template <class From>
std::optional<double> AsDouble(const From& x) {
  if constexpr (std::is_same_v<From, std::string>) {
    return ParseReal(x);
  } else if constexpr (std::is_same_v<From, bool>) {
    return x ? 1.0 : 0.0;
  } else {
    return static_cast<double>(Load(x));
  }
}

template <class To, class From>
std::optional<To> Convert(const From& x, const NarrowingOptions& options) {
  if constexpr (std::is_same_v<From, To>) {
    return x;  // not reached: a cast to the same type returns its input
  } else if constexpr (kIsNarrow<From>) {
    return Convert<To>(Widen(x), options);
  } else if constexpr (kIsNarrowFloat<To>) {
    const std::optional<double> value = AsDouble(x);
    if (!value.has_value()) return std::nullopt;
    return NarrowFloatFromDouble<To>(*value, options);
  } else if constexpr (kIsInt4<To>) {
    const std::optional<int64_t> value = Convert<int64_t>(x, options);
    if (!value.has_value()) return std::nullopt;
    return To::FromInteger(*value);
  } else if constexpr (std::is_same_v<From, std::string>) {
    return ParseNumber<To>(x);
  } else if constexpr (std::is_same_v<To, std::string>) {
    return FormatNumber(x);
  } else {
    return ConvertNumber<To>(x);
  }
}

template <class To, class From>
absl::StatusOr<Tensor> CastElements(const KernelContext& ctx, const Tensor& x,
                                    const NarrowingOptions& options) {
  return MapPartially<To, From>(
      ctx, x, [&options](const From& value) { return Convert<To, From>(value, options); },
      absl::StrCat("a ", DataTypeName(DataTypeOf<From>::value), " value has no defined ",
                   DataTypeName(DataTypeOf<To>::value), " (out of range, or not a number)"));
}

// The element types Cast converts between.
using CastTypes = internal::TypeList<float, double, Float16, BFloat16, int8_t, int16_t, int32_t,
                                     int64_t, uint8_t, uint16_t, uint32_t, uint64_t, bool,
                                     std::string, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2,
                                     Float8E5M2FNUZ, Float4E2M1, Float8E8M0, Int4, UInt4>;

// The attributes a version of Cast and CastLike has besides `to`.
enum class CastAttributes {
  kNone,                  // opsets 1 to 18
  kSaturate,              // 19 to 23
  kSaturateAndRoundMode,  // 24 on
};

absl::StatusOr<E8M0Rounding> RoundingOf(const std::string& round_mode) {
  if (round_mode == "up") return E8M0Rounding::kUp;
  if (round_mode == "down") return E8M0Rounding::kDown;
  if (round_mode == "nearest") return E8M0Rounding::kNearest;
  return absl::InvalidArgumentError(absl::StrCat("round_mode is \"", round_mode,
                                                 "\"; it must be \"up\", \"down\" or \"nearest\""));
}

template <CastAttributes kAttributes>
KernelResult Cast(const KernelContext& ctx) {
  NarrowingOptions options;
  if constexpr (kAttributes != CastAttributes::kNone) {
    if (ctx.int_attribute("saturate", 1) == 0) options.saturation = Saturation::kNoSaturate;
  }
  if constexpr (kAttributes == CastAttributes::kSaturateAndRoundMode) {
    GRAPHGC_ASSIGN_OR_RETURN(options.rounding,
                             RoundingOf(ctx.string_attribute("round_mode", "up")));
  }
  const Tensor& x = ctx.input(0);
  const DataType to = ctx.output(0).dtype;
  if (x.dtype() == to) return KernelOutputs{x};
  return ForType<CastTypes>(ctx, x.dtype(), [&](auto from_tag) -> absl::StatusOr<Tensor> {
    std::optional<absl::StatusOr<Tensor>> y;
    CastTypes::Dispatch(to, [&](auto to_tag) {
      y.emplace(CastElements<typename decltype(to_tag)::type, typename decltype(from_tag)::type>(
          ctx, x, options));
    });
    if (!y.has_value()) return Decline(absl::StrCat("Cast to ", DataTypeName(to)));
    return *std::move(y);
  });
}

}  // namespace

void RegisterCastKernels(KernelTable& table) {
  // One declaration for every version: the schema's types at each version narrow it (opset 19
  // admits float8, 21 int4 and uint4, 23 float4e2m1, 24 float8e8m0). The ranges end where the
  // attributes change.
  const KernelTypes any_to_any = {{"T1", CastTypes::kSet}, {"T2", CastTypes::kSet}};
  auto add_versions = [&](const char* op, int first) {
    table.add("", op, first, 18, any_to_any, Cast<CastAttributes::kNone>);
    table.add("", op, 19, 23, any_to_any, Cast<CastAttributes::kSaturate>);
    table.add("", op, 24, KernelTable::kLatest, any_to_any,
              Cast<CastAttributes::kSaturateAndRoundMode>);
  };
  add_versions("Cast", 1);
  add_versions("CastLike", 15);
}

}  // namespace graphgc::kernels
