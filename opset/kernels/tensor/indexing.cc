#include "graphgc/opset/kernels/tensor/indexing.h"

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/strided_walk.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {

absl::StatusOr<std::vector<int64_t>> ElementOffsets(const KernelContext& ctx, const Tensor& data) {
  const Tensor& indices = ctx.input(1);
  if (data.rank() == 0 || indices.rank() != data.rank()) {
    return ctx.input_error(1, absl::StrCat("has shape ", ShapeToString(indices.shape()),
                                           ", not of the data's rank ", data.rank()));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                           NormalizeAxis(ctx, "axis", ctx.int_attribute("axis", 0), data.rank()));
  const size_t axis_k = static_cast<size_t>(axis);
  for (size_t d = 0; d < data.shape().size(); ++d) {
    if (d != axis_k && indices.shape()[d] > data.shape()[d]) {
      return ctx.input_error(
          1, absl::StrCat("has shape ", ShapeToString(indices.shape()), ", larger than the data's ",
                          ShapeToString(data.shape()), " off the axis"));
    }
  }
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> offsets,
                           ReadIndices(ctx, 1, indices, data.shape()[axis_k]));
  if (offsets.empty()) return offsets;
  Shape strides = ContiguousStrides(data.shape());
  const int64_t axis_stride = strides[axis_k];
  strides[axis_k] = 0;  // the index gives the coordinate along the axis
  StridedWalk walk(indices.shape(), strides);
  size_t i = 0;
  do {
    offsets[i] = walk.a() + offsets[i] * axis_stride;
    ++i;
  } while (walk.Next());
  return offsets;
}

absl::StatusOr<std::vector<int64_t>> TupleOffsets(const KernelContext& ctx,
                                                  absl::Span<const int64_t> dims) {
  const Tensor& indices = ctx.input(1);
  const size_t q = static_cast<size_t>(indices.rank());
  const size_t k = static_cast<size_t>(indices.shape()[q - 1]);
  const Shape strides = ContiguousStrides(dims);
  const auto values = indices.data<int64_t>();
  std::vector<int64_t> offsets(static_cast<size_t>(Product(indices.shape().subspan(0, q - 1))), 0);
  for (size_t t = 0; t < offsets.size(); ++t) {
    for (size_t j = 0; j < k; ++j) {
      GRAPHGC_ASSIGN_OR_RETURN(const int64_t index, CheckIndex(ctx, 1, values[t * k + j], dims[j]));
      offsets[t] += index * strides[j];
    }
  }
  return offsets;
}

}  // namespace graphgc::kernels
