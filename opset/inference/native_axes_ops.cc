// Native inference of Unsqueeze (13 to 24) and Squeeze (13 to 24): ONNX 1.19's rules, with the
// axes read from a known value of at most kMaxInferenceDataElements elements (what ONNX's
// getInputData hands over), and input 0's shape data passed through.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"
#include "graphgc/opset/inference/shape_data.h"

namespace graphgc::internal {
namespace {

// The axes input's elements where ONNX's inference gets them (the schemas admit int64 only).
std::optional<std::vector<int64_t>> KnownAxes(const OperandInfo& axes) {
  return KnownInt64Elements(axes);
}

// ONNX's PropagateShapeDataFromInputToOutput: input 0's data as it is.
std::optional<Shape> PassedThroughData(const OperandInfo& input) {
  std::optional<ShapeData> data = ShapeDataOfOperand(input);
  if (!data.has_value()) return std::nullopt;
  return std::move(data->elements);
}

absl::StatusOr<std::optional<Shape>> UnsqueezeShape(absl::Span<const OperandInfo> inputs) {
  if (!inputs[0].shape.has_value()) return std::nullopt;
  std::optional<std::vector<int64_t>> axes = KnownAxes(inputs[1]);
  if (!axes.has_value()) return std::nullopt;
  const Shape& in = *inputs[0].shape;
  const int input_rank = static_cast<int>(in.size());
  const int output_rank = input_rank + static_cast<int>(axes->size());
  if (absl::Status checked = CheckAndAdjustAxes(*axes, output_rank); !checked.ok()) return checked;
  std::vector<bool> seen(static_cast<size_t>(output_rank), false);
  for (int64_t axis : *axes) {
    if (seen[static_cast<size_t>(axis)]) {
      return ShapeInferenceError("Axis ", axis, " is referred to more than once.");
    }
    seen[static_cast<size_t>(axis)] = true;
  }
  std::sort(axes->begin(), axes->end());
  Shape out;
  size_t j = 0;
  const auto insert_ones = [&] {
    while (j < axes->size() && (*axes)[j] == static_cast<int64_t>(out.size())) {
      out.push_back(1);
      ++j;
    }
  };
  for (int i = 0; i < input_rank; ++i) {
    insert_ones();
    out.push_back(in[i]);
  }
  insert_ones();
  return std::optional<Shape>(std::move(out));
}

absl::StatusOr<std::optional<Shape>> SqueezeShape(absl::Span<const OperandInfo> inputs) {
  if (!inputs[0].shape.has_value()) return std::nullopt;
  std::vector<int64_t> axes;
  const bool axes_given = inputs.size() == 2 && inputs[1].present;
  if (axes_given) {
    std::optional<std::vector<int64_t>> known = KnownAxes(inputs[1]);
    if (!known.has_value()) return std::nullopt;
    axes = *std::move(known);
  }
  const Shape& in = *inputs[0].shape;
  const int rank = static_cast<int>(in.size());
  if (absl::Status checked = CheckAndAdjustAxes(axes, rank); !checked.ok()) return checked;
  if (!axes_given && std::find(in.begin(), in.end(), kUnknownDim) != in.end()) {
    return std::nullopt;
  }
  Shape out;
  for (int i = 0; i < rank; ++i) {
    if (!axes_given) {
      if (in[i] != 1) out.push_back(in[i]);
    } else if (std::find(axes.begin(), axes.end(), i) != axes.end()) {
      if (in[i] != kUnknownDim && in[i] != 1) {
        return ShapeInferenceError("Dimension of input ", i, " must be 1 instead of ", in[i]);
      }
    } else {
      out.push_back(in[i]);
    }
  }
  return std::optional<Shape>(std::move(out));
}

}  // namespace

absl::StatusOr<OutputTypes> InferUnsqueeze13(absl::Span<const OperandInfo> inputs,
                                             absl::Span<const Attribute> attributes,
                                             int num_outputs) {
  absl::StatusOr<std::optional<Shape>> shape = UnsqueezeShape(inputs);
  if (!shape.ok()) return shape.status();
  return OneOutput(inputs[0].dtype, *std::move(shape), PassedThroughData(inputs[0]));
}

absl::StatusOr<OutputTypes> InferSqueeze13(absl::Span<const OperandInfo> inputs,
                                           absl::Span<const Attribute> attributes,
                                           int num_outputs) {
  absl::StatusOr<std::optional<Shape>> shape = SqueezeShape(inputs);
  if (!shape.ok()) return shape.status();
  return OneOutput(inputs[0].dtype, *std::move(shape), PassedThroughData(inputs[0]));
}

}  // namespace graphgc::internal
