// Activation functions: Relu, LeakyRelu, PRelu, Elu, Celu, Selu, HardSigmoid, HardSwish, Sigmoid,
// Softplus, Softsign, ThresholdedRelu, Shrink.
//
// Attributes are the schema's (defaults applied by the caller; Selu's differ between opsets 1 and
// 6, the function does not). NaN inputs give NaN, except where the function's comparison sends NaN
// to a constant branch (ThresholdedRelu and Shrink give 0), matching ONNX Runtime.
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"
#include "graphgc/opset/kernels/math/numeric_conversion.h"

namespace graphgc::kernels {
namespace {

// alpha * x + beta clamped to [0, 1]; NaN stays NaN.
template <class C>
C HardSigmoidOf(C x, C alpha, C beta) {
  const C y = alpha * x + beta;
  return y < C{0} ? C{0} : (y > C{1} ? C{1} : y);
}

// 1 / (1 + e^-x), written so that no exp overflows.
template <class C>
C SigmoidOf(C x) {
  if (x >= C{0}) return C{1} / (C{1} + std::exp(-x));
  const C e = std::exp(x);
  return e / (C{1} + e);
}

// log(1 + e^x), written so that no exp overflows.
template <class C>
C SoftplusOf(C x) {
  return x > C{0} ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

// x + bias below -lambd, x - bias above lambd, 0 between (and for NaN).
template <class C>
C ShrinkOf(C x, C bias, C lambd) {
  if (x < -lambd) return x + bias;
  if (x > lambd) return x - bias;
  return C{0};
}

// Shrink in the input's precision: integers (the schema allows them) in double, the result
// truncated toward zero, and a result outside the type declines. (ONNX Runtime computes in float
// for every type, doubles and large integers included, and converts out-of-range results with
// undefined behaviour.)
KernelResult Shrink(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const double bias = ctx.float_attribute("bias");
  const double lambd = ctx.float_attribute("lambd");
  return ForType<NumericTypes>(ctx, x.dtype(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (internal::kIsFloatingPoint<T>) {
      using C = internal::ComputeType<T>;
      const C b = static_cast<C>(bias);
      const C l = static_cast<C>(lambd);
      return MapElements<T, T>(ctx, x, OnComputeType<T>([b, l](C v) { return ShrinkOf(v, b, l); }));
    } else {
      return MapPartially<T, T>(
          ctx, x,
          [bias, lambd](T v) {
            return TruncateToInteger<T>(ShrinkOf(static_cast<double>(v), bias, lambd));
          },
          "Shrink's result is outside the integer type");
    }
  });
}

}  // namespace

void RegisterActivationKernels(KernelTable& table) {
  constexpr int kLatest = KernelTable::kLatest;
  const KernelTypes numeric = {{"T", NumericTypes::kSet}};
  const KernelTypes reals = {{"T", FloatingPointTypes::kSet}};
  table.add("", "Relu", 1, kLatest, numeric,
            UnaryKernel<NumericTypes>([](auto x) { return IsNegative(x) ? decltype(x){0} : x; }));
  table.add("", "LeakyRelu", 1, kLatest, reals,
            UnaryKernelWith<FloatingPointTypes>([](const KernelContext& ctx) {
              return [alpha = ctx.float_attribute("alpha")](auto x) {
                return x >= 0 ? x : static_cast<decltype(x)>(alpha) * x;
              };
            }));
  const auto prelu = [](auto x, auto slope) {
    return IsNegative(x) ? internal::WrapMul(slope, x) : x;
  };
  // Before opset 7 the slope applies per channel (LegacyPReluSlope); from 7 it broadcasts.
  table.add("", "PRelu", 1, 6, numeric, BinaryKernel<NumericTypes>(prelu, LegacyPReluSlope));
  table.add("", "PRelu", 7, kLatest, numeric, BinaryKernel<NumericTypes>(prelu));
  table.add("", "Elu", 1, kLatest, reals,
            UnaryKernelWith<FloatingPointTypes>([](const KernelContext& ctx) {
              return [alpha = ctx.float_attribute("alpha")](auto x) {
                return x >= 0 ? x : static_cast<decltype(x)>(alpha) * std::expm1(x);
              };
            }));
  table.add("", "Celu", 12, kLatest, reals,
            UnaryKernelWith<FloatingPointTypes>([](const KernelContext& ctx) {
              return [alpha = ctx.float_attribute("alpha")](auto x) {
                const auto a = static_cast<decltype(x)>(alpha);
                return x > 0 ? x : a * std::expm1(x / a);
              };
            }));
  table.add("", "Selu", 1, kLatest, reals,
            UnaryKernelWith<FloatingPointTypes>([](const KernelContext& ctx) {
              return [alpha = ctx.float_attribute("alpha"),
                      gamma = ctx.float_attribute("gamma")](auto x) {
                using C = decltype(x);
                return static_cast<C>(gamma) * (x > 0 ? x : static_cast<C>(alpha) * std::expm1(x));
              };
            }));
  table.add("", "HardSigmoid", 1, kLatest, reals,
            UnaryKernelWith<FloatingPointTypes>([](const KernelContext& ctx) {
              return [alpha = ctx.float_attribute("alpha"),
                      beta = ctx.float_attribute("beta")](auto x) {
                using C = decltype(x);
                return HardSigmoidOf(x, static_cast<C>(alpha), static_cast<C>(beta));
              };
            }));
  table.add("", "HardSwish", 14, kLatest, reals, UnaryKernel<FloatingPointTypes>([](auto x) {
              using C = decltype(x);
              return x * HardSigmoidOf(x, C{1} / C{6}, C{0.5});
            }));
  table.add("", "Sigmoid", 1, kLatest, reals,
            UnaryKernel<FloatingPointTypes>([](auto x) { return SigmoidOf(x); }));
  table.add("", "Softplus", 1, kLatest, reals,
            UnaryKernel<FloatingPointTypes>([](auto x) { return SoftplusOf(x); }));
  table.add("", "Softsign", 1, kLatest, reals, UnaryKernel<FloatingPointTypes>([](auto x) {
              return x / (decltype(x){1} + std::fabs(x));
            }));
  table.add("", "ThresholdedRelu", 10, kLatest, reals,
            UnaryKernelWith<FloatingPointTypes>([](const KernelContext& ctx) {
              return [alpha = ctx.float_attribute("alpha")](auto x) {
                return x > static_cast<decltype(x)>(alpha) ? x : decltype(x){0};
              };
            }));
  table.add("", "Shrink", 9, kLatest, numeric, Shrink);
}

}  // namespace graphgc::kernels
