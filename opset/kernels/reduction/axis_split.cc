#include "graphgc/opset/kernels/reduction/axis_split.h"

#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels {

AxisSplit SplitAtAxis(absl::Span<const int64_t> shape, int64_t axis) {
  const size_t a = static_cast<size_t>(axis);
  return AxisSplit{Product(shape.subspan(0, a)), shape[a], Product(shape.subspan(a + 1))};
}

AxisSplit CoerceTo2D(absl::Span<const int64_t> shape, int64_t axis) {
  const size_t a = static_cast<size_t>(axis);
  return AxisSplit{Product(shape.subspan(0, a)), Product(shape.subspan(a)), 1};
}

Shape WithAxisResized(absl::Span<const int64_t> shape, int64_t axis, int64_t size) {
  Shape out(shape.begin(), shape.end());
  if (size < 0) {
    out.erase(out.begin() + axis);
  } else {
    out[static_cast<size_t>(axis)] = size;
  }
  return out;
}

}  // namespace graphgc::kernels
