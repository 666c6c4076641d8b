#include "graphgc/opset/kernels/math/legacy_broadcast.h"

#include "absl/strings/str_cat.h"

namespace graphgc::kernels {

absl::StatusOr<Tensor> LegacyBroadcastOperand(const KernelContext& ctx, const Tensor& a,
                                              const Tensor& b) {
  constexpr int kNumpyBroadcastSince = 7;
  if (ctx.version() >= kNumpyBroadcastSince) return b;
  if (ctx.int_attribute("broadcast", 0) == 0) {
    if (a.shape() == b.shape()) return b;
    return Decline("the operands' shapes differ and the attribute broadcast is 0");
  }
  if (b.size() == 1) return b.reshaped({});
  const int64_t rank = a.rank();
  const int64_t axis = ctx.has_attribute("axis") ? ctx.int_attribute("axis") : rank - b.rank();
  bool fits = axis >= 0 && axis + b.rank() <= rank;
  // A dim of 1 in B broadcasts within its window: ONNX's version converter maps the legacy form
  // onto numpy broadcasting, and PyTorch's opset-6 exports expect it (pytorch-operator's
  // test_operator_add_size1_broadcast: A [2, 3] + B [2, 1], axis 0).
  for (int64_t i = 0; fits && i < b.rank(); ++i) {
    fits = a.shape()[axis + i] == b.shape()[i] || b.shape()[i] == 1;
  }
  if (!fits) {
    return Decline(absl::StrCat("B's shape ", ShapeToString(b.shape()), " is not A's ",
                                ShapeToString(a.shape()), " from axis ", axis));
  }
  Shape view(b.shape().begin(), b.shape().end());
  view.resize(rank - axis, 1);
  return b.reshaped(view);
}

absl::StatusOr<Tensor> LegacyPReluSlope(const KernelContext& ctx, const Tensor& x,
                                        const Tensor& slope) {
  if (slope.size() == 1) return slope.reshaped({});
  const bool per_channel = slope.rank() == 1 && x.rank() >= 3 && x.shape()[1] == slope.shape()[0];
  if (!per_channel) {
    // X's shape is the output's: the slope may only broadcast to it.
    bool fits = slope.rank() <= x.rank();
    for (int64_t i = 1; fits && i <= slope.rank(); ++i) {
      const int64_t dim = slope.shape()[slope.rank() - i];
      fits = dim == 1 || dim == x.shape()[x.rank() - i];
    }
    if (!fits) {
      return Decline(absl::StrCat("a slope of shape ", ShapeToString(slope.shape()),
                                  " is neither one value, one per channel, nor broadcast to X's ",
                                  ShapeToString(x.shape())));
    }
    return slope;
  }
  Shape view(static_cast<size_t>(x.rank() - 1), 1);
  view[0] = slope.shape()[0];
  return slope.reshaped(view);
}

}  // namespace graphgc::kernels
