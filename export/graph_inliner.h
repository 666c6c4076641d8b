// GraphInliner: builds the nodes of an ONNX GraphProto into a Graph with make_node — the main graph
// of a model (inline_model.h), or the body of an If, Loop or Scan, where it runs as a Subgraph
// function on the body's arguments and resolves the names the body does not define in the
// enclosing graphs (ONNX's outer-scope references).
//
// Checks before building: duplicate definitions, dangling names, cycles (nodes are built in a
// topological order that counts the names a node's bodies read from outside as its inputs).
// Internal to the export module; thread-compatible.
#ifndef GRAPHGC_GRAPH_INLINER_H_
#define GRAPHGC_GRAPH_INLINER_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// Domain ("" for ai.onnx) -> opset version the model imports.
using ImportedOpsets = std::map<std::string, int>;
// The Var an enclosing graph holds under a name, if any.
using OuterLookup = std::function<std::optional<Var>(const std::string& name)>;

class GraphInliner {
 public:
  GraphInliner(Graph& graph, const onnx::GraphProto& proto, ImportedOpsets opsets,
               OuterLookup outer = nullptr);

  // A main graph: its inputs bound by name to `given` (the rest become arguments of the graph),
  // its outputs returned by name.
  absl::StatusOr<std::map<std::string, Var>> RunMain(const std::map<std::string, Var>& given);
  // A body: its inputs bound in order to `arguments`, its outputs returned in order.
  absl::StatusOr<std::vector<Var>> RunBody(absl::Span<const Var> arguments);

 private:
  absl::Status Prepare();
  absl::Status BindInitializers();
  absl::Status BuildNodes();
  absl::Status BuildNode(const onnx::NodeProto& node);
  absl::StatusOr<std::vector<Attribute>> Attributes(const onnx::NodeProto& node);
  std::optional<Var> Lookup(const std::string& name) const;
  // A graph output's Var, or an error naming the undefined output.
  absl::StatusOr<Var> Output(const onnx::ValueInfoProto& output) const;

  Graph& graph_;
  const onnx::GraphProto& proto_;
  const ImportedOpsets opsets_;
  OuterLookup outer_;
  std::vector<int> order_;
  std::vector<Tensor> initializers_;
  absl::flat_hash_map<std::string, Var> vars_;
};

// A Subgraph that builds `body` (which must outlive the Subgraph's use) with a GraphInliner.
Subgraph SubgraphFromGraphProto(Graph& graph, const onnx::GraphProto& body, ImportedOpsets opsets,
                                OuterLookup outer);

}  // namespace graphgc::internal

#endif  // GRAPHGC_GRAPH_INLINER_H_
