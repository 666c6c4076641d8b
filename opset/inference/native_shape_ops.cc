// Native inference of the shape-computation ops: Shape (15 to 24), Gather (13), Concat (13), Cast
// (13 to 24) and Expand (13) — the rules of ONNX 1.19's inference and data propagation functions
// for them, step for step (int attributes read as `int` where ONNX reads them so, errors where
// ONNX throws; data propagation that throws leaves no data, as InferWithSchema treats it).
// Two places give less data than ONNX, because complete int64 data becomes a value
// (KeepShapeData) and ONNX's would be wrong there: Gather at an index past int (ONNX truncates it)
// and Cast of an element the cast changes (ONNX passes it through unchanged).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"
#include "graphgc/opset/inference/shape_data.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/status_macros.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {
namespace {

// ONNX's axisIsZero: whether data propagation applies (a data tensor's axis 0); nullopt where
// ONNX throws (a missing axis without a default, one outside the rank).
std::optional<bool> AxisIsZero(absl::Span<const OperandInfo> inputs,
                               absl::Span<const Attribute> attributes, bool default_zero) {
  const std::optional<int64_t> attribute = IntAttribute(attributes, "axis");
  if (!attribute.has_value()) {
    if (default_zero) return true;
    return std::nullopt;
  }
  int axis = static_cast<int>(*attribute);
  if (axis >= 0) return axis == 0;
  if (!inputs[0].shape.has_value()) return false;
  const int rank = static_cast<int>(inputs[0].shape->size());
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis + rank == 0;
}

// Start and end of Shape's slice of a rank, clamped as ONNX clamps them.
std::pair<int64_t, int64_t> ShapeSlice(int64_t rank, absl::Span<const Attribute> attributes) {
  const auto clamp = [rank](int64_t at) {
    if (at < 0) at += rank;
    return at < 0 ? 0 : at > rank ? rank : at;
  };
  return {clamp(IntAttribute(attributes, "start").value_or(0)),
          clamp(IntAttribute(attributes, "end").value_or(rank))};
}

std::optional<Shape> GatherData(absl::Span<const OperandInfo> inputs,
                                absl::Span<const Attribute> attributes) {
  if (AxisIsZero(inputs, attributes, /*default_zero=*/true) != true) return std::nullopt;
  const std::optional<ShapeData> data = ShapeDataOfOperand(inputs[0]);
  if (!data.has_value()) return std::nullopt;
  const std::optional<ShapeData> indices = ShapeDataOfOperand(inputs[1]);
  if (!indices.has_value()) return std::nullopt;
  const int size = static_cast<int>(data->elements.size());
  Shape gathered;
  for (size_t i = 0; i < indices->elements.size(); ++i) {
    if (!indices->known(i)) return std::nullopt;
    // ONNX takes the index as an int: one past its range would gather another element, so
    // graphgc gives no data there (KeepShapeData would make a value of it).
    const int64_t wide_index = indices->elements[i];
    if (wide_index != static_cast<int>(wide_index)) return std::nullopt;
    int index = static_cast<int>(wide_index);
    if (index >= size || index < -size) return std::nullopt;
    if (index < 0) index += size;
    gathered.push_back(data->known(index) ? data->elements[index] : Arena::kUnknownElement);
  }
  if (gathered.empty()) return std::nullopt;
  return gathered;
}

absl::StatusOr<std::optional<Shape>> GatherShape(absl::Span<const OperandInfo> inputs,
                                                 absl::Span<const Attribute> attributes) {
  if (!inputs[0].shape.has_value() || !inputs[1].shape.has_value()) return std::nullopt;
  const Shape& data = *inputs[0].shape;
  const Shape& indices = *inputs[1].shape;
  const int r = static_cast<int>(data.size());
  if (r < 1) return ShapeInferenceError("data tensor must have rank >= 1");
  const int q = static_cast<int>(indices.size());
  int axis = static_cast<int>(IntAttribute(attributes, "axis").value_or(0));
  if (axis < -r || axis >= r) return ShapeInferenceError("axis must be in [-r, r-1]");
  if (axis < 0) axis += r;
  Shape out;
  for (int i = 0; i < q + r - 1; ++i) {
    out.push_back(i < axis ? data[i] : i < axis + q ? indices[i - axis] : data[i - q + 1]);
  }
  return std::optional<Shape>(std::move(out));
}

std::optional<Shape> ConcatData(absl::Span<const OperandInfo> inputs,
                                absl::Span<const Attribute> attributes) {
  if (AxisIsZero(inputs, attributes, /*default_zero=*/false) != true) return std::nullopt;
  Shape joined;
  for (const OperandInfo& input : inputs) {
    const std::optional<ShapeData> data = ShapeDataOfOperand(input);
    if (!data.has_value()) return std::nullopt;
    for (size_t i = 0; i < data->elements.size(); ++i) {
      joined.push_back(data->known(i) ? data->elements[i] : Arena::kUnknownElement);
    }
  }
  if (joined.empty()) return std::nullopt;
  return joined;
}

// ONNX's mergeInDimensionInfo of a source dim into a target dim (values only: names are
// carried separately).
absl::Status MergeDim(int64_t source, int64_t& target, int index) {
  if (source == kUnknownDim) return absl::OkStatus();
  if (target == kUnknownDim) {
    target = source;
    return absl::OkStatus();
  }
  if (target == source) return absl::OkStatus();
  return ShapeInferenceError(
      "Can't merge shape info. Both inferred and declared dimension have values but they differ. "
      "Inferred=",
      source, " Declared=", target, " Dimension=", index);
}

absl::StatusOr<std::optional<Shape>> ConcatShape(absl::Span<const OperandInfo> inputs,
                                                 absl::Span<const Attribute> attributes) {
  for (const OperandInfo& input : inputs) {
    if (!input.shape.has_value()) return std::nullopt;
  }
  const int rank = static_cast<int>(inputs[0].shape->size());
  const std::optional<int64_t> attribute = IntAttribute(attributes, "axis");
  if (!attribute.has_value()) return ShapeInferenceError("Required attribute axis is missing");
  int axis = static_cast<int>(*attribute);
  if (axis < -rank || axis >= rank) return ShapeInferenceError("axis must be in [-rank, rank-1].");
  if (axis < 0) axis += rank;
  if (inputs.size() == 1) return inputs[0].shape;
  Shape out(rank, kUnknownDim);
  bool all_lengths_known = true;
  int64_t total_length = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Shape& shape = *inputs[i].shape;
    if (static_cast<int>(shape.size()) != rank) {
      return ShapeInferenceError("All inputs to Concat must have same rank. Input ", i,
                                 " has rank ", shape.size(), " != ", rank);
    }
    for (int j = 0; j < rank; ++j) {
      if (j != axis) {
        if (absl::Status merged = MergeDim(shape[j], out[j], j); !merged.ok()) return merged;
      } else if (shape[j] == kUnknownDim) {
        all_lengths_known = false;
      } else if (__builtin_add_overflow(total_length, shape[j], &total_length)) {
        return ShapeInferenceError("Integer overflow computing Concat output length");
      }
    }
  }
  if (all_lengths_known) out[axis] = total_length;
  return std::optional<Shape>(std::move(out));
}

