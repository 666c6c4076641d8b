// GraphInliner: builds the nodes of an ONNX GraphProto into a Graph with make_node — the main graph
// of a model (inline_model.h), or the body of an If, Loop or Scan, where it runs as a Subgraph
// function on the body's arguments and resolves the names the body does not define in the
// enclosing graphs (ONNX's outer-scope references).
//
// An If whose untaken branch does not build for the given types (ONNX's own expansion of
// AffineGrid squeezes a 3-D grid's dim in the 2-D branch) but whose condition is known is built
// as the branch it takes, as ONNX Runtime runs only that branch.
//
// Checks before building: duplicate definitions, dangling names, cycles (nodes are built in a
// topological order that counts the names a node's bodies read from outside as its inputs).
// Internal to the export module; thread-compatible.
#ifndef GRAPHGC_GRAPH_INLINER_H_
#define GRAPHGC_GRAPH_INLINER_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/export/onnx/graph_names.h"
#include "graphgc/export/onnx/local_functions.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "graphgc/valuestore/tensor.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// Domain ("" for ai.onnx) -> opset version the model imports.
using ImportedOpsets = std::map<std::string, int>;

// How a model is imported, beyond what inline_model's callers choose; shared by the main graph and
// the bodies inside it (the fields marked "main graph" apply to the main graph only).
struct InlineHooks {
  // An op of a domain graphgc does not know, a call of a model's function whose body does not
  // build, and an op made untypeable by such an op's untyped output become opaque nodes
  // (opaque_node.h), typed from the graph's value_info; false makes them errors.
  bool opaque_unknown_ops = true;
  // The model's own functions (local_functions.h); null or empty when it has none. A call of one
  // is built through the function's body: as a call node typed and valued by the body, or, with
  // inline_functions, as the body's nodes themselves.
  std::shared_ptr<const LocalFunctions> functions;
  bool inline_functions = false;
  // The functions whose bodies are being built (shared by every graph of one import).
  std::shared_ptr<CallChain> call_chain = std::make_shared<CallChain>();
  // Reads an initializer (external data too); default FromTensorProto.
  std::function<absl::StatusOr<Tensor>(const onnx::TensorProto&)> load_initializer;
  // Main graph: a graph input that shares its name with an initializer is an argument, the
  // initializer only its default (ONNX IR >= 4), so nothing folds through it.
  bool inputs_override_initializers = false;
  // Main graph: let go of a name's Var once the last node reading it is built (graph outputs are
  // kept), so that values no later node needs can be collected during the import.
  bool release_after_last_use = false;
  // Main graph: after each node is built, its proto, input Vars (empty for omitted) and outputs.
  std::function<void(const onnx::NodeProto&, absl::Span<const Var>, absl::Span<const Var>,
                     bool opaque)>
      after_node;
  // Main graph: the most bytes each value of a node (its bodies included) may take while it is
  // built, below the graph's max_value_bytes; larger values are not computed. Empty: no limit.
  std::function<int64_t(const onnx::NodeProto&)> value_bytes_limit;
  // Main graph: an initializer's name and its constant Var, once bound.
  std::function<void(const std::string&, const Var&)> on_initializer;
  // Main graph: the arguments made for inputs not bound keep the inputs' dim_params as dim
  // names (Graph::argument with Dims), which the export writes back.
  bool keep_dim_names = false;
  // Main graph: put before the name of each argument made for an input not bound.
  std::string argument_prefix;
  // Main graph: (nodes built, nodes in all) every so often.
  std::function<void(int64_t, int64_t)> progress;
  // Main graph: build a node that reads no graph input (a weight's Transpose, a table's Range and
  // Cos, and what only they read) just before the first node that reads an input and needs it,
  // not where the model put it: what it makes is then read, and in a fold written and let go,
  // at once, instead of held from the top of a model that computes its constants first.
  bool constants_just_in_time = false;
};
// The Var an enclosing graph holds under a name, if any.
using OuterLookup = std::function<std::optional<Var>(const std::string& name)>;

class GraphInliner {
 public:
  GraphInliner(Graph& graph, const onnx::GraphProto& proto, ImportedOpsets opsets,
               OuterLookup outer = nullptr,
               std::shared_ptr<const InlineHooks> hooks = std::make_shared<InlineHooks>());

  // A main graph: its inputs bound by name to `given` (the rest become arguments of the graph),
  // its outputs returned by name.
  absl::StatusOr<std::map<std::string, Var>> RunMain(const std::map<std::string, Var>& given);
  // A body: its inputs bound in order to `arguments`, its outputs returned in order.
  absl::StatusOr<std::vector<Var>> RunBody(absl::Span<const Var> arguments);

