// Unary math ops: Abs, Neg, Sign, Reciprocal, Ceil, Floor, Round, Sqrt, Exp, Log, Erf, the
// trigonometric and hyperbolic functions and their inverses, IsNaN, IsInf and Not.
//
// Every schema version of each op computes the same function (opset 1's consumed_inputs is only a
// memory hint), so one kernel covers them all; the versions differ in the element types they
// allow, which the caller has checked.
#include <cmath>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {
namespace {

template <class C>
C Negate(C x) {
  if constexpr (std::is_integral_v<C>) {
    return internal::WrapSub(C{0}, x);  // the most negative integer is its own negation
  } else {
    return -x;
  }
}

template <class C>
C Absolute(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::fabs(x);
  } else if constexpr (std::is_signed_v<C>) {
    return x < C{0} ? Negate(x) : x;
  } else {
    return x;
  }
}

// 1, -1, or x itself for zeros (keeping their sign) and NaN, as ONNX Runtime gives for float and
// double.
template <class C>
C SignOf(C x) {
  if (x > C{0}) return C{1};
  if constexpr (std::is_signed_v<C>) {
    if (x < C{0}) return C{-1};
  }
  return x;
}

// Halves go to the even neighbour. Spelled out because nearbyint depends on the thread's rounding
// mode. x - floor(x) is exact but for x in (-1, 0), where rounding it to 0.5 does not change the
// answer (floor is -1, odd, and the result is -0 either way).
template <class C>
C RoundHalfToEven(C x) {
  const C below = std::floor(x);
  const C fraction = x - below;  // NaN for NaN and infinities: `below` is returned as is
  const bool up = fraction > C{0.5} || (fraction == C{0.5} && std::fmod(below, C{2}) != C{0});
  return std::copysign(up ? below + C{1} : below, x);  // -0.4 rounds to -0
}

// Erf of an integer is truncated back to it, as ONNX's reference implementation does
// (np.vectorize(math.erf, otypes=["f"])(x).astype(x.dtype)): erf in double rounded to float, so
// 0, or +-1 from |x| >= 4, where erf rounds to 1 in float.
template <class C>
C ErrorFunction(C x) {
  if constexpr (std::is_integral_v<C>) {
    return static_cast<C>(static_cast<float>(std::erf(static_cast<double>(x))));
  } else {
    return std::erf(x);
  }
}

// Sign of a 16-bit NaN has no value: ONNX Runtime gives 0 for float16 but NaN for float and
// double (and numpy NaN), so neither answer is safe to fold.
absl::Status NoSixteenBitNaN(const KernelContext& ctx) {
  bool nan = false;
  internal::TypeList<Float16, BFloat16>::Dispatch(ctx.input(0).dtype(), [&](auto tag) {
    for (auto v : ctx.input(0).data<typename decltype(tag)::type>())
      nan = nan || std::isnan(v.ToFloat());
  });
  if (nan) return Decline("Sign of a 16-bit NaN, which ONNX Runtime makes 0 for float16 only");
  return absl::OkStatus();
}

// An op defined on real numbers only.
template <class F>
void AddRealFunction(KernelTable& table, absl::string_view op, int since, F f) {
  table.add("", op, since, KernelTable::kLatest, {{"T", FloatingPointTypes::kSet}},
            UnaryKernel<FloatingPointTypes>(f));
}

}  // namespace

void RegisterUnaryKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  table.add("", "Abs", 1, kLatest, {{"T", NumericTypes::kSet}},
            UnaryKernel<NumericTypes>([](auto x) { return Absolute(x); }));
  table.add("", "Neg", 1, kLatest, {{"T", NumericTypes::kSet}},
            UnaryKernel<NumericTypes>([](auto x) { return Negate(x); }));
  table.add("", "Sign", 9, kLatest, {{"T", NumericTypes::kSet}},
            Checked(NoSixteenBitNaN, UnaryKernel<NumericTypes>([](auto x) { return SignOf(x); })));
  table.add("", "Erf", 9, kLatest, {{"T", NumericTypes::kSet}},
            UnaryKernel<NumericTypes>([](auto x) { return ErrorFunction(x); }));

  AddRealFunction(table, "Reciprocal", 1, [](auto x) { return decltype(x){1} / x; });
  AddRealFunction(table, "Ceil", 1, [](auto x) { return std::ceil(x); });
  AddRealFunction(table, "Floor", 1, [](auto x) { return std::floor(x); });
  AddRealFunction(table, "Round", 11, [](auto x) { return RoundHalfToEven(x); });
  AddRealFunction(table, "Sqrt", 1, [](auto x) { return std::sqrt(x); });
  AddRealFunction(table, "Exp", 1, [](auto x) { return std::exp(x); });
  AddRealFunction(table, "Log", 1, [](auto x) { return std::log(x); });
  AddRealFunction(table, "Tanh", 1, [](auto x) { return std::tanh(x); });
  AddRealFunction(table, "Sin", 7, [](auto x) { return std::sin(x); });
  AddRealFunction(table, "Cos", 7, [](auto x) { return std::cos(x); });
  AddRealFunction(table, "Tan", 7, [](auto x) { return std::tan(x); });
  AddRealFunction(table, "Asin", 7, [](auto x) { return std::asin(x); });
  AddRealFunction(table, "Acos", 7, [](auto x) { return std::acos(x); });
  AddRealFunction(table, "Atan", 7, [](auto x) { return std::atan(x); });
  AddRealFunction(table, "Sinh", 9, [](auto x) { return std::sinh(x); });
  AddRealFunction(table, "Cosh", 9, [](auto x) { return std::cosh(x); });
  AddRealFunction(table, "Asinh", 9, [](auto x) { return std::asinh(x); });
  AddRealFunction(table, "Acosh", 9, [](auto x) { return std::acosh(x); });
  AddRealFunction(table, "Atanh", 9, [](auto x) { return std::atanh(x); });

  table.add("", "IsNaN", 9, kLatest, {{"T1", FloatingPointTypes::kSet}},
            UnaryKernel<FloatingPointTypes, bool>([](auto x) { return std::isnan(x); }));
  table.add("", "IsInf", 10, kLatest, {{"T1", FloatingPointTypes::kSet}},
            UnaryKernelWith<FloatingPointTypes, bool>([](const KernelContext& ctx) {
              const bool negative = ctx.int_attribute("detect_negative") != 0;
              const bool positive = ctx.int_attribute("detect_positive") != 0;
              return [negative, positive](auto x) {
                return std::isinf(x) && (x > 0 ? positive : negative);
              };
            }));
  table.add("", "Not", 1, kLatest, {{"T", BoolType::kSet}},
            UnaryKernel<BoolType>([](bool x) { return !x; }));
}

}  // namespace graphgc::kernels
