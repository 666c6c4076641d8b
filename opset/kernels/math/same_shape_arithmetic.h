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

#include "absl/strings/string_view.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels {

enum class Arithmetic { kAdd, kSub, kMul, kDiv };

// The op of the ONNX domain named `op_type`, if it is one of the four.
std::optional<Arithmetic> ArithmeticOf(absl::string_view op_type);

// Whether `op` has a value for this divisor: Div of integers by a tensor holding a zero has none
// (its registered kernel declines it).
bool ArithmeticHasValue(Arithmetic op, const Tensor& divisor);

// out = a op b element by element. a, b and out have one numeric element type and one shape
// (out allocated by the caller) and ArithmeticHasValue(op, b) holds; anything else aborts.
void ComputeArithmetic(Arithmetic op, const Tensor& a, const Tensor& b, MutableTensor& out);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MATH_SAME_SHAPE_ARITHMETIC_H_
