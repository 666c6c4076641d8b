// Native inference of Slice (13): ONNX 1.19's rule and data propagation, with the starts, ends,
// axes and steps read from known values of at most kMaxInferenceDataElements elements (what
// ONNX's getInputData hands over). Three places differ from ONNX, each where ONNX's answer is not
// what the kernels compute (a known dim or complete data becomes a value further on):
// - a present axes or steps input without a value leaves every dim unknown; ONNX's own function,
//   when that input has no shape either, slices the leading axes as if the input were left out
//   (graphgc gives it such an input as 1-D, WidenedForOnnxInference, for Slice 10 and 11);
// - a dim is counted in integers; ONNX divides in double, which rounds past 2^53;
// - data is propagated only from starts, ends, axes and steps whose every element is known, and
//   steps through the data in int64; ONNX reads an unknown element as 0, and steps in an int.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"
#include "graphgc/opset/inference/shape_data.h"

namespace graphgc::internal {
namespace {

constexpr size_t kStarts = 1, kEnds = 2, kAxes = 3, kSteps = 4;

bool Given(absl::Span<const OperandInfo> inputs, size_t index) {
  return index < inputs.size() && inputs[index].present;
}

// An index input's elements as ONNX's getInputData gives them (int32 or int64, as Tind allows).
std::optional<std::vector<int64_t>> KnownIndices(const OperandInfo& input) {
  if (!input.present || !input.value.has_value()) return std::nullopt;
  const Tensor& value = *input.value;
  if (value.size() > kMaxInferenceDataElements) return std::nullopt;
  if (value.dtype() == DataType::kInt32) {
    const auto elements = value.data<int32_t>();
    return std::vector<int64_t>(elements.begin(), elements.end());
  }
  if (value.dtype() == DataType::kInt64) {
    const auto elements = value.data<int64_t>();
    return std::vector<int64_t>(elements.begin(), elements.end());
  }
  return std::nullopt;
}

// ONNX's processSliceInputs: start and end clamped into a dim of `size` for `step` (not 0).
void ClampSlice(int64_t size, int64_t& start, int64_t& end, int64_t step) {
  if (size == 0) {
    start = end = 0;
    return;
  }
  if (start < 0) start += size;
  start = step < 0 ? std::clamp<int64_t>(start, 0, size - 1) : std::clamp<int64_t>(start, 0, size);
  if (end < 0) end += size;
  end = step < 0 ? std::clamp<int64_t>(end, -1, size - 1) : std::clamp<int64_t>(end, 0, size);
}

// How many elements a clamped slice takes, in integers (the magnitude of INT64_MIN included).
int64_t SliceLength(int64_t start, int64_t end, int64_t step) {
  const int64_t distance = step > 0 ? end - start : start - end;
  if (distance <= 0) return 0;
  const uint64_t magnitude =
      step > 0 ? static_cast<uint64_t>(step) : static_cast<uint64_t>(-(step + 1)) + 1;
  return static_cast<int64_t>((static_cast<uint64_t>(distance) + magnitude - 1) / magnitude);
}

struct SliceBounds {
  std::vector<int64_t> starts, ends, axes, steps;
};

// The bounds where every one is known, checked as ONNX checks them (axes made non-negative);
// nullopt where one is not known.
absl::StatusOr<std::optional<SliceBounds>> KnownBounds(absl::Span<const OperandInfo> inputs,
                                                       int rank) {
  SliceBounds bounds;
  std::optional<std::vector<int64_t>> starts = KnownIndices(inputs[kStarts]);
  std::optional<std::vector<int64_t>> ends = KnownIndices(inputs[kEnds]);
  if (!starts.has_value() || !ends.has_value()) return std::optional<SliceBounds>();
  std::optional<std::vector<int64_t>> axes, steps;
  if (Given(inputs, kAxes) && !(axes = KnownIndices(inputs[kAxes])).has_value()) {
    return std::optional<SliceBounds>();
  }
  if (Given(inputs, kSteps) && !(steps = KnownIndices(inputs[kSteps])).has_value()) {
    return std::optional<SliceBounds>();
  }
  if (starts->size() != ends->size()) {
    return ShapeInferenceError("Incorrect or missing input value for starts and ends");
  }
  bounds.starts = *std::move(starts);
  bounds.ends = *std::move(ends);
  if (axes.has_value()) {
    if (axes->size() != bounds.starts.size()) {
      return ShapeInferenceError("Input axes has incorrect length");
    }
    bounds.axes = *std::move(axes);
  } else {
    for (size_t i = 0; i < bounds.starts.size(); ++i) bounds.axes.push_back(i);
  }
  if (absl::Status checked = CheckAndAdjustAxes(bounds.axes, rank); !checked.ok()) return checked;
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t axis : bounds.axes) {
    if (seen[axis]) return ShapeInferenceError("Axis ", axis, " is referred to more than once.");
    seen[axis] = true;
  }
  if (steps.has_value()) {
    if (steps->size() != bounds.axes.size()) {
      return ShapeInferenceError("Input steps has incorrect length");
    }
    bounds.steps = *std::move(steps);
  } else {
    bounds.steps.assign(bounds.axes.size(), 1);
  }
  return std::optional<SliceBounds>(std::move(bounds));
}

absl::StatusOr<Shape> SlicedShape(const Shape& input, const SliceBounds& bounds) {
  Shape out = input;
  for (size_t i = 0; i < bounds.axes.size(); ++i) {
    const int64_t axis = bounds.axes[i];
    if (input[axis] == kUnknownDim) continue;
    int64_t start = bounds.starts[i], end = bounds.ends[i];
    const int64_t step = bounds.steps[i];
    if (step == 0) return ShapeInferenceError("'step' cannot be 0 for Slice");
    ClampSlice(input[axis], start, end, step);
    out[axis] = SliceLength(start, end, step);
  }
  return out;
}

// The single element of a bound's data, where it is there and known.
std::optional<int64_t> OnlyKnownElement(const OperandInfo& input) {
  const std::optional<ShapeData> data = ShapeDataOfOperand(input);
  if (!data.has_value() || data->elements.size() != 1 || !data->known(0)) return std::nullopt;
  return data->elements[0];
}

// ONNX's data propagation of Slice: a slice of 1-D data along axis 0, by known bounds.
std::optional<Shape> SlicedData(absl::Span<const OperandInfo> inputs) {
  const std::optional<ShapeData> data = ShapeDataOfOperand(inputs[0]);
  if (!data.has_value()) return std::nullopt;
  // ONNX takes an input past the ends as given, and then finds no data for a left-out one.
  if (inputs.size() > kAxes && OnlyKnownElement(inputs[kAxes]) != 0) return std::nullopt;
  std::optional<int64_t> start = OnlyKnownElement(inputs[kStarts]);
  std::optional<int64_t> end = OnlyKnownElement(inputs[kEnds]);
  const std::optional<int64_t> step =
      inputs.size() > kSteps ? OnlyKnownElement(inputs[kSteps]) : std::optional<int64_t>(1);
  if (!start.has_value() || !end.has_value() || !step.has_value() || *step == 0) {
    return std::nullopt;
  }
  ClampSlice(static_cast<int64_t>(data->elements.size()), *start, *end, *step);
  Shape sliced;
  for (int64_t i = *start; *step > 0 ? i < *end : i > *end;) {
    sliced.push_back(data->known(i) ? data->elements[i] : Arena::kUnknownElement);
    if (__builtin_add_overflow(i, *step, &i)) break;
  }
  if (sliced.empty()) return std::nullopt;
  return sliced;
}

}  // namespace

absl::StatusOr<OutputTypes> InferSlice13(absl::Span<const OperandInfo> inputs,
                                         absl::Span<const Attribute> attributes, int num_outputs) {
  if (inputs.size() < 3 || inputs.size() > 5) {
    return TypeInferenceError("Slice op must have either three, four or five inputs.");
  }
  if (!inputs[0].shape.has_value()) return OneOutput(inputs[0].dtype, std::nullopt, std::nullopt);
  const Shape& input = *inputs[0].shape;
  absl::StatusOr<std::optional<SliceBounds>> bounds =
      KnownBounds(inputs, static_cast<int>(input.size()));
  if (!bounds.ok()) return bounds.status();
  std::optional<Shape> data = SlicedData(inputs);
  if (!bounds->has_value()) {
    return OneOutput(inputs[0].dtype, Shape(input.size(), kUnknownDim), std::move(data));
  }
  absl::StatusOr<Shape> shape = SlicedShape(input, **bounds);
  if (!shape.ok()) return shape.status();
  return OneOutput(inputs[0].dtype, *std::move(shape), std::move(data));
}

}  // namespace graphgc::internal