// ONNX's getShapeInput for a shape input: its value's entries (all known, as ONNX takes them),
// else its shape data (unknown elements unknown), else as many unknown entries as its one known
// dim; nullopt where none of these is there. `known` tells the entries with a value apart,
// because ONNX treats a -1 there as a dim of -1, not as an unknown one.
struct ShapeInput {
  Shape entries;
  std::vector<bool> known;
};

absl::StatusOr<std::optional<ShapeInput>> ShapeInputOf(const OperandInfo& input) {
  ShapeInput shape;
  if (std::optional<std::vector<int64_t>> values = KnownInt64Elements(input)) {
    shape.entries.assign(values->begin(), values->end());
    shape.known.assign(values->size(), true);
    return std::optional<ShapeInput>(std::move(shape));
  }
  if (!input.value.has_value() && input.shape_data.has_value()) {
    for (int64_t element : *input.shape_data) {
      const bool known = element != Arena::kUnknownElement;
      shape.entries.push_back(known ? element : kUnknownDim);
      shape.known.push_back(known);
    }
    return std::optional<ShapeInput>(std::move(shape));
  }
  if (!input.shape.has_value()) return std::optional<ShapeInput>();
  if (input.shape->size() != 1) return ShapeInferenceError("shape input must be 1D tensor");
  const int64_t length = (*input.shape)[0];
  if (length < 0) return std::optional<ShapeInput>();
  shape.entries.assign(static_cast<size_t>(length), kUnknownDim);
  shape.known.assign(static_cast<size_t>(length), false);
  return std::optional<ShapeInput>(std::move(shape));
}

