// Softmax, LogSoftmax and Hardmax. From opset 13 along `axis` (default -1); before 13 the input
// is coerced to 2-D at `axis` (default 1) and each row of shape[axis:] is one lane.
//
// LogSoftmax gives no value when a lane's sum is NaN (see softmax_core.h).
// Hardmax puts its 1 at the first element equal to the lane's max; an input holding NaN gets no
// value (ONNX Runtime's lane max over NaN depends on its memory layout: common/nan.h).
#include <cstdint>
#include <vector>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/common/nan.h"
#include "graphgc/opset/kernels/reduction/axis_split.h"
#include "graphgc/opset/kernels/reduction/kernel_dispatch.h"
#include "graphgc/opset/kernels/reduction/reduction_kernels.h"
#include "graphgc/opset/kernels/reduction/scratch.h"
#include "graphgc/opset/kernels/reduction/softmax_core.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using internal::ComputeType;
using internal::Load;
using internal::Store;

template <class T>
void HardmaxBlock(const T* x, T* y, const AxisSplit& split) {
  const int64_t inner = split.inner;
  std::fill(y, y + split.block(), Store<T>(0));
  for (int64_t i = 0; i < inner; ++i) {
    const T* lane = x + i;
    ComputeType<T> m = Load(lane[0]);
    for (int64_t e = 1; e < split.extent; ++e) m = std::max(m, Load(lane[e * inner]));
    for (int64_t e = 0; e < split.extent; ++e) {
      if (Load(lane[e * inner]) == m) {
        y[e * inner + i] = Store<T>(1);
        break;
      }
    }
  }
}

// Softmax or LogSoftmax, block by block: straight into the output when T is its own compute
// type, else through a scratch block rounded into the output.
template <class T>
absl::Status SoftmaxOfType(const KernelContext& ctx, const T* x, T* y, const AxisSplit& split,
                           SoftmaxKind kind) {
  using C = ComputeType<T>;
  constexpr bool kDirect = std::is_same_v<C, T>;
  const int64_t scratch_size = 2 * split.inner + (kDirect ? 0 : split.block());
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> scratch, AllocateScratch<C>(ctx, scratch_size));
  bool sums_are_numbers = true;
  for (int64_t o = 0; o < split.outer; ++o) {
    const int64_t offset = o * split.block();
    if constexpr (kDirect) {
      sums_are_numbers &=
          SoftmaxBlock(x + offset, y + offset, split.extent, split.inner, kind, scratch.data());
    } else {
      C* block = scratch.data() + 2 * split.inner;
      sums_are_numbers &=
          SoftmaxBlock(x + offset, block, split.extent, split.inner, kind, scratch.data());
      for (int64_t j = 0; j < split.block(); ++j) y[offset + j] = Store<T>(block[j]);
    }
  }
  if (!sums_are_numbers && kind == SoftmaxKind::kLogSoftmax) {
    return Decline("LogSoftmax of a lane holding NaN or +inf, where runtimes disagree");
  }
  return absl::OkStatus();
}

enum class SoftmaxOp { kSoftmax, kLogSoftmax, kHardmax };

KernelResult SoftmaxFamily(const KernelContext& ctx, SoftmaxOp op, bool coerce_to_2d) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", -1), x.rank()));
  const AxisSplit split = coerce_to_2d ? CoerceTo2D(x.shape(), axis) : SplitAtAxis(x.shape(), axis);
  if (op == SoftmaxOp::kHardmax && ContainsNaN(x))
    return Decline("Hardmax of NaN: runtimes disagree");
  return DispatchFloatingKernel(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), x.shape()));
    const T* px = x.data<T>().data();
    T* py = out.mutable_data<T>().data();
    if (op == SoftmaxOp::kHardmax) {
      for (int64_t o = 0; o < split.outer && split.extent > 0; ++o) {
        HardmaxBlock(px + o * split.block(), py + o * split.block(), split);
      }
    } else {
      const SoftmaxKind kind =
          op == SoftmaxOp::kSoftmax ? SoftmaxKind::kSoftmax : SoftmaxKind::kLogSoftmax;
      GRAPHGC_RETURN_IF_ERROR(SoftmaxOfType(ctx, px, py, split, kind));
    }
    return KernelOutputs{std::move(out).freeze()};
  });
}

}  // namespace

void RegisterSoftmaxKernels(KernelTable& table) {
  const struct {
    const char* name;
    SoftmaxOp op;
  } ops[] = {{"Softmax", SoftmaxOp::kSoftmax},
             {"LogSoftmax", SoftmaxOp::kLogSoftmax},
             {"Hardmax", SoftmaxOp::kHardmax}};
  const KernelTypes reals = {{"T", data_types::kFloatingPoint}};  // DispatchFloatingKernel's
  for (const auto& entry : ops) {
    const SoftmaxOp op = entry.op;
    table.add("", entry.name, 1, 12, reals,
              [op](const KernelContext& ctx) { return SoftmaxFamily(ctx, op, true); });
    table.add("", entry.name, 13, kLastKnownOpset, reals,
              [op](const KernelContext& ctx) { return SoftmaxFamily(ctx, op, false); });
  }
}

}  // namespace graphgc::kernels
