#include "graphgc/opset/inference/inference_fixes.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <variant>
#include <vector>

#include "graphgc/opset/inference/native_rule_support.h"

namespace graphgc::internal {
namespace {

// The single integer value of an operand, if known.
std::optional<int64_t> ScalarValue(absl::Span<const OperandInfo> operands, size_t index) {
  if (index >= operands.size() || !operands[index].present || !operands[index].value.has_value()) {
    return std::nullopt;
  }
  const Tensor& value = *operands[index].value;
  if (value.size() != 1) return std::nullopt;
  if (value.dtype() == DataType::kInt64) return value.data<int64_t>()[0];
  if (value.dtype() == DataType::kInt32) return value.data<int32_t>()[0];
  return std::nullopt;
}

std::optional<int64_t> Dim(absl::Span<const OperandInfo> operands, size_t index, size_t axis) {
  if (index >= operands.size() || !operands[index].present) return std::nullopt;
  const std::optional<Shape>& shape = operands[index].shape;
  if (!shape.has_value() || axis >= shape->size() || (*shape)[axis] < 0) return std::nullopt;
  return (*shape)[axis];
}

// STFT-17: signal [batch, length, 1 or 2], frame_step, window [frame_length]?, frame_length?.
void FixStft(absl::Span<const OperandInfo> operands, const std::vector<Attribute>& attributes,
             OutputTypes& types) {
  if (types.size() != 1 || operands.empty()) return;
  const std::optional<int64_t> step = ScalarValue(operands, 1);
  std::optional<int64_t> frame = ScalarValue(operands, 3);
  if (!frame.has_value()) frame = Dim(operands, 2, 0);
  const std::optional<int64_t> batch = Dim(operands, 0, 0);
  const std::optional<int64_t> length = Dim(operands, 0, 1);
  int64_t frames = -1;
  int64_t bins = -1;
  if (frame.has_value() && *frame > 0) {
    bins = IntAttribute(attributes, "onesided").value_or(1) != 0 ? *frame / 2 + 1 : *frame;
    if (step.has_value() && *step > 0 && length.has_value() && *length >= *frame) {
      frames = (*length - *frame) / *step + 1;
    }
  }
  types[0].shape = Shape{batch.value_or(-1), frames, bins, 2};
}

// Einsum-12: a label whose operands' dims are 1 and n broadcasts to n (numpy, ONNX Runtime), but
// ONNX 1.19 takes the first operand's dim. Which output dims come from such a label needs the
// equation parsed; a dim of 1 is the only one that can be wrong, so each becomes unknown whenever
// an operand has a dim of 1, and the value, once computed, gives it.
void FixEinsum(absl::Span<const OperandInfo> operands, OutputTypes& types) {
  if (types.size() != 1 || !types[0].shape.has_value()) return;
  bool some_dim_is_one = false;
  for (const OperandInfo& operand : operands) {
    if (!operand.present || !operand.shape.has_value()) continue;
    for (int64_t dim : *operand.shape) some_dim_is_one = some_dim_is_one || dim == 1;
  }
  if (!some_dim_is_one) return;
  for (int64_t& dim : *types[0].shape) {
    if (dim == 1) dim = -1;
  }
}

// `operand` with its known int32 value as int64.
OperandInfo WithInt64Value(const OperandInfo& operand) {
  OperandInfo widened = operand;
  const auto narrow = operand.value->data<int32_t>();
  widened.value = Tensor::from_vector<int64_t>(std::vector<int64_t>(narrow.begin(), narrow.end()),
                                               operand.value->shape());
  return widened;
}

// Range's operands of one element as the scalars ONNX's inference insists on: ONNX Runtime and
// ONNX's reference read a [1]-shaped start, limit or delta as its element, and ONNX's own
// AffineGrid function body passes such limits.
std::optional<std::vector<OperandInfo>> RangeOperandsAsScalars(
    absl::Span<const OperandInfo> operands) {
  const auto one_element = [](const OperandInfo& operand) {
    return operand.present && operand.shape.has_value() && *operand.shape == Shape{1};
  };
  if (std::none_of(operands.begin(), operands.end(), one_element)) return std::nullopt;
  std::vector<OperandInfo> scalars(operands.begin(), operands.end());
  for (OperandInfo& operand : scalars) {
    if (!one_element(operand)) continue;
    operand.shape = Shape{};
    if (operand.value.has_value()) operand.value = operand.value->reshaped({});
    if (operand.shape_data.has_value()) operand.shape_data.reset();
  }
  return scalars;
}

// MaxUnpool's indices of unknown shape as X's rank of unknown dims.
std::optional<std::vector<OperandInfo>> UnpoolIndicesRanked(
    absl::Span<const OperandInfo> operands) {
  if (operands.size() < 2 || !operands[0].shape.has_value() || operands[1].shape.has_value()) {
    return std::nullopt;
  }
  std::vector<OperandInfo> ranked(operands.begin(), operands.end());
  ranked[1].shape = Shape(operands[0].shape->size(), -1);
  return ranked;
}

bool HasAttribute(absl::Span<const Attribute> attributes, absl::string_view name) {
  return std::any_of(attributes.begin(), attributes.end(),
                     [&](const Attribute& attribute) { return attribute.name == name; });
}

// X's spatial dims past 2^24 unknown, for the ops whose inference steps through them by the
// stride (convPoolShapeInference with auto_pad and without pads).
std::optional<std::vector<OperandInfo>> LongSpatialDimsUnknown(
    absl::Span<const OperandInfo> operands, absl::Span<const Attribute> attributes) {
  constexpr int64_t kLongestStepped = int64_t{1} << 24;
  if (operands.empty() || !operands[0].shape.has_value() || !HasAttribute(attributes, "auto_pad") ||
      HasAttribute(attributes, "pads")) {
    return std::nullopt;
  }
  const Shape& shape = *operands[0].shape;
  if (std::none_of(shape.begin(), shape.end(), [](int64_t dim) { return dim > kLongestStepped; })) {
    return std::nullopt;
  }
  std::vector<OperandInfo> shortened(operands.begin(), operands.end());
  for (size_t axis = 2; axis < shape.size(); ++axis) {
    if (shape[axis] > kLongestStepped) (*shortened[0].shape)[axis] = -1;
  }
  return shortened;
}

// The pools before 22 count ceil_mode's positions through a float division, which rounds a padded
// spatial dim past 2^24: such a dim reaches the inference unknown (MaxPool-12's native rule
// mirrors the float, so it gets the same).
std::optional<std::vector<OperandInfo>> FloatCountedDimsUnknown(
    absl::Span<const OperandInfo> operands, absl::Span<const Attribute> attributes) {
  constexpr int64_t kExactInFloat = int64_t{1} << 24;
  const int64_t* ceil_mode = nullptr;
  const std::vector<int64_t>* pads = nullptr;
  for (const Attribute& attribute : attributes) {
    if (attribute.name == "ceil_mode") ceil_mode = std::get_if<int64_t>(&attribute.value);
    if (attribute.name == "pads") pads = std::get_if<std::vector<int64_t>>(&attribute.value);
  }
  if (ceil_mode == nullptr || *ceil_mode != 1) return std::nullopt;
  if (operands.empty() || !operands[0].shape.has_value()) return std::nullopt;
  const Shape& shape = *operands[0].shape;
  const size_t spatial = shape.size() < 2 ? 0 : shape.size() - 2;
  std::optional<std::vector<OperandInfo>> widened;
  for (size_t i = 0; i < spatial; ++i) {
    int64_t padded = shape[2 + i];
    if (pads != nullptr && pads->size() == 2 * spatial) {
      for (int64_t pad : {(*pads)[i], (*pads)[i + spatial]}) {
        if (__builtin_add_overflow(padded, pad, &padded)) padded = INT64_MAX;
      }
    }
    if (padded <= kExactInFloat) continue;
    if (!widened.has_value()) widened.emplace(operands.begin(), operands.end());
    (*(*widened)[0].shape)[2 + i] = -1;
  }
  return widened;
}

bool CountsCeilInFloat(absl::string_view op_type, int since_version) {
  return since_version < 22 &&
         (op_type == "MaxPool" || op_type == "AveragePool" || op_type == "LpPool");
}

bool SteppedThroughByInference(absl::string_view op_type) {
  for (absl::string_view name :
       {"AveragePool", "MaxPool", "LpPool", "Conv", "ConvInteger", "QLinearConv", "DeformConv"}) {
    if (op_type == name) return true;
  }
  return false;
}

// Split's inference (every version) reads the split dim into an int: one past int32 reaches it
// unknown, and so do the parts along it.
std::optional<std::vector<OperandInfo>> SplitDimPastIntUnknown(
    absl::Span<const OperandInfo> operands, absl::Span<const Attribute> attributes) {
  if (operands.empty() || !operands[0].shape.has_value()) return std::nullopt;
  const Shape& shape = *operands[0].shape;
  const auto rank = static_cast<int64_t>(shape.size());
  int64_t axis = 0;
  for (const Attribute& attribute : attributes) {
    if (const int64_t* value = std::get_if<int64_t>(&attribute.value);
        value != nullptr && attribute.name == "axis") {
      axis = *value;
    }
  }
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank || shape[axis] <= std::numeric_limits<int32_t>::max()) {
    return std::nullopt;
  }
  std::vector<OperandInfo> shortened(operands.begin(), operands.end());
  (*shortened[0].shape)[axis] = -1;
  return shortened;
}

// An op's inputs from `first` on that are given without a value or a shape, as 1-D of unknown
// length (the only rank they may have): ONNX's Slice and Pad take such an input as left out, and
// guess the axes.
std::optional<std::vector<OperandInfo>> BoundsRanked(absl::Span<const OperandInfo> operands,
                                                     size_t first) {
  std::optional<std::vector<OperandInfo>> ranked;
  for (size_t i = first; i < operands.size(); ++i) {
    const OperandInfo& bound = operands[i];
    if (!bound.present || bound.shape.has_value() || bound.value.has_value()) continue;
    if (!ranked.has_value()) ranked.emplace(operands.begin(), operands.end());
    (*ranked)[i].shape = Shape{-1};
  }
  return ranked;
}

// Slice before 13 (13 has a native rule): axes and steps ranked (BoundsRanked), and input 0's dims
// past 2^53 unknown, since ONNX counts a sliced dim in double, which rounds them.
std::optional<std::vector<OperandInfo>> SliceReadable(absl::Span<const OperandInfo> operands) {
  constexpr size_t kAxes = 3;
  constexpr int64_t kExactInDouble = int64_t{1} << 53;
  std::optional<std::vector<OperandInfo>> readable = BoundsRanked(operands, kAxes);
  if (operands.empty() || !operands[0].shape.has_value()) return readable;
  const Shape& shape = *operands[0].shape;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] <= kExactInDouble) continue;
    if (!readable.has_value()) readable.emplace(operands.begin(), operands.end());
    (*(*readable)[0].shape)[d] = -1;
  }
  return readable;
}

