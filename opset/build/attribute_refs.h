// References of a function body's node attributes to the function's own attributes (ONNX's
// ref_attr_name), while a function is traced from code: the node is built with the attribute's
// traced value, and the arena records which attributes the export writes as references instead.
// Shared by make_node (NodeOptions::attribute_refs) and graphgc::call (CallOptions). Internal to
// the library; thread-compatible, as the graph.
#ifndef GRAPHGC_OPSET_BUILD_ATTRIBUTE_REFS_H_
#define GRAPHGC_OPSET_BUILD_ATTRIBUTE_REFS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/var.h"

namespace graphgc::internal {

// {node's attribute, function's attribute} pairs.
using AttributeRefs = std::vector<std::pair<std::string, std::string>>;

// Every reference names an attribute the node is given (with its traced value) and a function
// attribute; otherwise an InvalidArgument naming `op_type`.
absl::Status CheckAttributeRefs(absl::string_view op_type, const std::vector<Attribute>& attributes,
                                const AttributeRefs& refs);

// Records `refs` for the node that produced `output` (a Var of a live graph), for the export.
void RecordAttributeRefs(const Var& output, const AttributeRefs& refs);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_BUILD_ATTRIBUTE_REFS_H_
