// The element types of the pooling ops and the dispatch on them: the typed body runs for a type
// of the list, any other type declines (no value). RunPool is the whole of a single-output pool
// once its plan is made; HoldsNaN guards the max pools; LpPoolExponent reads the Lp pools' p.
#ifndef GRAPHGC_OPSET_KERNELS_POOL_POOL_DISPATCH_H_
#define GRAPHGC_OPSET_KERNELS_POOL_POOL_DISPATCH_H_

#include <cstdint>

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

// Whether a floating-point tensor holds a NaN.
inline bool HoldsNaN(const Tensor& x) {
  bool nan = false;
  FloatTypes::Dispatch(x.dtype(),
                       [&](auto tag) { nan = AnyNaN(x.data<typename decltype(tag)::type>()); });
  return nan;
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
