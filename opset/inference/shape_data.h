// Shape data: what ONNX's data propagation knows of the elements of a small integer tensor (a
// shape computation: Shape's output, what Gather, Concat and Slice make of it), one int64 per
// element, Arena::kUnknownElement where unknown. Both inference paths read an operand's data
// through this one rule: the schema path (ONNX's propagation functions, as TensorShapeProtos) and
// the native one (native_inference.h). Internal to the opset module.
#ifndef GRAPHGC_OPSET_INFERENCE_SHAPE_DATA_H_
#define GRAPHGC_OPSET_INFERENCE_SHAPE_DATA_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/types/span.h"
#include "graphgc/ir/arena.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {

// Larger known values are not propagated as data (their vars count as having none).
inline constexpr int64_t kMaxShapeDataElements = 64;

// Values handed to inference functions (Reshape's shape, Slice's starts, Unsqueeze's axes) are
// small; a larger tensor is not handed over, its var then counts as having no known data.
inline constexpr int64_t kMaxInferenceDataElements = int64_t{1} << 16;

struct ShapeData {
  Shape elements;
  // From a value: every element is known, Arena::kUnknownElement (INT64_MIN) included.
  bool from_value = false;

  bool known(size_t index) const { return from_value || elements[index] != Arena::kUnknownElement; }
};

// The operand's data: its value when that is an int64 or int32 tensor of rank 0 or 1 and at most
// kMaxShapeDataElements elements, else its partly known shape data, else nullopt.
std::optional<ShapeData> ShapeDataOfOperand(const OperandInfo& operand);

// Whether a tensor of `dtype` holds `element` exactly: within an integer type's range, among the
// integers a float type holds exactly (never for bool's other values, strings, or the floats of 8
// bits or less). Data is the op's value only where its own element type holds every known element:
// ONNX's propagation computes in int64 whatever the type (an int32 Add past int32 does not wrap
// there) and passes Cast's data through unchanged.
bool ElementHolds(DataType dtype, int64_t element);
// The same for every known element (Arena::kUnknownElement: unknown) of `elements`.
bool ElementsHold(DataType dtype, absl::Span<const int64_t> elements);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_INFERENCE_SHAPE_DATA_H_
