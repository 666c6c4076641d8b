// Tile and Expand: repetitions of the input as broadcast views (stride 0 along a repeated dim).
// The output's size is checked against the value budget before anything is allocated.
#include <limits>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/kernels/tensor/strided_view.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

KernelResult CopyOut(const KernelContext& ctx, const StridedView& view,
                     absl::Span<const int64_t> out_dims) {
  const Tensor& input = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(input.dtype(), out_dims));
  CopyView(input, view, out);
  return KernelOutputs{std::move(out).freeze()};
}

// Tile: dim d repeated repeats[d] times, i.e. the view [r_0, d_0, r_1, d_1, ...] with stride 0
// along each r.
KernelResult TileKernel(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const Shape repeats, ReadDims(ctx, 1));
  if (static_cast<int64_t>(repeats.size()) != input.rank()) {
    return ctx.input_error(
        1, absl::StrCat("has ", repeats.size(), " values for an input of rank ", input.rank()));
  }
  const Shape strides = ContiguousStrides(input.shape());
  StridedView view;
  Shape out_dims;
  for (size_t d = 0; d < repeats.size(); ++d) {
    const int64_t dim = input.shape()[d];
    if (dim > 0 && repeats[d] > std::numeric_limits<int64_t>::max() / dim) {
      return absl::ResourceExhaustedError("Tile's output dims overflow");
    }
    view.dims.insert(view.dims.end(), {repeats[d], dim});
    view.strides.insert(view.strides.end(), {0, strides[d]});
    out_dims.push_back(dim * repeats[d]);
  }
  return CopyOut(ctx, view, out_dims);
}

// Expand: the input broadcast (numpy rules, in both directions) with the shape input.
KernelResult ExpandKernel(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(const Shape shape, ReadDims(ctx, 1));
  absl::StatusOr<std::optional<Shape>> broadcast =
      internal::BroadcastShapes(Shape(input.shape().begin(), input.shape().end()), shape);
  if (!broadcast.ok()) return ctx.input_error(1, broadcast.status().message());
  const Shape& out_dims = **broadcast;
  const StridedView view{0, out_dims, internal::BroadcastStrides(input.shape(), out_dims)};
  return CopyOut(ctx, view, out_dims);
}

}  // namespace

void RegisterTileExpandKernels(KernelTable& table) {
  const KernelTypes any = {{"T", data_types::kAll}};
  table.add("", "Tile", 6, KernelTable::kLatest, any, TileKernel);
  table.add("", "Expand", 8, KernelTable::kLatest, any, ExpandKernel);
}

}  // namespace graphgc::kernels
