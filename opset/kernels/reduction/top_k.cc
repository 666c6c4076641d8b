// TopK: the k largest (or, from 11, smallest) elements along `axis` and their int64 indices;
// k is an attribute in opset 1 and input 1 from 10. Equal values keep the lower index first, as
// ONNX specifies. A k outside [0, dim] makes the op fail.
//
// No value (Decline) where ONNX leaves the result to the runtime: sorted = 0 with k > 1 (the
// order is unspecified; ORT returns its selection order) and inputs holding NaN (ORT's order
// around NaN is that of a comparison sort given an inconsistent order).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
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

// k from the attribute (opset 1) or input 1, checked against the axis' extent.
absl::StatusOr<int64_t> ReadK(const KernelContext& ctx, int64_t extent) {
  int64_t k = 0;
  std::string source;
  if (ctx.version() < 10) {
    k = ctx.int_attribute("k", -1);
    source = "attribute 'k'";
  } else {
    const Tensor& k_tensor = ctx.input(1);
    if (k_tensor.size() != 1) {
      return ctx.input_error(1, absl::StrCat("holds ", k_tensor.size(), " values; K is one value"));
    }
    k = ReadInt64s(k_tensor)[0];
    source = ctx.input_label(1);
  }
  if (k < 0 || k > extent) {
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": k = ", k, " is outside [0, ", extent, "], the size of the axis"));
  }
  return k;
}

template <class T>
bool HasNaN(const Tensor& x) {
  if constexpr (std::is_floating_point_v<ComputeType<T>>) {
    for (const T& v : x.data<T>()) {
      if (std::isnan(Load(v))) return true;
    }
  }
  return false;
}

template <class T>
KernelResult TopKOfType(const KernelContext& ctx, const Tensor& x, const AxisSplit& split,
                        int64_t axis, int64_t k, bool largest) {
  using C = ComputeType<T>;
  if (HasNaN<T>(x)) return Decline("TopK of values holding NaN is left to the runtime's order");
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<C> lane, AllocateScratch<C>(ctx, split.extent));
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> order, AllocateScratch<int64_t>(ctx, split.extent));
  const Shape out_shape = WithAxisResized(x.shape(), axis, k);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor values, ctx.allocate(x.dtype(), out_shape));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor indices, ctx.allocate(DataType::kInt64, out_shape));
  const T* px = x.data<T>().data();
  T* pv = values.mutable_data<T>().data();
  int64_t* pi = indices.mutable_data<int64_t>().data();
  const int64_t inner = split.inner;
  auto before = [&](int64_t a, int64_t b) {
    const C va = lane[a], vb = lane[b];
    if (va != vb) return largest ? va > vb : va < vb;
    return a < b;
  };
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const T* in = px + o * split.block() + i;
      for (int64_t e = 0; e < split.extent; ++e) lane[e] = Load(in[e * inner]);
      std::iota(order.begin(), order.end(), int64_t{0});
      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      const int64_t first_out = o * k * inner + i;
      for (int64_t j = 0; j < k; ++j) {
        pv[first_out + j * inner] = in[order[j] * inner];
        pi[first_out + j * inner] = order[j];
      }
    }
  }
  return KernelOutputs{std::move(values).freeze(), std::move(indices).freeze()};
}

KernelResult TopK(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", -1), x.rank()));
  const AxisSplit split = SplitAtAxis(x.shape(), axis);
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t k, ReadK(ctx, split.extent));
  if (ctx.int_attribute("sorted", 1) == 0 && k > 1) {
    return Decline("TopK with sorted = 0 leaves the order to the runtime");
  }
  const bool largest = ctx.int_attribute("largest", 1) != 0;
  return DispatchNumericKernel(x.dtype(), [&](auto tag) {
    return TopKOfType<typename decltype(tag)::type>(ctx, x, split, axis, k, largest);
  });
}

}  // namespace

void RegisterTopKKernels(KernelTable& table) {
  table.add("", "TopK", 1, KernelTable::kLatest, {{"T", data_types::kNumeric}}, TopK);
}

}  // namespace graphgc::kernels
