// Add, Sub, Mul and Div of two tensors of one numeric element type and one shape, without a
// KernelContext: for a caller that has made the registry's checks already (the binary short path,
// opset/build/binary_short_path.h) and wants the values the registered kernels give such operands
// without their wrapping. The element functions are theirs (arithmetic_elements.h) and so is the
// loop (MapRow, one stream of loads when both operands are one tensor), so the elements are the
// same bit for bit; binary_short_path_test compares both over every numeric type.
// Stateless; any thread.
#ifndef GRAPHGC_OPSET_KERNELS_MATH_SAME_SHAPE_ARITHMETIC_H_
#define GRAPHGC_OPSET_KERNELS_MATH_SAME_SHAPE_ARITHMETIC_H_

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

enum class Arithmetic { kAdd, kSub, kMul, kDiv };

// The op of the ONNX domain named `op_type`, if it is one of the four.
std::optional<Arithmetic> ArithmeticOf(absl::string_view op_type);

// a op b element by element, into `out`: a new tensor of their type and shape, made where the
// caller keeps it (one move fewer than a StatusOr<Tensor> on the hot path of every valued op).
// The errors are a kernel's (kernel.h), and MeansNoValue holds for both: Decline for Div of
// integers by a tensor holding a zero (checked before anything is allocated, as the registered
// Div does), kResourceExhausted when the tensor cannot be allocated; `out` is then untouched.
// a and b have one numeric element type and one shape; anything else aborts.
absl::Status ComputeArithmetic(Arithmetic op, const Tensor& a, const Tensor& b,
                               std::optional<Tensor>& out);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_SAME_SHAPE_ARITHMETIC_H_
