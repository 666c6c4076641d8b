// Gelu (opset 20): x * Phi(x), Phi the standard normal CDF; approximate = "tanh":
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))). The constants are exact in the compute type
// (ONNX's function body takes them as float attributes, so a double Gelu through the body was
// off in its tail against ONNX's reference).
//
// Phi(x) = 0.5 erfc(-x / sqrt 2), which keeps its precision for negative x, where 1 + erf
// cancels. Float inputs, all finite, take a branch-free path that vectorizes (with AVX-512, or
// AVX2 and FMA, where the processor has them): erfc(z) = t exp(-z^2 + P(t)), t = 1 / (1 + z / 2),
// Numerical Recipes' erfcc (relative error below 1.2e-7), through FastExp; within 1e-6 + 6e-8 x^2
// relative of the double result (the exp argument is a float near -x^2 / 2: 2e-6 at |x| = 4, 7e-6
// at 10), and 0 where Gelu falls below float's normal range (|x| > 13.2). Others go through
// std::erfc in their compute type.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/common/fast_exp.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

template <class C>
C PreciseGelu(C x) {
  return C{0.5} * x * std::erfc(-x * static_cast<C>(M_SQRT1_2));
}

template <class C>
C TanhGelu(C x) {
  const C inner = static_cast<C>(0.7978845608028654) * (x + static_cast<C>(0.044715) * x * x * x);
  return C{0.5} * x * (C{1} + std::tanh(inner));
}

// Finite x only.
inline float FastGelu(float x) {
  // Past |x| = 16 the tail is 0 in float (Phi is 0 or 1): the tail is computed from x clamped
  // there, which keeps 4097 x (below) and the exponent finite.
  const float xc = std::min(std::max(x, -16.0f), 16.0f);
  const float z = std::fabs(xc) * static_cast<float>(M_SQRT1_2);
  const float t = 1.0f / (1.0f + 0.5f * z);
  float p = 0.17087277f;
  p = p * t - 0.82215223f;
  p = p * t + 1.48851587f;
  p = p * t - 1.13520398f;
  p = p * t + 0.27886807f;
  p = p * t - 0.18628806f;
  p = p * t + 0.09678418f;
  p = p * t + 0.37409196f;
  p = p * t + 1.00002368f;
  p = p * t - 1.26551223f;
  // The exponent p - x^2 / 2 with x^2 exact (x split into halves of 12 bits: Veltkamp), so that
  // only its last rounding reaches the tail.
  const float c = 4097.0f * xc;
  const float high = c - (c - xc);
  const float low = xc - high;
  const float exponent = (p - 0.5f * (high * high)) - (high * low + 0.5f * (low * low));
  const float half_tail = 0.5f * t * FastExp(exponent);  // 0.5 erfc(|x| / sqrt 2)
  // Phi(x): the half tail for negative x, 1 less it for positive x, by a weight that is 0 or 1
  // (arithmetic, so that the loop vectorizes); only where x is within 1e-30 of 0 is it between,
  // and there both are 0.5.
  const float positive = std::min(std::max(x * 1e30f, 0.0f), 1.0f);
  return x * (half_tail + positive * (1.0f - 2.0f * half_tail));
}

// y = FastGelu(x) over n elements; whether every x was finite (y is not meant to be read where
// one was not). The test reads the exponent bits in the same pass: all ones (an infinity or a NaN)
// carries into bit 31. A separate pass over the input cost a third of the kernel's time.
inline bool FastGeluLoopBody(const float* x, float* y, int64_t n) {
  uint32_t carried = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &x[i], sizeof(bits));
    carried |= (bits & 0x7f800000u) + 0x00800000u;
    y[i] = FastGelu(x[i]);
  }
  return (carried & 0x80000000u) == 0;
}

bool FastGeluLoop(const float* x, float* y, int64_t n) { return FastGeluLoopBody(x, y, n); }

__attribute__((target("avx2,fma"))) bool FastGeluLoopAvx2(const float* x, float* y, int64_t n) {
  return FastGeluLoopBody(x, y, n);
}

__attribute__((target("avx512f,avx2,fma"))) bool FastGeluLoopAvx512(const float* x, float* y,
                                                                    int64_t n) {
  return FastGeluLoopBody(x, y, n);
}

absl::Status ApproximationIsKnown(const KernelContext& ctx) {
  const std::string approximate = ctx.string_attribute("approximate", "none");
  if (approximate == "none" || approximate == "tanh") return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("attribute approximate is '", approximate, "', not 'none' or 'tanh'"));
}

const Kernel& PreciseKernel() {
  static const Kernel* kernel =
      new Kernel(UnaryKernelWith<FloatingPointTypes>([](const KernelContext& ctx) {
        return [tanh = ctx.string_attribute("approximate", "none") == "tanh"](auto x) {
          return tanh ? TanhGelu(x) : PreciseGelu(x);
        };
      }));
  return *kernel;
}

// The fast path over float x; nullopt when some x is not finite.
absl::StatusOr<std::optional<Tensor>> FastGeluOfFloats(const KernelContext& ctx, const Tensor& x) {
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kFloat, x.shape()));
  const float* in = x.data<float>().data();
  float* to = out.mutable_data<float>().data();
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  const bool finite = avx512 ? FastGeluLoopAvx512(in, to, x.size())
                      : avx2 ? FastGeluLoopAvx2(in, to, x.size())
                             : FastGeluLoop(in, to, x.size());
  if (!finite) return std::nullopt;
  return std::move(out).freeze();
}

KernelResult Gelu(const KernelContext& ctx) {
  GRAPHGC_RETURN_IF_ERROR(ApproximationIsKnown(ctx));
  const Tensor& x = ctx.input(0);
  const bool exact = ctx.string_attribute("approximate", "none") == "none";
  if (x.dtype() == DataType::kFloat && exact) {
    GRAPHGC_ASSIGN_OR_RETURN(std::optional<Tensor> y, FastGeluOfFloats(ctx, x));
    if (y.has_value()) return KernelOutputs{*std::move(y)};
  }
  return PreciseKernel()(ctx);
}

}  // namespace

void RegisterGeluKernels(KernelTable& table) {
  table.add("", "Gelu", 20, KernelTable::kLatest, {{"T", FloatingPointTypes::kSet}}, Gelu);
}

}  // namespace graphgc::kernels
