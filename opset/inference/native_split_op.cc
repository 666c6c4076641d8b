// Native inference of Split (13, and 18 to 24): ONNX 1.19's rules, with `split` read from a known
// value of at most kMaxInferenceDataElements elements (what ONNX's getInputData hands over). The
// dims are counted in int64: ONNX reads the split dim into an int, which a dim past int32 wraps
// (inference_fixes.cc gives such a dim to the older versions unknown instead). A part ONNX would
// give a negative dim (num_outputs past what the dim splits into) is unknown, as every negative
// dim graphgc reads back from ONNX's inference is.
#include <cstdint>
#include <optional>
#include <vector>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"

namespace graphgc::internal {
namespace {

constexpr size_t kSplit = 1;

bool SplitGiven(absl::Span<const OperandInfo> inputs) {
  return inputs.size() > kSplit && inputs[kSplit].present;
}

// Every output typed as input 0, with `shape` (nullopt: none).
OutputTypes Parts(const OperandInfo& input, int num_outputs, const std::optional<Shape>& shape) {
  OutputTypes types(static_cast<size_t>(num_outputs));
  for (OutputType& type : types) {
    type.dtype = input.dtype;
    type.shape = shape;
  }
  return types;
}

// The split axis of input 0's shape, made non-negative, as ONNX checks it.
absl::StatusOr<size_t> SplitAxis(const Shape& shape, absl::Span<const Attribute> attributes) {
  const int rank = static_cast<int>(shape.size());
  // `axis` fits in 32 bits (CheckInferenceGuards); ONNX reads it into an int.
  int axis = static_cast<int>(IntAttribute(attributes, "axis").value_or(0));
  if (axis < -rank || axis >= rank) {
    return TypeInferenceError("Invalid value of attribute 'axis'. Rank=", rank, " Value=", axis);
  }
  return static_cast<size_t>(axis < 0 ? axis + rank : axis);
}

// The given split, checked against the outputs and the dim; nullopt where its value is not known.
absl::StatusOr<std::optional<std::vector<int64_t>>> GivenSplit(const OperandInfo& split,
                                                               int num_outputs, int64_t dim) {
  std::optional<std::vector<int64_t>> sizes = KnownInt64Elements(split);
  if (!sizes.has_value()) return sizes;
  if (sizes->size() != static_cast<size_t>(num_outputs)) {
    return ShapeInferenceError("Mismatch between number of splits (", sizes->size(),
                               ") and outputs (", num_outputs, ")");
  }
  int64_t total = 0;
  bool overflow = false;
  for (int64_t size : *sizes) overflow = overflow || __builtin_add_overflow(total, size, &total);
  if (overflow || total != dim) {
    return ShapeInferenceError("Mismatch between the sum of 'split' (", total,
                               ") and the split dimension of the input (", dim, ")");
  }
  return sizes;
}

// Split-18's parts for num_outputs: equal ones, or ones of dim / n + 1 and a smaller last one.
absl::StatusOr<std::vector<int64_t>> PartsOfCount(int64_t dim, int64_t count) {
  if (count < 1) return ShapeInferenceError("Attribute `num_outputs` value cannot be lower than 1");
  if (dim % count == 0) return std::vector<int64_t>(static_cast<size_t>(count), dim / count);
  const int64_t chunk = dim / count + 1;
  std::vector<int64_t> sizes(static_cast<size_t>(count - 1), chunk);
  sizes.push_back(dim - chunk * (count - 1));
  return sizes;
}

absl::StatusOr<OutputTypes> InferSplit(absl::Span<const OperandInfo> inputs,
                                       absl::Span<const Attribute> attributes, int num_outputs,
                                       bool counts_parts) {
  if (!inputs[0].shape.has_value()) return Parts(inputs[0], num_outputs, std::nullopt);
  const Shape& shape = *inputs[0].shape;
  absl::StatusOr<size_t> axis = SplitAxis(shape, attributes);
  if (!axis.ok()) return axis.status();
  const int64_t dim = shape[*axis];
  if (dim == kUnknownDim) return Parts(inputs[0], num_outputs, shape);
  const std::optional<int64_t> count =
      counts_parts ? IntAttribute(attributes, "num_outputs") : std::nullopt;
  if (SplitGiven(inputs) && count.has_value()) {
    return ShapeInferenceError("Both 'split' input and 'num_outputs' attribute were given");
  }
  std::vector<int64_t> sizes;
  if (SplitGiven(inputs)) {
    absl::StatusOr<std::optional<std::vector<int64_t>>> given =
        GivenSplit(inputs[kSplit], num_outputs, dim);
    if (!given.ok()) return given.status();
    if (!given->has_value()) return Parts(inputs[0], num_outputs, std::nullopt);
    sizes = **std::move(given);
  } else if (counts_parts) {
    if (!count.has_value()) {
      return ShapeInferenceError(
          "Neither 'split' input nor 'num_outputs' attribute has been given");
    }
    absl::StatusOr<std::vector<int64_t>> parts = PartsOfCount(dim, *count);
    if (!parts.ok()) return parts.status();
    sizes = *std::move(parts);
  } else {
    if (dim % num_outputs != 0) return ShapeInferenceError("The input is not evenly splittable");
    sizes.assign(static_cast<size_t>(num_outputs), dim / num_outputs);
  }
  OutputTypes types = Parts(inputs[0], num_outputs, shape);
  for (size_t i = 0; i < types.size(); ++i) {
    (*types[i].shape)[*axis] = sizes[i] < 0 ? kUnknownDim : sizes[i];
  }
  return types;
}

}  // namespace

absl::StatusOr<OutputTypes> InferSplit13(absl::Span<const OperandInfo> inputs,
                                         absl::Span<const Attribute> attributes, int num_outputs) {
  return InferSplit(inputs, attributes, num_outputs, /*counts_parts=*/false);
}

absl::StatusOr<OutputTypes> InferSplit18(absl::Span<const OperandInfo> inputs,
                                         absl::Span<const Attribute> attributes, int num_outputs) {
  return InferSplit(inputs, attributes, num_outputs, /*counts_parts=*/true);
}

}  // namespace graphgc::internal
