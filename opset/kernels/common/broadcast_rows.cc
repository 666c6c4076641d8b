#include "graphgc/opset/kernels/common/broadcast_rows.h"

#include "graphgc/opset/kernels/common/broadcast.h"

namespace graphgc::internal {

BroadcastLayout MergeBroadcastDims(absl::Span<const absl::Span<const int64_t>> shapes,
                                   absl::Span<const int64_t> out_shape) {
  const size_t n = shapes.size();
  BroadcastLayout layout;
  layout.strides.resize(n);
  for (int64_t dim : out_shape) {
    if (dim == 0) {  // nothing to visit
      layout.dims = {0};
      for (Shape& strides : layout.strides) strides = {0};
      return layout;
    }
  }
  std::vector<Shape> full(n);
  for (size_t k = 0; k < n; ++k) full[k] = BroadcastStrides(shapes[k], out_shape);
  for (size_t d = 0; d < out_shape.size(); ++d) {
    if (out_shape[d] == 1) continue;  // a dim of one element moves nothing
    // Dim d continues the previous merged dim when every input steps over d's whole extent
    // exactly where the previous dim steps once (both broadcast, or both contiguous).
    bool merges = !layout.dims.empty();
    for (size_t k = 0; merges && k < n; ++k) {
      merges = layout.strides[k].back() == full[k][d] * out_shape[d];
    }
    if (merges) {
      layout.dims.back() *= out_shape[d];
      for (size_t k = 0; k < n; ++k) layout.strides[k].back() = full[k][d];
    } else {
      layout.dims.push_back(out_shape[d]);
      for (size_t k = 0; k < n; ++k) layout.strides[k].push_back(full[k][d]);
    }
  }
  if (layout.dims.empty()) {  // rank 0, or every dim 1: one element
    layout.dims = {1};
    for (Shape& strides : layout.strides) strides = {0};
  }
  return layout;
}

}  // namespace graphgc::internal
