// Opaque nodes: a node graphgc knows nothing about — an op of a domain it does not know, or a call
// of a model-local function — kept as it is, so that importing a model loses nothing.
//
//   std::vector<Var> outs = graphgc::make_opaque_node(graph, "Gelu", {x}, {},
//       {.domain = "com.microsoft", .version = 1, .output_types = {x.type()}});
//
// Its outputs have the types the caller gives (an unknown one, nullopt, is an undefined element
// type of unknown shape) and never get values; its inputs and attributes are not checked against
// any schema. Export writes it back as it came, with its domain declared at `version`.
// Errors (failed Vars, graph unchanged): a reserved domain ("" / ai.onnx / ai.onnx.ml), an empty
// op type, a version below 1, no outputs, a graph attribute (bodies need a schema to be built),
// an operand of another graph. Threading: as `graph`.
#ifndef GRAPHGC_OPAQUE_NODE_H_
#define GRAPHGC_OPAQUE_NODE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/valuestore/value.h"

namespace graphgc {

struct OpaqueNodeOptions {
  std::string domain;
  int version = 1;  // the domain's opset version the model imports
  // One per output; the number of outputs.
  std::vector<std::optional<VarType>> output_types;
};

std::vector<Var> make_opaque_node(Graph& graph, absl::string_view op_type,
                                  absl::Span<const Var> inputs,
                                  const std::vector<Attribute>& attributes,
                                  const OpaqueNodeOptions& options);

namespace internal {
// The same without the domain check, for the importer: an ai.onnx op whose input came untyped
// out of an opaque node cannot be typed either, and is kept as it came.
std::vector<Var> MakeOpaqueNode(Graph& graph, absl::string_view op_type,
                                absl::Span<const Var> inputs,
                                const std::vector<Attribute>& attributes,
                                const OpaqueNodeOptions& options);
// MakeOpaqueNode whose outputs take `values` (one per output, nullopt for none) when every input
// has a value, as a call of a model's function takes what its body computed. Each value must fit
// its output's type (an error otherwise); the value budgets apply as to any op.
std::vector<Var> MakeOpaqueNodeWithValues(Graph& graph, absl::string_view op_type,
                                          absl::Span<const Var> inputs,
                                          const std::vector<Attribute>& attributes,
                                          const OpaqueNodeOptions& options,
                                          std::vector<std::optional<Value>> values);
}  // namespace internal

}  // namespace graphgc

#endif  // GRAPHGC_OPAQUE_NODE_H_
