// What the native inference rules (native_*_ops.cc) share: reading an int attribute, ONNX's
// error text, one output's type. Internal to opset/inference.
#ifndef GRAPHGC_OPSET_INFERENCE_NATIVE_RULE_SUPPORT_H_
#define GRAPHGC_OPSET_INFERENCE_NATIVE_RULE_SUPPORT_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/build/op_builder.h"

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

// What ONNX's fail_shape_inference throws.
template <class... Parts>
absl::Status ShapeInferenceError(const Parts&... parts) {
  return absl::InvalidArgumentError(absl::StrCat("[ShapeInferenceError] ", parts...));
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
