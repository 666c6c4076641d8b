// The few helpers the generated op constructors (onnx_schemas.cc, ml_ops.cc) share, so that each
// generated body is one call: make the node with the set fields of an attribute struct, and hand
// make_node's result back as the op declares its outputs. Internal to the opset module.
#ifndef GRAPHGC_GENERATED_SUPPORT_H_
#define GRAPHGC_GENERATED_SUPPORT_H_

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/optional_list.h"
#include "graphgc/ir/var.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/build/output_vars.h"

namespace graphgc::internal {

class GraphCore;

// make_node itself, into `graph` (nullptr: the operands' graph), without the vector.
OutputVars MakeNode(GraphCore* graph, absl::string_view op_type, absl::Span<const Var> inputs,
                    const std::vector<Attribute>& attributes, const NodeOptions& options);
// make_node(graph, ...) without the vector: a Graph that was moved from fails every output.
OutputVars MakeNodeIn(Graph& graph, absl::string_view op_type, absl::Span<const Var> inputs,
                      const std::vector<Attribute>& attributes, const NodeOptions& options);

inline void AppendAttributes(std::vector<Attribute>&) {}

// Appends {name, *value} to `attributes` when `value` is set, for each `name, value` pair. An unset
// field is left out, so the schema's default applies (or make_node reports a required attribute as
// missing). A field is a std::optional<T> or an OptionalList<T>, where T is one of the types an
// attribute holds (int64_t, float, std::string, Tensor, vectors of those, Subgraph, VarType):
// exactly the alternatives of AttributeValue.
template <class Field, class... Rest>
void AppendAttributes(std::vector<Attribute>& attributes, const char* name, const Field& value,
                      const Rest&... rest) {
  if (value.has_value()) attributes.push_back(Attribute{name, AttributeValue(*value)});
  AppendAttributes(attributes, rest...);
}

// make_node's outputs as a generated op returns them: `Result` is Var (the first output; an empty
// Var if there is none), std::vector<Var>, or an op's output struct of `count` Vars, one per field
// in order, where the optional outputs the caller did not request stay empty.
template <class Result, size_t count>
Result OutputsAs(OutputVars outputs) {
  if constexpr (std::is_same_v<Result, std::vector<Var>>) {
    return ToVector(std::move(outputs));
  } else if constexpr (std::is_same_v<Result, Var>) {
    return outputs.empty() ? Var() : std::move(outputs.front());
  } else {
    outputs.resize(std::max(outputs.size(), count));
    return [&]<size_t... i>(std::index_sequence<i...>) { return Result{std::move(outputs[i])...}; }
    (std::make_index_sequence<count>());
  }
}

// make_node(op_type, inputs, attributes, options) for a generated op, the attributes given as
// `name, value` pairs of an attribute struct's fields and the outputs returned as `Result` (see
// OutputsAs): Node<Var>("ArgMax", {data}, {"", opset, 1}, "axis", attributes.axis).
template <class Result, size_t count = 1, class... Fields>
Result Node(absl::string_view op_type, absl::Span<const Var> inputs, const NodeOptions& options,
            const Fields&... fields) {
  std::vector<Attribute> attributes;
  AppendAttributes(attributes, fields...);
  return OutputsAs<Result, count>(MakeNode(nullptr, op_type, inputs, attributes, options));
}

// The same for an op without inputs, whose node goes into `graph`.
template <class Result, size_t count = 1, class... Fields>
Result Node(Graph& graph, absl::string_view op_type, absl::Span<const Var> inputs,
            const NodeOptions& options, const Fields&... fields) {
  std::vector<Attribute> attributes;
  AppendAttributes(attributes, fields...);
  return OutputsAs<Result, count>(MakeNodeIn(graph, op_type, inputs, attributes, options));
}

// The inputs of a node whose last formal input is variadic: the fixed ones, then the rest.
std::vector<Var> JoinInputs(std::initializer_list<Var> fixed, absl::Span<const Var> variadic);

}  // namespace graphgc::internal

#endif  // GRAPHGC_GENERATED_SUPPORT_H_
