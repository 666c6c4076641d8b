// Checking a node against its ONNX schema and inferring its outputs with the schema's own
// inference function, through an onnx::InferenceContext over graphgc's operands (no NodeProto).
// Internal to the opset module.
#ifndef GRAPHGC_SCHEMA_INFERENCE_H_
#define GRAPHGC_SCHEMA_INFERENCE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/opset/build/op_builder.h"
#include "onnx/defs/schema.h"

namespace graphgc::internal {

// The types of a built body (If's branches, Loop's and Scan's body), for the schema's inference
// function, which reads them through onnx::GraphInferencer.
struct BodyTypes {
  std::string attribute;
  std::vector<OutputType> arguments;
  std::vector<OutputType> results;
};

// Attribute names, types and required ones against the schema (InferWithSchema checks them too).
absl::Status CheckAttributes(const onnx::OpSchema& schema, absl::Span<const Attribute> attributes);
// Its errors, for checks of attributes given in another form (AttributeProtos).
absl::Status AttributeTypeError(absl::string_view name,
                                onnx::AttributeProto::AttributeType expected,
                                onnx::AttributeProto::AttributeType given);
absl::Status MissingAttributeError(absl::string_view name);
// The input count against the schema's range, each input's type against its type constraint, no
// required input omitted (InferWithSchema's first check).
absl::Status CheckInputsForSchema(const onnx::OpSchema& schema,
                                  absl::Span<const OperandInfo> inputs);
// The output count against the schema's range.
absl::Status CheckOutputCount(const onnx::OpSchema& schema, int num_outputs);

// Errors name the input or attribute and the types: an input count outside the schema's range, an
// omitted required input, an element type outside a type constraint (or two inputs bound to one
// constraint with different types), an unknown, mistyped, repeated or missing required attribute,
// an output count outside the schema's range, an inference error, an output that is not a tensor.
absl::StatusOr<OutputTypes> InferWithSchema(const onnx::OpSchema& schema,
                                            absl::Span<const OperandInfo> inputs,
                                            absl::Span<const Attribute> attributes, int num_outputs,
                                            absl::Span<const BodyTypes> bodies = {});

// The names of one tensor's symbolic dims and, for a shape computation (Shape's output, what
// Gather and Concat make of it), of its unknown elements: ONNX's dim_params. One name per dim
// (element), "" for one without; empty when none is named.
struct SymbolicNames {
  std::vector<std::string> dims;
  std::vector<std::string> elements;
};

// The outputs' names as the schema's inference and data propagation derive them from the
// inputs' (`input_names[i]` for input i). One entry per output; all empty where the call would
// fail InferWithSchema, inference throws, or the op has a body (If, Loop, Scan: not asked). The
// caller has inferred the node already.
std::vector<SymbolicNames> InferSymbolicNames(const onnx::OpSchema& schema,
                                              absl::Span<const OperandInfo> inputs,
                                              absl::Span<const SymbolicNames> input_names,
                                              absl::Span<const Attribute> attributes,
                                              int num_outputs);

}  // namespace graphgc::internal

#endif  // GRAPHGC_SCHEMA_INFERENCE_H_
