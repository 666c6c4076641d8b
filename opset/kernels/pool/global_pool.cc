// The global pools: GlobalAveragePool (1), GlobalMaxPool (1) and GlobalLpPool (1, 2), one window
// over each whole plane [n, c, ...] of any spatial rank; the output is [N, C, 1, ..., 1].
#include <cstdint>

#include "graphgc/opset/kernels/pool/pool_dispatch.h"
#include "graphgc/opset/kernels/pool/pool_kernels.h"
#include "graphgc/opset/kernels/pool/pool_plan.h"
#include "graphgc/opset/kernels/pool/pool_reducers.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// One window over each plane of x.
absl::StatusOr<PoolPlan> PlanOverPlanes(const KernelContext& ctx, const Tensor& x) {
  if (x.rank() < 2) return ctx.input_error(0, "a global pool needs at least [N, C]");
  PoolPlan plan = MakeGlobalPlan(x.shape());
  if (plan.planes > 0 && plan.in_plane() == 0) {
    return Decline("a global pool over an empty spatial extent");
  }
  return plan;
}

// Runs the reducer make_reducer(T* y) makes over each plane of input 0.
template <class MakeReducer>
KernelResult GlobalPool(const KernelContext& ctx, MakeReducer make_reducer) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const PoolPlan plan, PlanOverPlanes(ctx, x));
  return RunPool<FloatTypes>(ctx, x, plan, make_reducer);
}

KernelResult GlobalAveragePool(const KernelContext& ctx) {
  return GlobalPool(ctx, [](auto* y) { return AverageReducer{y, false}; });
}

KernelResult GlobalMaxPool(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const PoolPlan plan, PlanOverPlanes(ctx, x));
  // ONNX Runtime's GlobalMaxPool leaves NaN to a vectorized maximum whose result depends on
  // where the NaN falls.
  if (HoldsNaN(x)) return Decline("GlobalMaxPool of an input holding NaN");
  return RunPool<FloatTypes>(ctx, x, plan, [](auto* y) { return MaxReducer{y}; });
}

KernelResult GlobalLpPool(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const double p, LpPoolExponent(ctx));
  return GlobalPool(ctx, LpReducerMaker(p));
}

}  // namespace

void RegisterGlobalPoolKernels(KernelTable& table) {
  const KernelTypes floats = {{"T", FloatTypes::kSet}};
  table.add("", "GlobalAveragePool", 1, KernelTable::kLatest, floats, GlobalAveragePool);
  table.add("", "GlobalMaxPool", 1, KernelTable::kLatest, floats, GlobalMaxPool);
  table.add("", "GlobalLpPool", 1, KernelTable::kLatest, floats, GlobalLpPool);
}

}  // namespace graphgc::kernels
