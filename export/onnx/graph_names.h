// The names an ONNX graph reads across scopes: a node's bodies (If, Loop, Scan graphs), the names
// a graph reads without defining them (what its bodies take from the enclosing graphs), and what a
// node reads in all. Shared by the importer (graph_inliner.h) and the fusions (fusions.h).
// Plain functions over protos; nesting depth is bounded by protobuf's parse recursion limit.
#ifndef GRAPHGC_GRAPH_NAMES_H_
#define GRAPHGC_GRAPH_NAMES_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

using NameSet = absl::flat_hash_set<std::string>;

// The bodies a node carries (GRAPH and GRAPHS attributes).
std::vector<const onnx::GraphProto*> BodiesOf(const onnx::NodeProto& node);

// The names a graph reads but does not define: what it takes from the enclosing scopes.
NameSet FreeNames(const onnx::GraphProto& graph);

// What a node reads: its inputs, and the names its bodies take from outside them.
std::vector<std::string> ReadNames(const onnx::NodeProto& node);

}  // namespace graphgc::internal

#endif  // GRAPHGC_GRAPH_NAMES_H_
