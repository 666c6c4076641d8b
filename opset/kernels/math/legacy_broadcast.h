// The broadcasting of the binary ops before opset 7 (attributes `broadcast` and `axis`), expressed
// through numpy broadcasting so that the same kernels serve every opset.
#ifndef GRAPHGC_OPSET_KERNELS_MATH_LEGACY_BROADCAST_H_
#define GRAPHGC_OPSET_KERNELS_MATH_LEGACY_BROADCAST_H_

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

// Opsets before 7 broadcast only B, and only when the attribute `broadcast` is 1: to A's shape,
// its dims matching A's from `axis` on (default: A's trailing dims), or as a one-element tensor.
// Returns B viewed with a shape that numpy broadcasting treats the same way; from opset 7 on, B
// itself. Shapes the legacy rules do not broadcast decline.
absl::StatusOr<Tensor> LegacyBroadcastOperand(const KernelContext& ctx, const Tensor& a,
                                              const Tensor& b);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_LEGACY_BROADCAST_H_
