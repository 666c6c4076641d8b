// What the native inference rules (native_*_ops.cc) share: reading attributes and known int64
// inputs as ONNX's functions read them, ONNX's error text, one output's type. Internal to
// opset/inference.
#ifndef GRAPHGC_OPSET_INFERENCE_NATIVE_RULE_SUPPORT_H_
#define GRAPHGC_OPSET_INFERENCE_NATIVE_RULE_SUPPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/inference/shape_data.h"

namespace graphgc::internal {

// An unknown dim in an OperandInfo's or OutputType's shape.
inline constexpr int64_t kUnknownDim = -1;

inline std::optional<int64_t> IntAttribute(absl::Span<const Attribute> attributes,
                                           absl::string_view name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name != name) continue;
    if (const int64_t* value = std::get_if<int64_t>(&attribute.value)) return *value;
  }
  return std::nullopt;
}

// The attribute `name` if it holds a T (nullptr if absent or of another type).
template <class T>
const T* AttributeOf(absl::Span<const Attribute> attributes, absl::string_view name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name == name) return std::get_if<T>(&attribute.value);
  }
  return nullptr;
}

inline const std::vector<int64_t>* IntsAttribute(absl::Span<const Attribute> attributes,
                                                 absl::string_view name) {
  return AttributeOf<std::vector<int64_t>>(attributes, name);
}

// An int64 input's elements where ONNX's getInputData hands them over (a known value of at most
// kMaxInferenceDataElements elements); nullopt where it gives none.
inline std::optional<std::vector<int64_t>> KnownInt64Elements(const OperandInfo& input) {
  if (!input.present || !input.value.has_value()) return std::nullopt;
  if (input.value->size() > kMaxInferenceDataElements) return std::nullopt;
  const auto elements = input.value->data<int64_t>();
  return std::vector<int64_t>(elements.begin(), elements.end());
}

// What ONNX's fail_shape_inference throws.
template <class... Parts>
absl::Status ShapeInferenceError(const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("[ShapeInferenceError] ", parts...));
}

// What ONNX's fail_type_inference throws.
template <class... Parts>
absl::Status TypeInferenceError(const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("[TypeInferenceError] ", parts...));
}

// ONNX's checkAxesRange then adjustNegativeAxes (Unsqueeze, Squeeze, Slice).
inline absl::Status CheckAndAdjustAxes(std::vector<int64_t>& axes, int rank) {
  for (int64_t axis : axes) {
    if (axis < -rank || axis > rank - 1) {
      return ShapeInferenceError("Unexpected axis value: ", axis, ". Expected range [", -rank, ", ",
                                 rank, ")");
    }
  }
  for (int64_t& axis : axes) axis = axis < 0 ? axis + rank : axis;
  return absl::OkStatus();
}

// A rule's answer for inputs it leaves to ONNX's own function (InferWithSchema then runs that):
// for the rare cases whose outcome depends on how graphgc reads ONNX's output back.
inline absl::Status DeclineNativeRule() {
  return absl::UnimplementedError("left to ONNX's inference function");
}

inline OutputTypes OneOutput(DataType dtype, std::optional<Shape> shape,
                             std::optional<Shape> data) {
  OutputTypes types(1);
  types[0].dtype = dtype;
  types[0].shape = std::move(shape);
  types[0].shape_data = std::move(data);
  return types;
}

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_INFERENCE_NATIVE_RULE_SUPPORT_H_
