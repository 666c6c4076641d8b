// Native inference of If (16 to 24): ONNX 1.19's IfInferenceFunction, read from the types the
// branches were built with. Each output is the union of the branches' results (UnionTypeInfo):
// the element types must agree; a rank the two do not share is unknown, and so is each dim they
// do not share. Results that are not tensors (sequences, optionals) are left to ONNX's function,
// whose merge RefineIfOutputs widens.
#include <optional>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"

namespace graphgc::internal {
namespace {

const BodyTypes* BodyNamed(absl::Span<const BodyTypes> bodies, absl::string_view attribute) {
  for (const BodyTypes& body : bodies) {
    if (body.attribute == attribute) return &body;
  }
  return nullptr;
}

std::optional<Shape> UnionOfShapes(const std::optional<Shape>& a, const std::optional<Shape>& b) {
  if (!a.has_value() || !b.has_value() || a->size() != b->size()) return std::nullopt;
  Shape shape = *a;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] != (*b)[d]) shape[d] = kUnknownDim;
  }
  return shape;
}

}  // namespace

absl::StatusOr<OutputTypes> InferIf16(absl::Span<const BodyTypes> bodies, int num_outputs) {
  const BodyTypes* then_branch = BodyNamed(bodies, "then_branch");
  const BodyTypes* else_branch = BodyNamed(bodies, "else_branch");
  if (then_branch == nullptr || else_branch == nullptr) return DeclineNativeRule();
  const auto& then_results = then_branch->results;
  const auto& else_results = else_branch->results;
  if (then_results.size() != else_results.size()) {
    return TypeInferenceError("then_branch and else_branch produce different number of outputs. ",
                              then_results.size(), " != ", else_results.size());
  }
  if (then_results.size() != static_cast<size_t>(num_outputs)) {
    return TypeInferenceError("If node has ", num_outputs, " but subgraphs produce ",
                              then_results.size());
  }
  OutputTypes types(then_results.size());
  for (size_t i = 0; i < types.size(); ++i) {
    const OutputType& then_result = then_results[i];
    const OutputType& else_result = else_results[i];
    if (then_result.non_tensor.has_value() || else_result.non_tensor.has_value()) {
      return DeclineNativeRule();
    }
    if (then_result.dtype != else_result.dtype) {
      return TypeInferenceError(
          "Mismatched tensor element type: inferred=", DataTypeName(else_result.dtype),
          " declared=", DataTypeName(then_result.dtype));
    }
    types[i].dtype = then_result.dtype;
    types[i].shape = UnionOfShapes(then_result.shape, else_result.shape);
  }
  return types;
}

}  // namespace graphgc::internal
