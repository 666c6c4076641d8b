// Native inference of Transpose (13 to 24) and Flatten (11 to 24): ONNX 1.19's rules. Transpose's
// output dims are the input's in `perm`'s order (reversed without `perm`); a `perm` shorter than
// the rank gives that many dims, as ONNX's function does. Flatten multiplies the dims before and
// from `axis` as ONNX's Dimension product does (an unknown dim makes the product unknown). No shape
// data: ONNX propagates none through either.
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_join.h"
#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"

namespace graphgc::internal {
namespace {

// ONNX's check of `perm`: every entry a dim of the input, none repeated.
absl::Status CheckPermutation(const std::vector<int64_t>& perm, const Shape& shape) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> seen(shape.size(), false);
  for (int64_t from : perm) {
    if (from < 0 || from >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("[TypeInferenceError] Invalid attribute perm {", absl::StrJoin(perm, ", "),
                       "}, input shape = {", absl::StrJoin(shape, ", "), "}"));
    }
    if (seen[static_cast<size_t>(from)]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "[TypeInferenceError] Attribute perm for Transpose has repeated value: ", from));
    }
    seen[static_cast<size_t>(from)] = true;
  }
  return absl::OkStatus();
}

// ONNX's multiplyDims: the product of dims [from, to), unknown once a dim is, wrapping as
// ONNX's int64 product does in practice.
int64_t MultiplyDims(const Shape& shape, size_t from, size_t to) {
  uint64_t product = 1;
  for (size_t i = from; i < to; ++i) {
    if (shape[i] < 0) return kUnknownDim;
    product *= static_cast<uint64_t>(shape[i]);
  }
  return static_cast<int64_t>(product);
}

}  // namespace

absl::StatusOr<OutputTypes> InferFlatten11(absl::Span<const OperandInfo> inputs,
                                           absl::Span<const Attribute> attributes,
                                           int num_outputs) {
  if (!inputs[0].shape.has_value()) return OneOutput(inputs[0].dtype, std::nullopt, std::nullopt);
  const Shape& in = *inputs[0].shape;
  const int rank = static_cast<int>(in.size());
  // ONNX reads the attribute into an int.
  int axis = static_cast<int>(IntAttribute(attributes, "axis").value_or(1));
  if (axis < 0) axis += rank;
  if (axis > rank || axis < 0) {
    return ShapeInferenceError("Invalid value(", axis, ") for attribute 'axis'");
  }
  const size_t split = static_cast<size_t>(axis);
  return OneOutput(inputs[0].dtype,
                   Shape{MultiplyDims(in, 0, split), MultiplyDims(in, split, in.size())},
                   std::nullopt);
}

absl::StatusOr<OutputTypes> InferTranspose13(absl::Span<const OperandInfo> inputs,
                                             absl::Span<const Attribute> attributes,
                                             int num_outputs) {
  if (!inputs[0].shape.has_value()) return OneOutput(inputs[0].dtype, std::nullopt, std::nullopt);
  const Shape& in = *inputs[0].shape;
  std::vector<int64_t> perm;
  if (const std::vector<int64_t>* given = IntsAttribute(attributes, "perm")) {
    perm = *given;
    if (absl::Status checked = CheckPermutation(perm, in); !checked.ok()) return checked;
  } else {
    for (size_t i = in.size(); i > 0; --i) perm.push_back(static_cast<int64_t>(i - 1));
  }
  Shape out;
  for (int64_t from : perm) out.push_back(in[static_cast<size_t>(from)]);
  return OneOutput(inputs[0].dtype, std::move(out), std::nullopt);
}

}  // namespace graphgc::internal
