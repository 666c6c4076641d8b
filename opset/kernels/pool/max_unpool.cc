// MaxUnpool (9, 11): the partial inverse of MaxPool. X's values are scattered into zeros:
// output.flat[I.flat[j]] = X.flat[j]. The output's shape is the output_shape input when given,
// else (in - 1) * stride + kernel - pad_begin - pad_end per spatial axis. With output_shape the
// indices address that output directly, as in ONNX Runtime (MaxPool's indices into the input it
// pooled); ONNX's reference implementation instead scatters into the attribute-derived shape and
// pads that at the end (test_maxunpool_export_with_output_shape follows it).
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/pool/pool_dispatch.h"
#include "graphgc/opset/kernels/pool/pool_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The output shape from the attributes (no output_shape input).
absl::StatusOr<Shape> UnpooledShape(const KernelContext& ctx, absl::Span<const int64_t> x) {
  const size_t spatial = x.size() - 2;
  const std::vector<int64_t> kernel =
      ctx.ints_attribute("kernel_shape").value_or(std::vector<int64_t>{});
  const std::vector<int64_t> strides =
      ctx.ints_attribute("strides").value_or(std::vector<int64_t>(spatial, 1));
  const std::vector<int64_t> pads =
      ctx.ints_attribute("pads").value_or(std::vector<int64_t>(2 * spatial, 0));
  if (kernel.size() != spatial || strides.size() != spatial || pads.size() != 2 * spatial) {
    return absl::InvalidArgumentError(
        "attributes kernel_shape, strides and pads must have one value per spatial axis (pads "
        "two)");
  }
  Shape shape = {x[0], x[1]};
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t dim = (x[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + spatial];
    if (dim < 0) return Decline("a negative output extent");
    shape.push_back(dim);
  }
  return shape;
}

KernelResult MaxUnpool(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  if (x.rank() < 3) return Decline("MaxUnpool without a spatial axis");
  if (indices.shape() != x.shape()) {
    return ctx.input_error(1, absl::StrCat("has shape [", absl::StrJoin(indices.shape(), ","),
                                           "], X has [", absl::StrJoin(x.shape(), ","), "]"));
  }
  GRAPHGC_ASSIGN_OR_RETURN(Shape shape, UnpooledShape(ctx, x.shape()));
  if (ctx.has_input(2)) {
    GRAPHGC_ASSIGN_OR_RETURN(const Shape given, ReadDims(ctx, 2));
    if (given.size() != shape.size()) {
      return ctx.input_error(2,
                             absl::StrCat("has ", given.size(), " values; X has rank ", x.rank()));
    }
    // Smaller than the attributes make it, the runtimes' behaviours are not known to agree.
    for (size_t i = 0; i < shape.size(); ++i) {
      if (given[i] < shape[i]) return Decline("an output_shape smaller than kernel_shape makes");
    }
    shape = given;
  }
  return DispatchPoolType<FloatTypes>(x.dtype(), [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(x.dtype(), shape));
    absl::Span<T> out = y.mutable_data<T>();
    std::fill(out.begin(), out.end(), internal::Store<T>(0));
    const int64_t size = static_cast<int64_t>(out.size());
    const T* values = x.data<T>().data();
    const absl::Span<const int64_t> where = indices.data<int64_t>();
    for (size_t j = 0; j < where.size(); ++j) {
      const int64_t index = where[j];
      if (index < 0 || index >= size) {
        return ctx.input_error(
            1,
            absl::StrCat("index ", index, " is out of range for an output of ", size, " elements"));
      }
      out[static_cast<size_t>(index)] = values[j];
    }
    return KernelOutputs{std::move(y).freeze()};
  });
}

}  // namespace

void RegisterMaxUnpoolKernels(KernelTable& table) {
  table.add("", "MaxUnpool", 9, KernelTable::kLatest, {{"T1", FloatTypes::kSet}}, MaxUnpool);
}

}  // namespace graphgc::kernels
