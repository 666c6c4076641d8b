// LpNormalization (opset 1): each lane along `axis` divided by its L1 (p = 1) or L2 (p = 2)
// norm. A lane whose norm is 0 gives 0s, as in ONNX Runtime. Any other p is not defined by ONNX
// (ORT refuses the model), so the op fails.
#include <cmath>
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

template <class T>
KernelResult LpNormalizationOfType(const KernelContext& ctx, const Tensor& x,
                                   const AxisSplit& split, bool l1) {
  using C = ComputeType<T>;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> norm, AllocateScratch<C>(ctx, split.inner));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), x.shape()));
  const T* px = x.data<T>().data();
  T* py = out.mutable_data<T>().data();
  const int64_t inner = split.inner;
  for (int64_t o = 0; o < split.outer; ++o) {
    const T* block = px + o * split.block();
    T* result = py + o * split.block();
    std::fill(norm.begin(), norm.end(), C{0});
    for (int64_t e = 0; e < split.extent; ++e) {
      for (int64_t i = 0; i < inner; ++i) {
        const C v = Load(block[e * inner + i]);
        norm[i] += l1 ? std::abs(v) : v * v;
      }
    }
    if (!l1) {
      for (C& n : norm) n = std::sqrt(n);
    }
    for (int64_t e = 0; e < split.extent; ++e) {
      for (int64_t i = 0; i < inner; ++i) {
        const C n = norm[i];
        result[e * inner + i] = Store<T>(n == C{0} ? C{0} : Load(block[e * inner + i]) / n);
      }
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult LpNormalization(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", -1), x.rank()));
  const int64_t p = ctx.int_attribute("p", 2);
  if (p != 1 && p != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'p' is ", p, "; LpNormalization is defined for p = 1 and p = 2"));
  }
  const AxisSplit split = SplitAtAxis(x.shape(), axis);
  return DispatchFloatingKernel(x.dtype(), [&](auto tag) {
    return LpNormalizationOfType<typename decltype(tag)::type>(ctx, x, split, p == 1);
  });
}

}  // namespace

void RegisterLpNormalizationKernels(KernelTable& table) {
  table.add("", "LpNormalization", 1, KernelTable::kLatest, {{"T", data_types::kFloatingPoint}},
            LpNormalization);
}

}  // namespace graphgc::kernels
