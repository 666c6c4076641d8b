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

namespace graphgc::internal {
namespace {

// ONNX's multidirectionalBroadcastShapeInference over shapes whose unknown dims are unnamed: per
// output dim, a known dim other than 1 wins (two different ones fail), else an unknown dim makes
// it unknown, else it is 1.
absl::StatusOr<Shape> BroadcastTogether(absl::Span<const Shape* const> shapes) {
  size_t rank = 0;
  for (const Shape* shape : shapes) rank = std::max(rank, shape->size());
  Shape out;
  for (size_t i = 0; i < rank; ++i) {
    int64_t dim = 1;
    bool unknown = false;
    for (const Shape* shape : shapes) {
      if (i < rank - shape->size()) continue;  // a leading 1
      const int64_t d = (*shape)[i - (rank - shape->size())];
      if (d < 0) {
        unknown = true;
      } else if (d != 1) {
        if (dim != d && dim != 1) return ShapeInferenceError("Incompatible dimensions");
        dim = d;
      }
    }
    out.push_back(dim != 1 || !unknown ? dim : kUnknownDim);
  }
  return out;
}

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

}  // namespace

absl::StatusOr<OutputTypes> InferLikeFirstInput(absl::Span<const OperandInfo> inputs,
                                                absl::Span<const Attribute> attributes,
                                                int num_outputs) {
  return OneOutput(inputs[0].dtype, inputs[0].shape, std::nullopt);
}

// ONNX's rule of the binary broadcasting ops: `dtype`, and with both shapes known their
// bidirectional broadcast.
absl::StatusOr<OutputTypes> InferBroadcastPair(DataType dtype,
                                               absl::Span<const OperandInfo> inputs) {
  if (!inputs[0].shape.has_value() || !inputs[1].shape.has_value()) {
    return OneOutput(dtype, std::nullopt, std::nullopt);
  }
  const Shape* shapes[] = {&*inputs[0].shape, &*inputs[1].shape};
  absl::StatusOr<Shape> out = BroadcastTogether(shapes);
  if (!out.ok()) return out.status();
  return OneOutput(dtype, *std::move(out), std::nullopt);
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
  const DataType dtype = inputs[1].dtype;
  for (const OperandInfo& input : inputs) {
    if (!input.shape.has_value()) return OneOutput(dtype, std::nullopt, std::nullopt);
  }
  const Shape* shapes[] = {&*inputs[0].shape, &*inputs[1].shape, &*inputs[2].shape};
  absl::StatusOr<Shape> out = BroadcastTogether(shapes);
  if (!out.ok()) return out.status();
  return OneOutput(dtype, *std::move(out), std::nullopt);
}

}  // namespace graphgc::internal
