// ArgMax and ArgMin (axis, keepdims, select_last_index from 12): int64 indices along one axis.
//
// The running best is replaced only by a strictly better value (or an equal one with
// select_last_index), as ONNX Runtime does. An input holding NaN gets no value (ONNX Runtime's
// answer depends on its memory layout: common/nan.h). An empty axis with lanes to fill makes the
// op fail, as in ORT.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/common/nan.h"
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

template <bool kLargest, bool kLast>
struct Beats {
  template <class C>
  bool operator()(C candidate, C best) const {
    if constexpr (kLargest) {
      return kLast ? candidate >= best : candidate > best;
    } else {
      return kLast ? candidate <= best : candidate < best;
    }
  }
};

// One outer block [extent, inner] into `index` [inner]. `best` holds `inner` values of scratch.
template <class T, class Better>
void ArgBlock(const T* x, const AxisSplit& split, int64_t* index, ComputeType<T>* best,
              Better better) {
  const int64_t inner = split.inner;
  if (inner == 1) {
    ComputeType<T> b = Load(x[0]);
    int64_t at = 0;
    for (int64_t e = 1; e < split.extent; ++e) {
      const ComputeType<T> v = Load(x[e]);
      if (better(v, b)) {
        b = v;
        at = e;
      }
    }
    index[0] = at;
    return;
  }
  for (int64_t i = 0; i < inner; ++i) {
    best[i] = Load(x[i]);
    index[i] = 0;
  }
  for (int64_t e = 1; e < split.extent; ++e) {
    const T* row = x + e * inner;
    for (int64_t i = 0; i < inner; ++i) {
      const ComputeType<T> v = Load(row[i]);
      if (better(v, best[i])) {
        best[i] = v;
        index[i] = e;
      }
    }
  }
}

template <class T, class Better>
KernelResult ArgOfType(const KernelContext& ctx, const Tensor& x, const AxisSplit& split,
                       MutableTensor out, Better better) {
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<ComputeType<T>> best,
                           AllocateScratch<ComputeType<T>>(ctx, split.inner));
  const T* px = x.data<T>().data();
  int64_t* py = out.mutable_data<int64_t>().data();
  for (int64_t o = 0; o < split.outer; ++o) {
    ArgBlock(px + o * split.block(), split, py + o * split.inner, best.data(), better);
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult ArgReduce(const KernelContext& ctx, bool largest) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 0), x.rank()));
  // As ONNX's inference (and ONNX Runtime) read it: only 1 keeps the reduced dims.
  const bool keepdims = ctx.int_attribute("keepdims", 1) == 1;
  const bool last = ctx.int_attribute("select_last_index", 0) != 0;
  const AxisSplit split = SplitAtAxis(x.shape(), axis);
  if (ContainsNaN(x)) return Decline("ArgMax/ArgMin of NaN: runtimes disagree");
  GRAPHGC_ASSIGN_OR_RETURN(
      MutableTensor out,
      ctx.allocate(DataType::kInt64, WithAxisResized(x.shape(), axis, keepdims ? 1 : -1)));
  if (split.lanes() == 0) return KernelOutputs{std::move(out).freeze()};
  if (split.extent == 0) {
    return ctx.input_error(0, absl::StrCat(ctx.op_type(), " along axis ", axis,
                                           ", which is empty: there is no index to return"));
  }
  return DispatchNumericKernel(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto run = [&](auto better) { return ArgOfType<T>(ctx, x, split, std::move(out), better); };
    if (largest) return last ? run(Beats<true, true>{}) : run(Beats<true, false>{});
    return last ? run(Beats<false, true>{}) : run(Beats<false, false>{});
  });
}

}  // namespace

void RegisterArgReduceKernels(KernelTable& table) {
  const KernelTypes numeric = {{"T", data_types::kNumeric}};  // DispatchNumericKernel's
  table.add("", "ArgMax", 1, kLastKnownOpset, numeric,
            [](const KernelContext& ctx) { return ArgReduce(ctx, true); });
  table.add("", "ArgMin", 1, kLastKnownOpset, numeric,
            [](const KernelContext& ctx) { return ArgReduce(ctx, false); });
}

}  // namespace graphgc::kernels
