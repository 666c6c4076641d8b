// The few helpers the generated op constructors (opset13.cc ... opset17.cc, onnx_ops.cc,
// ml_ops.cc) share, so that each generated function stays a handful of lines: turn the set fields
// of an attribute struct into Attributes, and make_node's result into the declared outputs.
// Internal to the opset module.
#ifndef GRAPHGC_GENERATED_SUPPORT_H_
#define GRAPHGC_GENERATED_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/ir/var.h"

namespace graphgc::internal {

// Appends {name, *value} to `attributes` when `value` is set. An unset field is left out, so the
// schema's default applies (or make_node reports a required attribute as missing).
// T is one of the types an attribute struct field holds (int64_t, float, std::string, Tensor,
// vectors of those, Subgraph, VarType): exactly the alternatives of AttributeValue.
template <class T>
void AppendAttribute(std::vector<Attribute>& attributes, const char* name,
                     const std::optional<T>& value) {
  if (value.has_value()) attributes.push_back(Attribute{name, AttributeValue(*value)});
}

// The inputs of a node whose last formal input is variadic: the fixed ones, then the rest.
std::vector<Var> JoinInputs(std::initializer_list<Var> fixed, absl::Span<const Var> variadic);

// Moves out the first of `outputs` (make_node always returns at least one; an empty Var if not).
Var SingleOutput(std::vector<Var>& outputs);

// Grows `outputs` to `count` with empty Vars: the optional outputs the caller did not request.
void PadOutputs(std::vector<Var>& outputs, size_t count);

}  // namespace graphgc::internal

#endif  // GRAPHGC_GENERATED_SUPPORT_H_