 private:
  absl::Status Prepare();
  // Indexes every node output's name (producers_, first_output_); errors name a duplicate.
  absl::Status IndexOutputs();
  absl::Status ResolveReads(int n, std::vector<int>& producers);
  // The order nodes are built in (order_), with each input resolved (input_refs_).
  absl::Status Order();
  // Fills order_ by Kahn's algorithm, the lowest index first wherever the reads allow (see
  // Order); an error if the reads form a cycle. `reads` and `first_read` as below.
  absl::Status SortTopologically(const std::vector<int>& reads,
                                 const std::vector<size_t>& first_read);
  // Reorders order_ for InlineHooks::constants_just_in_time; `reads` lists the producers each
  // node reads, node n's from first_read[n].
  void ConstantsJustInTime(const std::vector<int>& reads, const std::vector<size_t>& first_read);
  // Whether node `n` reads one of `arguments` (its bodies' reads from outside included).
  bool ReadsArgument(int n, const NameSet& arguments) const;
  absl::Status BindInitializers();
  absl::Status BuildNodes();
  absl::Status BuildNode(int n);
  // An If whose condition has a known value, as the branch it takes, built in place of the node;
  // nullopt when the condition is not known or the branch does not build either.
  std::optional<std::vector<Var>> TakenBranch(const onnx::NodeProto& node,
                                              const std::vector<Var>& inputs);
  // The node as an opaque node; `why` is the error when opaque nodes are not allowed.
  absl::StatusOr<std::vector<Var>> BuildOpaque(const onnx::NodeProto& node,
                                               const std::vector<Var>& inputs,
                                               const std::vector<Attribute>& attributes,
                                               const absl::Status& why);
  bool IsOpaqueOp(const onnx::NodeProto& node, absl::string_view domain) const;
  // A call of one of the model's functions (InlineHooks::functions), built through its body.
  absl::Status BuildCall(int n, const onnx::FunctionProto& function,
                         const std::vector<Var>& inputs);
  // Binds the node's output names and tells hooks_->after_node.
  absl::Status Bind(int n, const std::vector<Var>& inputs, const std::vector<Var>& outputs,
                    bool opaque);
  // Main graph: how many nodes still read each name; graph outputs are not counted (never freed).
  void CountReads();
  void ReleaseReads(const onnx::NodeProto& node);
  absl::StatusOr<std::vector<Attribute>> Attributes(const onnx::NodeProto& node);
  std::optional<Var> Lookup(const std::string& name) const;
  // Where in node_outputs_ the node output named `name` is (an empty Var until its node is
  // built); nullopt if no node defines the name.
  std::optional<size_t> OutputSlot(absl::string_view name) const;
  // Lets go of what `name` is bound to; whether it was bound.
  bool Release(const std::string& name);
  const onnx::TypeProto* DeclaredTypeOf(const std::string& name);
  // Main graph: the argument for an input not bound, named with the prefix.
  absl::StatusOr<Var> MakeArgument(const onnx::ValueInfoProto& input, const VarType& type);
  // A graph output's Var, or an error naming the undefined output.
  absl::StatusOr<Var> Output(const onnx::ValueInfoProto& output) const;

  Graph& graph_;
  const onnx::GraphProto& proto_;
  const ImportedOpsets opsets_;
  OuterLookup outer_;
  std::shared_ptr<const InlineHooks> hooks_;
  bool is_main_ = false;
  absl::flat_hash_map<std::string, int64_t> reads_left_;
  // The types the graph's value_info, inputs and outputs declare, by name; only opaque nodes need
  // them, so they are gathered on first use.
  absl::flat_hash_map<absl::string_view, const onnx::TypeProto*> declared_types_;
  bool declared_types_gathered_ = false;
  // Names the graph itself defines before any node: its inputs and initializers.
  NameSet sources_;
  // Where a node output is: the node's index in proto_ and the output's; node -1 for a name bound
  // otherwise (an input, an initializer, an enclosing graph's var) or none.
  struct OutputRef {
    int node = -1;
    int output = -1;
  };
  absl::flat_hash_map<absl::string_view, OutputRef> producers_;  // views into proto_
  std::vector<size_t> first_output_;   // of node n in node_outputs_, one past the last at the end
  std::vector<Var> node_outputs_;      // each node's outputs, once built
  std::vector<size_t> first_input_;    // of node n in input_refs_
  std::vector<OutputRef> input_refs_;  // what each node input names
  std::vector<int> order_;
  std::vector<Tensor> initializers_;
  // What the graph's inputs and initializers are bound to; the keys are views into proto_, which
  // outlives this.
  absl::flat_hash_map<absl::string_view, Var> vars_;
};

// inline_model with hooks (the fold's import).
absl::StatusOr<std::map<std::string, Var>> InlineModel(Graph& graph, const onnx::ModelProto& model,
                                                       const std::map<std::string, Var>& inputs,
                                                       std::shared_ptr<InlineHooks> hooks);

// A Subgraph that builds `body` (which must outlive the Subgraph's use) with a GraphInliner.
Subgraph SubgraphFromGraphProto(
    Graph& graph, const onnx::GraphProto& body, ImportedOpsets opsets, OuterLookup outer,
    std::shared_ptr<const InlineHooks> hooks = std::make_shared<InlineHooks>());

}  // namespace graphgc::internal

#endif  // GRAPHGC_GRAPH_INLINER_H_
