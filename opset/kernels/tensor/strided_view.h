// StridedView: an affine view of a tensor's elements, and the one copy loop the data-movement
// ops that are views share (Slice, Transpose, Expand, Tile, DepthToSpace, SpaceToDepth).
//
// Element (i_0, ..., i_{r-1}) of a view is the source's element offset + sum_k i_k * strides[k];
// a stride is 0 along a broadcast dim and negative along a reversed slice.
//
//   StridedView view = TransposedView(x.shape(), perm);
//   GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), view.dims));
//   CopyView(x, view, out);
#ifndef GRAPHGC_OPSET_KERNELS_TENSOR_STRIDED_VIEW_H_
#define GRAPHGC_OPSET_KERNELS_TENSOR_STRIDED_VIEW_H_

#include <cstdint>

#include "absl/types/span.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

struct StridedView {
  int64_t offset = 0;
  Shape dims;
  Shape strides;
};

// The whole of a tensor of shape `dims`, contiguous.
StridedView ContiguousView(absl::Span<const int64_t> dims);

// `view` with its dims permuted: dim k of the result is dim perm[k] of `view`.
StridedView PermutedView(const StridedView& view, absl::Span<const int64_t> perm);

// Writes the elements of `view` over `source`, row-major, into `out`, which has the view's
// element count and the source's dtype.
void CopyView(const Tensor& source, const StridedView& view, MutableTensor& out);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_TENSOR_STRIDED_VIEW_H_
