// CumSum (from 11): running sums along the axis given as input 1, optionally exclusive (each
// output leaves its own element out) and reversed (summing from the end). Integers wrap; the
// 16-bit floats run their sums in float and round each output once.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/reduction/axis_split.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/reduction/reduction_kernels.h"
#include "graphgc/opset/kernels/reduction/scratch.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;
using internal::Store;

// The axis input: one int32 or int64 value (a scalar, or ORT's one-element 1-D) in [-rank, rank).
absl::StatusOr<int64_t> ReadAxisInput(const KernelContext& ctx, int input, int64_t rank) {
  const Tensor& axis_tensor = ctx.input(input);
  if (axis_tensor.size() != 1) {
    return ctx.input_error(
        input, absl::StrCat("holds ", axis_tensor.size(), " values; the axis is one value"));
  }
  const int64_t axis = ReadInt64s(axis_tensor)[0];
  if (axis < -rank || axis >= rank) {
    return ctx.input_error(input,
                           absl::StrCat("axis ", axis, " is outside [", -rank, ", ", rank, ")"));
  }
  return axis < 0 ? axis + rank : axis;
}

// The running sums of every outer block, row by row along the axis. kContiguous: inner is 1,
// known at compile time, so each lane is a tight scalar loop.
template <bool kContiguous, class T, class C>
void RunningSums(const T* x, T* __restrict y, const AxisSplit& split, bool exclusive, bool reverse,
                 C* __restrict sum) {
  const int64_t inner = kContiguous ? 1 : split.inner;
  for (int64_t o = 0; o < split.outer; ++o) {
    std::fill(sum, sum + inner, C{0});
    for (int64_t step = 0; step < split.extent; ++step) {
      const int64_t e = reverse ? split.extent - 1 - step : step;
      const int64_t offset = o * split.block() + e * inner;
      const T* in = x + offset;
      T* result = y + offset;
      for (int64_t i = 0; i < inner; ++i) {
        const C before = sum[i];
        sum[i] = internal::WrapAdd(before, Load(in[i]));
        result[i] = Store<T>(exclusive ? before : sum[i]);
      }
    }
  }
}

template <class T>
KernelResult CumSumOfType(const KernelContext& ctx, const Tensor& x, const AxisSplit& split,
                          bool exclusive, bool reverse) {
  using C = ComputeType<T>;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> sum, AllocateScratch<C>(ctx, split.inner));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), x.shape()));
  const T* px = x.data<T>().data();
  T* py = out.mutable_data<T>().data();
  if (split.inner == 1) {
    RunningSums<true>(px, py, split, exclusive, reverse, sum.data());
  } else {
    RunningSums<false>(px, py, split, exclusive, reverse, sum.data());
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult CumSum(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis, ReadAxisInput(ctx, 1, x.rank()));
  const bool exclusive = ctx.int_attribute("exclusive", 0) != 0;
  const bool reverse = ctx.int_attribute("reverse", 0) != 0;
  const AxisSplit split = SplitAtAxis(x.shape(), axis);
  return DispatchNumericKernel(x.dtype(), [&](auto tag) {
    return CumSumOfType<typename decltype(tag)::type>(ctx, x, split, exclusive, reverse);
  });
}

}  // namespace

void RegisterCumSumKernels(KernelTable& table) {
  // Every numeric type (DispatchNumericKernel); the axis (T2) is read as int32 or int64.
  table.add("", "CumSum", 11, kLastKnownOpset,
            {{"T", data_types::kNumeric}, {"T2", data_types::kIndices}}, CumSum);
}

}  // namespace graphgc::kernels
