#include "graphgc/opset/kernels/math/elementwise.h"

namespace graphgc::kernels {

absl::StatusOr<Shape> BroadcastShapeOf(const KernelContext& ctx,
                                       absl::Span<const Tensor* const> inputs) {
  std::optional<Shape> shape(std::in_place);  // rank 0: the identity of broadcasting
  for (size_t k = 0; k < inputs.size(); ++k) {
    const absl::Span<const int64_t> dims = inputs[k]->shape();
    absl::StatusOr<std::optional<Shape>> joined =
        internal::BroadcastShapes(shape, Shape(dims.begin(), dims.end()));
    if (!joined.ok()) return ctx.input_error(static_cast<int>(k), joined.status().message());
    shape = **joined;
  }
  return *shape;
}

}  // namespace graphgc::kernels
