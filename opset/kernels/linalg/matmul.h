// MatMul: numpy.matmul shape inference and propagation kernel. Internal to the opset module.
#ifndef GRAPHGC_MATMUL_KERNEL_H_
#define GRAPHGC_MATMUL_KERNEL_H_

#include <optional>

#include "absl/status/statusor.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// Output shape of matmul(a, b); dims may be -1 (unknown), nullopt ranks give nullopt. The error
// message says which dims disagree; callers prefix the op name.
absl::StatusOr<std::optional<Shape>> MatMulShape(const std::optional<Shape>& a,
                                                 const std::optional<Shape>& b);

// nullopt if the type is unsupported or allocation fails.
std::optional<Tensor> ComputeMatMul(const Tensor& a, const Tensor& b,
                                    absl::Span<const int64_t> out_shape);

}  // namespace graphgc::internal

#endif  // GRAPHGC_MATMUL_KERNEL_H_
