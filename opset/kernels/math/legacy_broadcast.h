// The broadcasting of the binary ops before opset 7 (attributes `broadcast` and `axis`), expressed
// through numpy broadcasting so that the same kernels serve every opset.
#ifndef GRAPHGC_OPSET_KERNELS_MATH_LEGACY_BROADCAST_H_
#define GRAPHGC_OPSET_KERNELS_MATH_LEGACY_BROADCAST_H_

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

// Opsets before 7 broadcast only B, and only when the attribute `broadcast` is 1: to A's shape,
// its dims matching A's from `axis` on (default: A's trailing dims; a dim of 1 matches any), or as
// a one-element tensor.
// Returns B viewed with a shape that numpy broadcasting treats the same way; from opset 7 on, B
// itself. Shapes the legacy rules do not broadcast decline.
absl::StatusOr<Tensor> LegacyBroadcastOperand(const KernelContext& ctx, const Tensor& a,
                                              const Tensor& b);

// PRelu before opset 7 shares a one-element slope across X and otherwise applies it per channel
// (X's dim 1, as Caffe2 defined it): a slope [C] on X [N, C, D1, ...] is viewed as [C, 1, ...].
// Any other slope is given as it is when it broadcasts to X's shape (X's own shape, in
// particular); one that does not declines.
absl::StatusOr<Tensor> LegacyPReluSlope(const KernelContext& ctx, const Tensor& x,
                                        const Tensor& slope);

// The operand rule of a binary kernel: B as the kernel should broadcast it against A.
using OperandRule = absl::StatusOr<Tensor> (*)(const KernelContext& ctx, const Tensor& a,
                                               const Tensor& b);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_LEGACY_BROADCAST_H_
