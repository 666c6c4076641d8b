// Propagation kernels for elementwise ops: binary with broadcasting, and unary.
//
// Each returns the output tensor, or nullopt when it declines (a type it does not handle, an
// allocation failure, or — for Div — an integer division by zero, whose result ONNX leaves
// undefined). Internal to the opset module.
#ifndef GRAPHGC_ELEMENTWISE_KERNELS_H_
#define GRAPHGC_ELEMENTWISE_KERNELS_H_

#include <optional>

#include "absl/types/span.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

enum class BinaryOp { kAdd, kSub, kMul, kDiv };
enum class UnaryOp { kNeg, kRelu };

std::optional<Tensor> ComputeBinary(BinaryOp op, const Tensor& a, const Tensor& b,
                                    absl::Span<const int64_t> out_shape);
std::optional<Tensor> ComputeUnary(UnaryOp op, const Tensor& x);

}  // namespace graphgc::internal

#endif  // GRAPHGC_ELEMENTWISE_KERNELS_H_
