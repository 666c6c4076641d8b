// Clip: every element limited to [min, max], as ONNX Runtime computes it — std::max with min, then
// std::min with max — so NaN elements stay NaN, a NaN bound is ignored and min > max gives max.
//
// Before opset 11 the bounds are float attributes (opset 6 defaults them to -+FLT_MAX; opset 1 has
// no defaults); from opset 11 they are optional inputs of x's type holding one element. A bound
// not given is the type's lowest or largest finite value, as ONNX specifies: infinities become
// the largest finite values (65504 for float16).
#include <algorithm>
#include <limits>
#include <optional>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/math/math_kernels.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;

// The largest finite T, and the lowest, in T's compute type.
template <class T>
ComputeType<T> LargestFinite() {
  if constexpr (std::is_same_v<T, Float16>) {
    return Float16{0x7bff}.ToFloat();
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return BFloat16{0x7f7f}.ToFloat();
  } else {
    return std::numeric_limits<T>::max();
  }
}

template <class T>
ComputeType<T> LowestFinite() {
  if constexpr (internal::kIsFloatingPoint<T>) {
    return -LargestFinite<T>();
  } else {
    return std::numeric_limits<T>::lowest();
  }
}

// The bound named `name` (input `input` from opset 11), or nullopt for none.
template <class T>
absl::StatusOr<std::optional<ComputeType<T>>> Bound(const KernelContext& ctx, const char* name,
                                                    int input) {
  constexpr int kBoundsAsInputsSince = 11;
  using C = ComputeType<T>;
  if (ctx.version() < kBoundsAsInputsSince) {
    if (!ctx.has_attribute(name)) return std::nullopt;
    return static_cast<C>(ctx.float_attribute(name));
  }
  const Tensor* bound = ctx.optional_input(input);
  if (bound == nullptr) return std::nullopt;
  if (bound->size() != 1) {
    return ctx.input_error(input,
                           absl::StrCat("must hold one element (a scalar), but its shape is ",
                                        ShapeToString(bound->shape())));
  }
  return internal::Load(bound->data<T>()[0]);
}

KernelResult Clip(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  return ForType<NumericTypes>(ctx, x.dtype(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    GRAPHGC_ASSIGN_OR_RETURN(const std::optional<C> min, Bound<T>(ctx, "min", 1));
    GRAPHGC_ASSIGN_OR_RETURN(const std::optional<C> max, Bound<T>(ctx, "max", 2));
    const C lo = min.value_or(LowestFinite<T>());
    const C hi = max.value_or(LargestFinite<T>());
    return MapElements<T, T>(
        ctx, x, OnComputeType<T>([lo, hi](C v) { return std::min(std::max(v, lo), hi); }));
  });
}

}  // namespace

void RegisterClipKernels(KernelTable& table) {
  table.add("", "Clip", 1, KernelTable::kLatest, {{"T", NumericTypes::kSet}}, Clip);
}

}  // namespace graphgc::kernels