// ONNX's multidirectionalBroadcastShapeInference of a tensor's shape (unknown dims: -1) and a
// shape input, dim by dim: a known dim other than 1 wins (two different ones fail), else an
// unknown one makes the dim unknown (none of them has a name here: names are carried apart).
absl::StatusOr<Shape> BroadcastWithShapeInput(const Shape& shape, const ShapeInput& target) {
  const size_t rank = std::max(shape.size(), target.entries.size());
  Shape out;
  for (size_t i = 0; i < rank; ++i) {
    int64_t dim_value = 1;
    bool unknown = false;
    const auto combine = [&](int64_t dim, bool known) -> absl::Status {
      if (!known) {
        unknown = true;
      } else if (dim != 1) {
        if (dim_value != dim && dim_value != 1) {
          return ShapeInferenceError("Incompatible dimensions");
        }
        dim_value = dim;
      }
      return absl::OkStatus();
    };
    if (i >= rank - shape.size()) {
      const int64_t dim = shape[i - (rank - shape.size())];
      GRAPHGC_RETURN_IF_ERROR(combine(dim, dim != kUnknownDim));
    }
    if (i >= rank - target.entries.size()) {
      const size_t j = i - (rank - target.entries.size());
      GRAPHGC_RETURN_IF_ERROR(combine(target.entries[j], target.known[j]));
    }
    // A negative dim ONNX gives (an entry of -2) reads back as an unknown one, as every dim
    // graphgc takes from ONNX's output does.
    const bool known = (dim_value != 1 || !unknown) && dim_value >= 0;
    out.push_back(known ? dim_value : kUnknownDim);
  }
  return out;
}

// Cast's data: ONNX passes it through whatever `to` is. graphgc passes it only where every known
// element is its own cast, so that data never stands for a value the cast does not give (a dim
// past int32 cast to int32 wraps; a complete int64 result of it would become a wrong value).
std::optional<Shape> CastData(const OperandInfo& input, DataType to) {
  std::optional<ShapeData> data = ShapeDataOfOperand(input);
  if (!data.has_value()) return std::nullopt;
  if (!ElementsHold(to, data->elements)) return std::nullopt;
  return std::move(data->elements);
}

}  // namespace

absl::StatusOr<OutputTypes> InferCast13(absl::Span<const OperandInfo> inputs,
                                        absl::Span<const Attribute> attributes, int num_outputs) {
  // `to` is there and an int (CheckAttributes); ONNX takes it as its enum, an int.
  const auto to = static_cast<int32_t>(IntAttribute(attributes, "to").value_or(0));
  if (!onnx::TensorProto_DataType_IsValid(to)) {
    return TypeInferenceError("Attribute to does not specify a valid type in Cast.");
  }
  if (to == 0 || !IsSupportedDataType(to)) return DeclineNativeRule();
  const auto dtype = static_cast<DataType>(to);
  return OneOutput(dtype, inputs[0].shape, CastData(inputs[0], dtype));
}

absl::StatusOr<OutputTypes> InferExpand13(absl::Span<const OperandInfo> inputs,
                                          absl::Span<const Attribute> attributes, int num_outputs) {
  if (!inputs[0].shape.has_value() || !inputs[1].shape.has_value()) {
    return OneOutput(inputs[0].dtype, std::nullopt, std::nullopt);
  }
  absl::StatusOr<std::optional<ShapeInput>> target = ShapeInputOf(inputs[1]);
  if (!target.ok()) return target.status();
  if (!target->has_value()) return OneOutput(inputs[0].dtype, std::nullopt, std::nullopt);
  absl::StatusOr<Shape> out = BroadcastWithShapeInput(*inputs[0].shape, **target);
  if (!out.ok()) return out.status();
  return OneOutput(inputs[0].dtype, *std::move(out), std::nullopt);
}

absl::StatusOr<OutputTypes> InferShape15(absl::Span<const OperandInfo> inputs,
                                         absl::Span<const Attribute> attributes, int num_outputs) {
  if (!inputs[0].shape.has_value())
    return OneOutput(DataType::kInt64, Shape{kUnknownDim}, std::nullopt);
  const Shape& dims = *inputs[0].shape;
  const auto [start, end] = ShapeSlice(static_cast<int64_t>(dims.size()), attributes);
  Shape data;
  for (int64_t d = start; d < end; ++d) {
    data.push_back(dims[d] == kUnknownDim ? Arena::kUnknownElement : dims[d]);
  }
  return OneOutput(DataType::kInt64, Shape{end - start < 0 ? 0 : end - start}, std::move(data));
}

absl::StatusOr<OutputTypes> InferGather13(absl::Span<const OperandInfo> inputs,
                                          absl::Span<const Attribute> attributes, int num_outputs) {
  absl::StatusOr<std::optional<Shape>> shape = GatherShape(inputs, attributes);
  if (!shape.ok()) return shape.status();
  return OneOutput(inputs[0].dtype, *std::move(shape), GatherData(inputs, attributes));
}

absl::StatusOr<OutputTypes> InferConcat13(absl::Span<const OperandInfo> inputs,
                                          absl::Span<const Attribute> attributes, int num_outputs) {
  absl::StatusOr<std::optional<Shape>> shape = ConcatShape(inputs, attributes);
  if (!shape.ok()) return shape.status();
  return OneOutput(inputs[0].dtype, *std::move(shape), ConcatData(inputs, attributes));
}

}  // namespace graphgc::internal
