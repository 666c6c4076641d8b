// MatMul: numpy.matmul's shape inference (used by the opset module's MatMul) and its kernel.
#ifndef GRAPHGC_MATMUL_KERNEL_H_
#define GRAPHGC_MATMUL_KERNEL_H_

#include <optional>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// Output shape of matmul(a, b); dims may be -1 (unknown), nullopt ranks give nullopt. The error
// message says which dims disagree; callers prefix the op name.
absl::StatusOr<std::optional<Shape>> MatMulShape(const std::optional<Shape>& a,
                                                 const std::optional<Shape>& b);

}  // namespace graphgc::internal

namespace graphgc::kernels::linalg {

// MatMul (every version: 1, 9 and 13 differ only in the element types allowed).
KernelResult MatMulKernel(const KernelContext& ctx);

}  // namespace graphgc::kernels::linalg

#endif  // GRAPHGC_MATMUL_KERNEL_H_
