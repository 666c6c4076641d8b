#include "graphgc/opset/kernels/math/elementwise.h"

#include <algorithm>

namespace graphgc::kernels {

absl::StatusOr<Shape> BroadcastShapeOf(const KernelContext& ctx,
                                       absl::Span<const Tensor* const> inputs) {
  // Inputs of one shape (a chain's common case) broadcast to it: no joins, no copies but one.
  const bool same = !inputs.empty() && std::all_of(inputs.begin(), inputs.end(), [&](auto* input) {
    return input->shape() == inputs[0]->shape();
  });
  if (same) return Shape(inputs[0]->shape().begin(), inputs[0]->shape().end());
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
