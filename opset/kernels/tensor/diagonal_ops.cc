// Ops defined by a diagonal k (0: the main one, k > 0 above it, k < 0 below): EyeLike, Trilu.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// k limited to where it still makes a difference, so that i + k cannot overflow.
int64_t ClampDiagonal(int64_t k, int64_t rows, int64_t cols) {
  return std::clamp(k, -rows - 1, cols + 1);
}

// EyeLike: zeros of the input's shape, ones on diagonal k, in the `dtype` attribute's type (the
// input's by default; inference gives it as the output's type).
KernelResult EyeLikeKernel(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  if (input.rank() != 2) {
    return ctx.input_error(
        0, absl::StrCat("must be 2-D, not of shape ", ShapeToString(input.shape())));
  }
  const DataType dtype = ctx.output(0).dtype;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(dtype, input.shape()));
  const int64_t rows = input.shape()[0];
  const int64_t cols = input.shape()[1];
  const int64_t k = ClampDiagonal(ctx.int_attribute("k", 0), rows, cols);
  const bool numeric = internal::DispatchNumericOrBool(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* values = out.mutable_data<T>().data();
    std::fill_n(values, out.size(), internal::Store<T>(0));
    for (int64_t i = std::max<int64_t>(0, -k); i < rows && i + k < cols; ++i) {
      values[i * cols + i + k] = internal::Store<T>(1);
    }
  });
  if (!numeric) return Decline("EyeLike of this element type");
  return KernelOutputs{std::move(out).freeze()};
}

// Trilu: the upper (j - i >= k) or lower (j - i <= k) triangle of each matrix of the last two
// dims; the other elements zero ("" for strings, false for bool).
KernelResult TriluKernel(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  if (input.rank() < 2) {
    return ctx.input_error(
        0, absl::StrCat("must have rank 2 or more, not shape ", ShapeToString(input.shape())));
  }
  int64_t k = 0;
  if (const Tensor* diagonal = ctx.optional_input(1)) {
    if (diagonal->size() != 1) return ctx.input_error(1, "must hold one element");
    k = ReadInt64s(*diagonal)[0];
  }
  const bool upper = ctx.int_attribute("upper", 1) != 0;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(input.dtype(), input.shape()));
  const int64_t rows = input.shape()[static_cast<size_t>(input.rank() - 2)];
  const int64_t cols = input.shape()[static_cast<size_t>(input.rank() - 1)];
  if (out.size() == 0) return KernelOutputs{std::move(out).freeze()};
  k = ClampDiagonal(k, rows, cols);
  const int64_t matrices = input.size() / (rows * cols);
  DispatchByElementSize(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* from = ElementsOf<T>(input);
    T* to = MutableElementsOf<T>(out);
    for (int64_t row = 0; row < matrices * rows; ++row) {
      const int64_t i = row % rows;
      // Row i keeps columns [first, last).
      const int64_t first = upper ? std::clamp<int64_t>(i + k, 0, cols) : 0;
      const int64_t last = upper ? cols : std::clamp<int64_t>(i + k + 1, 0, cols);
      const T* source = from + row * cols;
      T* target = to + row * cols;
      std::fill_n(target, first, T{});
      std::copy(source + first, source + last, target + first);
      std::fill(target + last, target + cols, T{});
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterDiagonalKernels(KernelTable& table) {
  // EyeLike computes its output (T2, the attribute dtype's, by default the input's) for every
  // numeric type and bool; of the input (T1) only the shape matters.
  table.add("", "EyeLike", 9, KernelTable::kLatest,
            {{"T2", data_types::kNumericOrBool}, {"T1", data_types::kAll}}, EyeLikeKernel);
  table.add("", "Trilu", 14, KernelTable::kLatest, {{"T", data_types::kAll}}, TriluKernel);
}

}  // namespace graphgc::kernels
