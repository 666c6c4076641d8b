// The element types of the pooling ops and the dispatch on them: the typed body runs for a type
// of the list, any other type declines (no value). RunPool is the whole of a single-output pool
// once its plan is made (RunMaxPool of a max pool); LpPoolExponent reads the Lp pools' p.
#ifndef GRAPHGC_OPSET_KERNELS_POOL_POOL_DISPATCH_H_
#define GRAPHGC_OPSET_KERNELS_POOL_POOL_DISPATCH_H_

#include <cstdint>
#include <type_traits>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/pool/pool_plan.h"
#include "graphgc/opset/kernels/pool/pool_reducers.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {

using FloatTypes = internal::TypeList<float, double, Float16>;
using MaxPoolTypes = internal::TypeList<float, double, Float16, int8_t, uint8_t>;

template <class Types, class F>
KernelResult DispatchPoolType(DataType dtype, F&& body) {
  KernelResult result = Decline(absl::StrCat("no kernel for element type ", DataTypeName(dtype)));
  Types::Dispatch(dtype, [&](auto tag) { result = body(tag); });
  return result;
}

// Output 0 of shape plan.output_shape, each element what the reducer make_reducer(T* y) makes
// computes over its window of x.
template <class Types, class MakeReducer>
KernelResult RunPool(const KernelContext& ctx, const Tensor& x, const PoolPlan& plan,
                     MakeReducer make_reducer) {
  return DispatchPoolType<Types>(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), plan.output_shape));
    auto reducer = make_reducer(y.mutable_data<T>().data());
    WalkWindows(plan, x.data<T>().data(), reducer);
    return KernelOutputs{std::move(y).freeze()};
  });
}

// MaxPool without Indices and GlobalMaxPool: the maximum of each window. NaN is tracked only in
// the planes that hold one; each plane is checked just before it is pooled, while it is in cache.
template <class Types>
KernelResult RunMaxPool(const KernelContext& ctx, const Tensor& x, const PoolPlan& plan) {
  return DispatchPoolType<Types>(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), plan.output_shape));
    MaxReducer<T, false> fast{y.mutable_data<T>().data()};
    MaxReducer<T, true> with_nan{y.mutable_data<T>().data()};
    const T* px = x.data<T>().data();
    const int64_t in_plane = plan.in_plane();
    for (int64_t p = 0; p < plan.planes; ++p) {
      if (AnyNaN(absl::Span<const T>(px + p * in_plane, static_cast<size_t>(in_plane)))) {
        WalkWindows(plan, px, with_nan, p, p + 1);
      } else {
        WalkWindows(plan, px, fast, p, p + 1);
      }
    }
    return KernelOutputs{std::move(y).freeze()};
  });
}

// LpPool's and GlobalLpPool's p: a float attribute in version 1, an int one from version 2.
// Declines p <= 0, for which the norm is not defined.
inline absl::StatusOr<double> LpPoolExponent(const KernelContext& ctx) {
  const double p = ctx.version() < 2 ? static_cast<double>(ctx.float_attribute("p", 2.0f))
                                     : static_cast<double>(ctx.int_attribute("p", 2));
  if (!(p > 0)) return Decline(absl::StrCat("Lp pooling with p = ", p));
  return p;
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_POOL_POOL_DISPATCH_H_
