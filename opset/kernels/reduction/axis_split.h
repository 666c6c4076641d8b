// A tensor viewed as [outer, extent, inner] around one axis: the layout every single-axis op of
// this family walks (ArgMax, Softmax, CumSum, LpNormalization, TopK, the losses). Element
// (o, e, i) is at (o * extent + e) * inner + i; a "lane" is the extent elements of one (o, i).
#ifndef GRAPHGC_OPSET_KERNELS_REDUCTION_AXIS_SPLIT_H_
#define GRAPHGC_OPSET_KERNELS_REDUCTION_AXIS_SPLIT_H_

#include <cstdint>

#include "absl/types/span.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

struct AxisSplit {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;

  int64_t block() const { return extent * inner; }  // elements of one outer index
  int64_t lanes() const { return outer * inner; }
};

// Around `axis` (non-negative, < rank).
AxisSplit SplitAtAxis(absl::Span<const int64_t> shape, int64_t axis);

// The 2-D view the operators before opset 13 take (Softmax-1/11): [shape[:axis]] x [shape[axis:]]
// as rows of one lane each (inner 1).
AxisSplit CoerceTo2D(absl::Span<const int64_t> shape, int64_t axis);

// `shape` with dim `axis` made `size` (keepdims) or removed (size < 0).
Shape WithAxisResized(absl::Span<const int64_t> shape, int64_t axis, int64_t size);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_REDUCTION_AXIS_SPLIT_H_
