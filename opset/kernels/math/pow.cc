// Pow: base^exponent under broadcasting; from opset 12 the exponent's type may differ from the
// base's (opset 1 broadcasts by the legacy rules).
//
// Floating-point bases: the power in double when the exponent is an integer (an int64 is not
// exact in float) or a double, else in float, rounded once to the base's type — as ONNX Runtime
// computes std::pow. Integer bases: an integer exponent gives the exact power (x^-n is 1/x^n
// truncated, 0 unless x is +-1); a real exponent the real power truncated toward zero. Integer
// results beyond the base's type, and 0 to a negative power, decline (ONNX leaves them undefined;
// ONNX Runtime converts an out-of-range double with undefined behaviour).
#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/legacy_broadcast.h"
#include "graphgc/opset/kernels/math/math_kernels.h"
#include "graphgc/opset/kernels/math/numeric_conversion.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;

// The schema's base types (T).
using BaseTypes = internal::TypeList<int32_t, int64_t, float, double, Float16, BFloat16>;

// base^exponent exactly; nullopt when it overflows Int or divides by zero.
template <class Int, class Exp>
std::optional<Int> IntegerPower(Int base, Exp exponent) {
  if (IsNegative(exponent)) {
    if (base == Int{0}) return std::nullopt;
    if (base == Int{1}) return Int{1};
    if (base == Int{-1}) return exponent % 2 == 0 ? Int{1} : Int{-1};
    return Int{0};  // |1 / base^n| < 1
  }
  Int result = 1;
  Int square = base;
  for (uint64_t e = static_cast<uint64_t>(exponent); e != 0;) {
    if ((e & 1) != 0 && __builtin_mul_overflow(result, square, &result)) return std::nullopt;
    e >>= 1;
    // A remaining bit multiplies the next square into the result, so its overflow is the result's.
    if (e != 0 && __builtin_mul_overflow(square, square, &square)) return std::nullopt;
  }
  return result;
}

template <class T, class E>
std::optional<T> Power(T base, E exponent) {
  if constexpr (std::is_integral_v<T> && std::is_integral_v<E>) {
    return IntegerPower(base, exponent);
  } else if constexpr (std::is_integral_v<T>) {
    return TruncateToInteger<T>(
        std::pow(static_cast<double>(base), static_cast<double>(Load(exponent))));
  } else {
    constexpr bool kInDouble = std::is_same_v<ComputeType<T>, double> ||
                               std::is_same_v<E, double> || std::is_integral_v<E>;
    using W = std::conditional_t<kInDouble, double, float>;
    const W power = std::pow(static_cast<W>(Load(base)), static_cast<W>(Load(exponent)));
    if constexpr (kInDouble) {
      return RoundFromDouble<T>(power);
    } else {
      return internal::Store<T>(power);
    }
  }
}

template <class T, class E>
absl::StatusOr<Tensor> PowOfTypes(const KernelContext& ctx, const Tensor& x, const Tensor& y) {
  return BroadcastPartially<T, T, E>(ctx, Power<T, E>, {&x, &y},
                                     "an integer power outside the base's type, or 0 to a "
                                     "negative power");
}

KernelResult Pow(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const Tensor y, LegacyBroadcastOperand(ctx, x, ctx.input(1)));
  return ForType<BaseTypes>(ctx, x.dtype(), [&](auto base_tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(base_tag)::type;
    std::optional<absl::StatusOr<Tensor>> z;
    NumericTypes::Dispatch(y.dtype(), [&](auto exponent_tag) {
      z.emplace(PowOfTypes<T, typename decltype(exponent_tag)::type>(ctx, x, y));
    });
    if (!z.has_value()) return Decline("Pow with this exponent type");
    return *std::move(z);
  });
}

}  // namespace

void RegisterPowKernels(KernelTable& table) {
  // Before opset 12 the exponent is of the base's type T; from 12 it has its own, T1.
  table.add("", "Pow", 1, 11, {{"T", BaseTypes::kSet}}, Pow);
  table.add("", "Pow", 12, KernelTable::kLatest,
            {{"T", BaseTypes::kSet}, {"T1", NumericTypes::kSet}}, Pow);
}

}  // namespace graphgc::kernels