// Pad (18 on): axes ranked (BoundsRanked), and known int32 axes as int64.
std::optional<std::vector<OperandInfo>> PadAxesReadable(absl::Span<const OperandInfo> operands) {
  constexpr size_t kPadAxes = 3;
  if (operands.size() <= kPadAxes) return std::nullopt;
  std::optional<std::vector<OperandInfo>> readable = BoundsRanked(operands, kPadAxes);
  const OperandInfo& axes = operands[kPadAxes];
  if (!axes.present || !axes.value.has_value() || axes.value->dtype() != DataType::kInt32) {
    return readable;
  }
  if (!readable.has_value()) readable.emplace(operands.begin(), operands.end());
  (*readable)[kPadAxes] = WithInt64Value(axes);
  return readable;
}

}  // namespace

std::optional<std::vector<OperandInfo>> WidenedForOnnxInference(
    absl::string_view op_type, int since_version, absl::Span<const OperandInfo> operands,
    absl::Span<const Attribute> attributes) {
  if (op_type == "Range") return RangeOperandsAsScalars(operands);
  // Slice-13's native rule counts in int64; it needs only the ranked bounds (as ONNX's does).
  if (op_type == "Slice" && since_version >= 13) return BoundsRanked(operands, /*first=*/3);
  if (op_type == "Slice" && since_version >= 10) return SliceReadable(operands);
  if (op_type == "Pad" && since_version >= 18) return PadAxesReadable(operands);
  if (op_type == "MaxUnpool") return UnpoolIndicesRanked(operands);
  // Split 13 and 18 have native rules, which count in int64.
  if (op_type == "Split" && since_version < 13) return SplitDimPastIntUnknown(operands, attributes);
  if (CountsCeilInFloat(op_type, since_version)) {
    if (auto widened = FloatCountedDimsUnknown(operands, attributes)) return widened;
  }
  if (SteppedThroughByInference(op_type)) return LongSpatialDimsUnknown(operands, attributes);
  return std::nullopt;
}

void FixInferredTypes(absl::string_view op_type, int since_version,
                      absl::Span<const OperandInfo> operands,
                      const std::vector<Attribute>& attributes, OutputTypes& types) {
  // GroupNormalization's output is X's shape, but ONNX infers it through the function body,
  // whose Reshapes to computed shapes lose even the rank.
  if (op_type == "GroupNormalization" && types.size() == 1 && !operands.empty() &&
      !types[0].shape.has_value()) {
    types[0].shape = operands[0].shape;
  }
  if (op_type == "STFT" && since_version == 17) FixStft(operands, attributes, types);
  if (op_type == "Einsum" && since_version == 12) FixEinsum(operands, types);
}

}  // namespace graphgc::internal
