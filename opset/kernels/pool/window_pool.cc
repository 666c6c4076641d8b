// The windowed pools: AveragePool, MaxPool (with the Indices output from 8; NaN as ONNX Runtime
// treats it) and LpPool, every version, over 1 to 3 spatial axes. The geometry (pads,
// auto_pad, ceil_mode, dilations) is pool_plan's; what each window computes is pool_reducers'.
#include <cstdint>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/pool/pool_dispatch.h"
#include "graphgc/opset/kernels/pool/pool_kernels.h"
#include "graphgc/opset/kernels/pool/pool_plan.h"
#include "graphgc/opset/kernels/pool/pool_reducers.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Row-major flat indices of input elements rewritten column-major within each plane (MaxPool's
// storage_order = 1): spatial position (i1, ..., ik) goes to i1 + i2 * D1 + i3 * D1 * D2 + ...
void ToColumnMajor(const PoolPlan& plan, absl::Span<int64_t> indices) {
  const int64_t in_plane = plan.in_plane();
  for (int64_t& index : indices) {
    int64_t rest = index % in_plane;
    int64_t column_major = 0;
    int64_t row_stride = in_plane;  // of the current axis, row-major
    int64_t column_stride = 1;      // of the current axis, column-major
    index -= rest;
    for (const PoolAxis& axis : plan.axes) {  // outermost first
      row_stride /= axis.in;
      column_major += rest / row_stride * column_stride;
      rest %= row_stride;
      column_stride *= axis.in;
    }
    index += column_major;
  }
}

KernelResult AveragePool(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const PoolPlan plan, MakeWindowPlan(ctx, x.shape()));
  const bool count_include_pad = ctx.int_attribute("count_include_pad", 0) != 0;
  return RunPool<FloatTypes>(ctx, x, plan, [count_include_pad](auto* y) {
    return AverageReducer{y, count_include_pad};
  });
}

// ONNX Runtime pools float and float16 without Indices, dilations or storage_order with MLAS,
// whose result for a window holding NaN depends on where the NaN falls (MaxPool gives those no
// value); everything else with loops that keep a NaN first tap (which MaxPool follows).
// 8-bit integers have no NaN: both ways agree.
bool PoolsLikeMlas(const KernelContext& ctx, DataType dtype, const PoolPlan& plan) {
  if (dtype == DataType::kInt8 || dtype == DataType::kUint8) return true;
  if (dtype != DataType::kFloat && dtype != DataType::kFloat16) return false;
  if (ctx.num_outputs() > 1) return false;
  if (ctx.int_attribute("storage_order", 0) != 0) return false;
  for (const PoolAxis& axis : plan.axes) {
    if (axis.dilation != 1) return false;
  }
  return true;
}

KernelResult MaxPool(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const PoolPlan plan, MakeWindowPlan(ctx, x.shape()));
  if (PoolsLikeMlas(ctx, x.dtype(), plan)) {
    if (HoldsNaN(x))
      return Decline("MaxPool of a NaN where ONNX Runtime's result depends on order");
    return RunPool<MaxPoolTypes>(ctx, x, plan, [](auto* y) { return MaxReducer{y}; });
  }
  const bool with_indices = ctx.num_outputs() > 1;
  return DispatchPoolType<MaxPoolTypes>(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), plan.output_shape));
    if (!with_indices) {
      FirstTapMaxReducer<T> reducer{y.mutable_data<T>().data(), nullptr};
      WalkWindows(plan, x.data<T>().data(), reducer);
      return KernelOutputs{std::move(y).freeze()};
    }
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor indices,
                             ctx.allocate(DataType::kInt64, plan.output_shape));
    FirstTapMaxReducer<T> reducer{y.mutable_data<T>().data(),
                                  indices.mutable_data<int64_t>().data()};
    WalkWindows(plan, x.data<T>().data(), reducer);
    if (ctx.int_attribute("storage_order", 0) != 0) {
      ToColumnMajor(plan, indices.mutable_data<int64_t>());
    }
    return KernelOutputs{std::move(y).freeze(), std::move(indices).freeze()};
  });
}

KernelResult LpPool(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const PoolPlan plan, MakeWindowPlan(ctx, x.shape()));
  GRAPHGC_ASSIGN_OR_RETURN(const double p, LpPoolExponent(ctx));
  return RunPool<FloatTypes>(ctx, x, plan, LpReducerMaker(p));
}

}  // namespace

void RegisterWindowPoolKernels(KernelTable& table) {
  const KernelTypes floats = {{"T", FloatTypes::kSet}};
  // AveragePool-19 adds dilations, LpPool-18 dilations and ceil_mode: attributes the plan reads
  // wherever they are given (an older version's schema refuses them), so one kernel serves.
  table.add("", "AveragePool", 1, 18, floats, AveragePool);
  table.add("", "AveragePool", 19, KernelTable::kLatest, floats, AveragePool);
  // MaxPool also computes int8 and uint8.
  table.add("", "MaxPool", 1, KernelTable::kLatest, {{"T", MaxPoolTypes::kSet}}, MaxPool);
  table.add("", "LpPool", 1, 17, floats, LpPool);
  table.add("", "LpPool", 18, KernelTable::kLatest, floats, LpPool);
}

}  // namespace graphgc::kernels
