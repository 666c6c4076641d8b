// Ops whose output size depends on the values: Compress (slices where a condition holds) and
// NonZero (the coordinates of the non-zero elements). Inference leaves those dims -1; the
// kernels size their outputs themselves, within the value budget.
#include <algorithm>
#include <string>
#include <vector>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Compress: the slices along `axis` (or the elements of the flattened input without one) whose
// condition is true. Slices past the condition's length are dropped; condition entries past the
// input's length are ignored, as in ONNX Runtime.
KernelResult CompressKernel(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  const auto condition = ctx.input(1).data<bool>();
  const bool has_axis = ctx.has_attribute("axis");
  int64_t axis = 0;
  if (has_axis) {
    GRAPHGC_ASSIGN_OR_RETURN(axis,
                             NormalizeAxis(ctx, "axis", ctx.int_attribute("axis"), input.rank()));
  }
  const size_t axis_k = static_cast<size_t>(axis);
  const int64_t extent = has_axis ? input.shape()[axis_k] : input.size();
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < std::min<int64_t>(extent, static_cast<int64_t>(condition.size())); ++i) {
    if (condition[static_cast<size_t>(i)]) kept.push_back(i);
  }
  Shape out_dims = {static_cast<int64_t>(kept.size())};
  int64_t outer = 1;
  int64_t inner = 1;
  if (has_axis) {
    out_dims.assign(input.shape().begin(), input.shape().end());
    out_dims[axis_k] = static_cast<int64_t>(kept.size());
    outer = Product(input.shape().subspan(0, axis_k));
    inner = Product(input.shape().subspan(axis_k + 1));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(input.dtype(), out_dims));
  DispatchByElementSize(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* from = ElementsOf<T>(input);
    T* to = MutableElementsOf<T>(out);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t index : kept) to = std::copy_n(from + (o * extent + index) * inner, inner, to);
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

template <class T>
bool IsNonZero(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return !value.empty();
  } else {
    return internal::Load<T>(value) != internal::ComputeType<T>(0);  // NaN is non-zero, -0 not
  }
}

// NonZero: [rank, count] int64, the coordinates of each non-zero element in row-major order.
// A scalar input declines: ONNX infers [0, count] for it, ONNX Runtime returns [1, count].
template <class T>
KernelResult NonZeroOf(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  const auto values = input.data<T>();
  const int64_t count = std::count_if(values.begin(), values.end(), IsNonZero<T>);
  const size_t rank = static_cast<size_t>(input.rank());
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out,
                           ctx.allocate(DataType::kInt64, {input.rank(), count}));
  int64_t* coordinates = out.mutable_data<int64_t>().data();
  Shape position(rank, 0);
  int64_t column = 0;
  for (const T& value : values) {
    if (IsNonZero<T>(value)) {
      for (size_t d = 0; d < rank; ++d) coordinates[d * count + column] = position[d];
      ++column;
    }
    for (size_t d = rank; d-- > 0;) {
      if (++position[d] < input.shape()[d]) break;
      position[d] = 0;
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult NonZeroKernel(const KernelContext& ctx) {
  if (ctx.input(0).rank() == 0) return Decline("NonZero of a scalar");
  return DispatchByType(ctx.input(0).dtype(),
                        [&](auto tag) { return NonZeroOf<typename decltype(tag)::type>(ctx); });
}

}  // namespace

void RegisterSelectionKernels(KernelTable& table) {
  table.add("", "Compress", 9, KernelTable::kLatest, {{"T", data_types::kAll}}, CompressKernel);
  // DispatchByType: the numeric types, bool and string.
  table.add("", "NonZero", 9, KernelTable::kLatest, {{"T", data_types::kAll}}, NonZeroKernel);
}

}  // namespace graphgc::kernels
