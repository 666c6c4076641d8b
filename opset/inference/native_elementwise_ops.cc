// Native inference of ops whose output is shaped like their inputs: the unary ops whose ONNX rule
// is propagateShapeAndTypeFromFirstInput (input 0's element type and shape, if known), the binary
// ops that broadcast their two inputs (typed as input 0, or bool for the comparisons), Softmax,
// LogSoftmax and Hardmax (13: the input's shape, once `axis` is checked against its rank) and
// Where (16: the three inputs broadcast together). ONNX 1.19's rules; no shape data (ONNX
// propagates none through these).
#include <algorithm>
#include <cstdint>
#include <optional>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

// The rule ONNX's SoftmaxFamilyDocGenerator gives Softmax, LogSoftmax and Hardmax.
absl::StatusOr<OutputTypes> InferSoftmaxFamily(absl::string_view op_type,
                                               absl::Span<const OperandInfo> inputs,
                                               absl::Span<const Attribute> attributes) {
  if (!inputs[0].shape.has_value()) return OneOutput(inputs[0].dtype, std::nullopt, std::nullopt);
  const int rank = static_cast<int>(inputs[0].shape->size());
  if (rank == 0) return ShapeInferenceError("Input rank must be >= 1 for ", op_type, ".");
  // ONNX reads the attribute into an int, so an axis past 32 bits is checked as truncated.
  const int axis = static_cast<int>(IntAttribute(attributes, "axis").value_or(-1));
  if (axis < -rank || axis >= rank) {
    return ShapeInferenceError("'axis' must be in [", -rank, " , ", rank - 1,
                               "]. Its actual value is: ", axis);
  }
  return OneOutput(inputs[0].dtype, inputs[0].shape, std::nullopt);
}

// ONNX's rule of the binary broadcasting ops: `dtype`, and with both shapes known their
// bidirectional broadcast. BroadcastShapesInto combines dims as ONNX's
// multidirectionalBroadcastShapeInference does for unnamed unknown dims: a known dim other than 1
// wins (two different ones fail), else an unknown one makes the dim unknown.
absl::StatusOr<OutputTypes> InferBroadcastPair(DataType dtype,
                                               absl::Span<const OperandInfo> inputs) {
  std::optional<Shape> out;
  GRAPHGC_RETURN_IF_ERROR(BroadcastShapesInto(inputs[0].shape, inputs[1].shape, out));
  return OneOutput(dtype, std::move(out), std::nullopt);
}

}  // namespace

absl::StatusOr<OutputTypes> InferLikeFirstInput(absl::Span<const OperandInfo> inputs,
                                                absl::Span<const Attribute> attributes,
                                                int num_outputs) {
  return OneOutput(inputs[0].dtype, inputs[0].shape, std::nullopt);
}

absl::StatusOr<OutputTypes> InferBroadcastLikeFirstInput(absl::Span<const OperandInfo> inputs,
                                                         absl::Span<const Attribute> attributes,
                                                         int num_outputs) {
  return InferBroadcastPair(inputs[0].dtype, inputs);
}

absl::StatusOr<OutputTypes> InferBroadcastToBool(absl::Span<const OperandInfo> inputs,
                                                 absl::Span<const Attribute> attributes,
                                                 int num_outputs) {
  return InferBroadcastPair(DataType::kBool, inputs);
}

absl::StatusOr<OutputTypes> InferSoftmax13(absl::Span<const OperandInfo> inputs,
                                           absl::Span<const Attribute> attributes,
                                           int num_outputs) {
  return InferSoftmaxFamily("Softmax", inputs, attributes);
}

absl::StatusOr<OutputTypes> InferLogSoftmax13(absl::Span<const OperandInfo> inputs,
                                              absl::Span<const Attribute> attributes,
                                              int num_outputs) {
  return InferSoftmaxFamily("LogSoftmax", inputs, attributes);
}

absl::StatusOr<OutputTypes> InferHardmax13(absl::Span<const OperandInfo> inputs,
                                           absl::Span<const Attribute> attributes,
                                           int num_outputs) {
  return InferSoftmaxFamily("Hardmax", inputs, attributes);
}

absl::StatusOr<OutputTypes> InferWhere16(absl::Span<const OperandInfo> inputs,
                                         absl::Span<const Attribute> attributes, int num_outputs) {
  // ONNX broadcasts the three shapes at once; the pairwise combination gives the same dims.
  std::optional<Shape> first_two, out;
  GRAPHGC_RETURN_IF_ERROR(BroadcastShapesInto(inputs[0].shape, inputs[1].shape, first_two));
  GRAPHGC_RETURN_IF_ERROR(BroadcastShapesInto(first_two, inputs[2].shape, out));
  return OneOutput(inputs[1].dtype, std::move(out), std::nullopt);
}

}  // namespace graphgc::internal
