#include "graphgc/opset/kernels/linalg/matmul_layout.h"

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels::linalg {
namespace {

// Offsets (in matrices) of each output batch into an operand with batch dims `dims`.
std::vector<int64_t> BatchOffsets(absl::Span<const int64_t> dims, absl::Span<const int64_t> batch,
                                  int64_t matrix_size) {
  const Shape strides = internal::BroadcastStrides(dims, batch);
  const int64_t count = Product(batch);
  std::vector<int64_t> offsets(static_cast<size_t>(count));
  Shape index(batch.size(), 0);
  int64_t offset = 0;
  for (int64_t t = 0; t < count; ++t) {
    offsets[static_cast<size_t>(t)] = offset * matrix_size;
    for (size_t d = batch.size(); d-- > 0;) {
      offset += strides[d];
      if (++index[d] < batch[d]) break;
      offset -= strides[d] * batch[d];
      index[d] = 0;
    }
  }
  return offsets;
}

// The dims before the last two (none for a 1-D operand).
Shape BatchDims(absl::Span<const int64_t> shape) {
  return shape.size() <= 2 ? Shape() : Shape(shape.begin(), shape.end() - 2);
}

}  // namespace

absl::StatusOr<MatMulLayout> PlanMatMul(const KernelContext& ctx, int a_input, int b_input,
                                        absl::Span<const int64_t> a_shape,
                                        absl::Span<const int64_t> b_shape) {
  if (a_shape.empty()) return ctx.input_error(a_input, "a scalar cannot be multiplied as a matrix");
  if (b_shape.empty()) return ctx.input_error(b_input, "a scalar cannot be multiplied as a matrix");
  MatMulLayout layout;
  GemmDims& d = layout.dims;
  // 1-D A is a row [1, k]; 1-D B a column [k, 1].
  d.m = a_shape.size() == 1 ? 1 : a_shape[a_shape.size() - 2];
  d.k = a_shape.back();
  const int64_t b_rows = b_shape.size() == 1 ? b_shape[0] : b_shape[b_shape.size() - 2];
  d.n = b_shape.size() == 1 ? 1 : b_shape.back();
  if (b_rows != d.k) {
    return ctx.input_error(b_input, absl::StrCat("has ", b_rows, " rows but A ",
                                                 ShapeToString(a_shape), " has ", d.k, " columns"));
  }
  const Shape a_batch = BatchDims(a_shape);
  const Shape b_batch = BatchDims(b_shape);
  absl::StatusOr<std::optional<Shape>> batch = internal::BroadcastShapes(a_batch, b_batch);
  if (!batch.ok()) {
    return ctx.input_error(
        b_input, absl::StrCat("batch dims do not broadcast with A's: ", batch.status().message()));
  }
  layout.batch = **batch;
  layout.a_offsets = BatchOffsets(a_batch, layout.batch, d.m * d.k);
  layout.b_offsets = BatchOffsets(b_batch, layout.batch, d.k * d.n);
  return layout;
}

MatMulLayout FoldSharedB(MatMulLayout layout) {
  const size_t batches = layout.a_offsets.size();
  if (batches <= 1) return layout;
  const int64_t matrix = layout.dims.m * layout.dims.k;
  for (size_t t = 0; t < batches; ++t) {
    if (layout.b_offsets[t] != 0 || layout.a_offsets[t] != static_cast<int64_t>(t) * matrix) {
      return layout;
    }
  }
  layout.dims.m *= static_cast<int64_t>(batches);
  layout.a_offsets = {0};
  layout.b_offsets = {0};
  return layout;
}

}  // namespace graphgc::kernels::linalg
