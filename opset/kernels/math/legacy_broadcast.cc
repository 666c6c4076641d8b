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
  for (int64_t i = 0; fits && i < b.rank(); ++i) fits = a.shape()[axis + i] == b.shape()[i];
  if (!fits) {
    return Decline(absl::StrCat("B's shape ", ShapeToString(b.shape()), " is not A's ",
                                ShapeToString(a.shape()), " from axis ", axis));
  }
  Shape view(b.shape().begin(), b.shape().end());
  view.resize(rank - axis, 1);
  return b.reshaped(view);
}

}  // namespace graphgc::kernels
