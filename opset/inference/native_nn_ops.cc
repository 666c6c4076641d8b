// Native inference of the layers around every convolution and dense layer: BatchNormalization (15),
// LayerNormalization (17), Gemm (13) and GlobalAveragePool and GlobalMaxPool (1, 22). ONNX 1.19's
// rules; no shape data (ONNX propagates none through them).
#include <cstdint>
#include <optional>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

// ONNX's unifyDim(source, target) for dims without names: a known source dim must equal a known
// target, and fills an unknown one.
absl::Status Unify(int64_t source, int64_t& target) {
  if (source < 0) return absl::OkStatus();
  if (target >= 0 && target != source) {
    return ShapeInferenceError("Dimension mismatch in unification between ", source, " and ",
                               target);
  }
  target = source;
  return absl::OkStatus();
}

// ONNX's checkInputRank: a known rank must be `rank`.
absl::Status CheckRank(const OperandInfo& input, size_t index, size_t rank,
                       absl::string_view op_type) {
  if (!input.shape.has_value() || input.shape->size() == rank) return absl::OkStatus();
  return ShapeInferenceError("Input ", index, " expected to have rank ", rank, " but has rank ",
                             input.shape->size(), " in ", op_type, ".");
}

}  // namespace

absl::StatusOr<OutputTypes> InferBatchNormalization15(absl::Span<const OperandInfo> inputs,
                                                      absl::Span<const Attribute> attributes,
                                                      int num_outputs) {
  OutputTypes types(static_cast<size_t>(num_outputs));
  types[0].dtype = inputs[0].dtype;
  types[0].shape = inputs[0].shape;
  for (size_t i = 1; i <= 4; ++i) {
    GRAPHGC_RETURN_IF_ERROR(CheckRank(inputs[i], i, 1, "BatchNormalization"));
  }
  int64_t channels = kUnknownDim;
  if (inputs[0].shape.has_value()) {
    if (inputs[0].shape->size() > 1) {
      GRAPHGC_RETURN_IF_ERROR(Unify((*inputs[0].shape)[1], channels));
    } else {
      channels = 1;
    }
  }
  for (size_t i = 1; i <= 4; ++i) {
    if (inputs[i].shape.has_value())
      GRAPHGC_RETURN_IF_ERROR(Unify((*inputs[i].shape)[0], channels));
  }
  // ONNX reads training_mode into an int.
  const bool training =
      static_cast<int>(IntAttribute(attributes, "training_mode").value_or(0)) != 0;
  if (training && num_outputs != 3) {
    return ShapeInferenceError(
        "This number of op outputs should be 3 when Training_mode = True, but it is not.");
  }
  if (!training && num_outputs != 1) {
    return ShapeInferenceError(
        "This number of op outputs should be 1 when Training_mode = False, but it is not.");
  }
  for (int i = 1; i < num_outputs; ++i) {  // the running mean and variance, typed as the inputs'
    types[static_cast<size_t>(i)].dtype = inputs[static_cast<size_t>(i) + 2].dtype;
    types[static_cast<size_t>(i)].shape = Shape{channels};
  }
  return types;
}

absl::StatusOr<OutputTypes> InferLayerNormalization17(absl::Span<const OperandInfo> inputs,
                                                      absl::Span<const Attribute> attributes,
                                                      int num_outputs) {
  // Mean and InvStdDev are of stash_type; ONNX writes any number there. Only its default (float)
  // is taken here, the rest is left to ONNX's function.
  if (IntAttribute(attributes, "stash_type").value_or(1) != 1) return DeclineNativeRule();
  OutputTypes types(static_cast<size_t>(num_outputs));
  types[0].dtype = inputs[0].dtype;
  types[0].shape = inputs[0].shape;
  for (size_t i = 1; i < types.size(); ++i) types[i].dtype = DataType::kFloat;
  if (!inputs[0].shape.has_value()) return types;
  const Shape& input = *inputs[0].shape;
  const auto rank = static_cast<int64_t>(input.size());
  int64_t axis = IntAttribute(attributes, "axis").value_or(-1);
  if (axis < 0) axis += rank;
  if (axis < 0) {
    return ShapeInferenceError("Unexpected axis value (", axis, ") rank of first input is ", rank,
                               " in .");
  }
  for (size_t i = 1; i < types.size(); ++i) {
    Shape reduced = input;
    for (int64_t d = axis; d < rank; ++d) reduced[static_cast<size_t>(d)] = 1;
    types[i].shape = std::move(reduced);
  }
  return types;
}

absl::StatusOr<OutputTypes> InferGlobalPool(absl::Span<const OperandInfo> inputs,
                                            absl::Span<const Attribute> attributes,
                                            int num_outputs) {
  const OperandInfo& x = inputs[0];
  if (!x.shape.has_value() || x.shape->size() < 2) {
    return OneOutput(x.dtype, std::nullopt, std::nullopt);
  }
  Shape out(x.shape->size(), 1);  // [N, C, 1, ..., 1]
  out[0] = (*x.shape)[0];
  out[1] = (*x.shape)[1];
  return OneOutput(x.dtype, std::move(out), std::nullopt);
}

absl::StatusOr<OutputTypes> InferGemm13(absl::Span<const OperandInfo> inputs,
                                        absl::Span<const Attribute> attributes, int num_outputs) {
  const DataType dtype = inputs[0].dtype;
  if (!inputs[0].shape.has_value() || !inputs[1].shape.has_value()) {
    return OneOutput(dtype, std::nullopt, std::nullopt);
  }
  const Shape& a = *inputs[0].shape;
  const Shape& b = *inputs[1].shape;
  if (a.size() != 2) return ShapeInferenceError("First input does not have rank 2");
  if (b.size() != 2) return ShapeInferenceError("Second input does not have rank 2");
  // ONNX reads the flags into ints.
  const bool trans_a = static_cast<int>(IntAttribute(attributes, "transA").value_or(0)) != 0;
  const bool trans_b = static_cast<int>(IntAttribute(attributes, "transB").value_or(0)) != 0;
  return OneOutput(dtype, Shape{a[trans_a ? 1 : 0], b[trans_b ? 0 : 1]}, std::nullopt);
}

}  // namespace graphgc::internal
