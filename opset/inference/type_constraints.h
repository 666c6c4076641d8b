// Element-type constraints of the ONNX schemas the hand-written ops implement (opset 17), and the
// checks that turn a violation into a status naming the input and the types.
#ifndef GRAPHGC_TYPE_CONSTRAINTS_H_
#define GRAPHGC_TYPE_CONSTRAINTS_H_

#include <initializer_list>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/valuestore/data_type.h"

namespace graphgc::internal {

using TypeSet = std::initializer_list<DataType>;

// Add, Sub, Mul, Div (opset 14): every numeric type.
extern const TypeSet kAllNumeric;
// Neg (13), Relu (14): signed integers and floating point.
extern const TypeSet kSignedNumeric;
// MatMul (13).
extern const TypeSet kMatMulTypes;
// Cast (13), Identity (16), Reshape (14): every supported type.
extern const TypeSet kAllTypes;

// "Add: input 0 (A) has element type string, not one of uint8, ..."
absl::Status CheckElementType(const OpSignature& signature, size_t index, DataType dtype,
                              TypeSet allowed);
// Every input has the element type of input 0.
absl::Status CheckSameElementType(const OpSignature& signature,
                                  absl::Span<const OperandInfo> inputs);

}  // namespace graphgc::internal

#endif  // GRAPHGC_TYPE_CONSTRAINTS_H_
