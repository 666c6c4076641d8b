// make_node: the generic op constructor beneath the typed ones — any operator by name, at run time.
//
//   std::vector<Var> outs = graphgc::make_node("TopK", {x, k}, {{"axis", int64_t{-1}}});
//
// The operator is looked up in ONNX's schema registry (ai.onnx up to opset 24, ai.onnx.ml up to 5)
// or among the custom operators registered with register_op (custom_op.h). The call checks the
// inputs against the schema (count, optional inputs, element-type constraints), the attributes
// (known names, types, required ones), then infers every output's element type and shape with the
// schema's own inference function, appends one node, and propagates values where a kernel exists.
//
// Inputs: one Var per formal input in schema order; an empty Var (Var{}) in an optional position
// means "omitted"; a variadic last input takes as many Vars as given. Outputs: one Var per output,
// `options.num_outputs` of them (default: the schema's required outputs, or one per variadic
// output as the schema's inference allows). On any error every returned Var is failed with the
// same status, naming the op; the graph is unchanged.
// Threading: as the operands' Graph.
#ifndef GRAPHGC_NODE_H_
#define GRAPHGC_NODE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"

namespace graphgc {

struct NodeOptions {
  std::string domain = "";  // "" (ai.onnx), "ai.onnx.ml", or a registered custom domain
  int version = 0;          // the opset version to resolve the schema at; 0: the newest supported
  int num_outputs = -1;     // -1: the schema's number of required outputs (at least one)
  // Only in the body of a function being defined (define_function): the node's attributes that
  // take the function's attributes, as {node's attribute, function's attribute}. The attribute
  // itself is still given, with the value the body is traced with; the export writes the
  // reference (ONNX's ref_attr_name) instead of the value.
  std::vector<std::pair<std::string, std::string>> attribute_refs = {};
};

std::vector<Var> make_node(absl::string_view op_type, absl::Span<const Var> inputs,
                           const std::vector<Attribute>& attributes = {},
                           const NodeOptions& options = {});

// The same for an op that may have no inputs (RandomNormal, Constant, ...): its node goes into
// `graph`. Inputs, if any, must belong to `graph`.
std::vector<Var> make_node(Graph& graph, absl::string_view op_type, absl::Span<const Var> inputs,
                           const std::vector<Attribute>& attributes = {},
                           const NodeOptions& options = {});

// Whether the operator computes values (has a kernel) at `options.version` (0: the newest) of
// `options.domain`. Without one, its outputs are typed but never get values.
bool has_kernel(absl::string_view op_type, const NodeOptions& options = {});
// Whether it computes values for element type `dtype` of its primary type parameter (the one its
// kernel declares first — "T" of Add, the input "T1" of Cast —, else its first input's): what the
// kernel declares it computes, among what the op's schema admits at that version. A function op
// without a kernel of its own answers for what its schema admits (its body's kernels compute);
// If, Loop, Scan and SequenceMap for every type (they compute what their bodies compute).
bool has_kernel(absl::string_view op_type, const NodeOptions& options, DataType dtype);

// The newest opset version this library supports for a domain (24 for ai.onnx, 5 for
// ai.onnx.ml; a custom domain's registered version), or 0 for an unknown domain.
int SupportedOpsetVersion(absl::string_view domain);

}  // namespace graphgc

#endif  // GRAPHGC_NODE_H_
