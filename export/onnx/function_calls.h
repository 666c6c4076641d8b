// Building a call of a function through its body — the importer's calls of a model's functions
// (graph_inliner.h) and graphgc::call's of functions defined from code (functions.h) alike: the
// body is built in the caller's graph on the call's inputs (local_functions.h says how attribute
// references resolve), and the call node takes the types and values of the body's results.
// Internal to the export module; thread-compatible, as the graph.
#ifndef GRAPHGC_FUNCTION_CALLS_H_
#define GRAPHGC_FUNCTION_CALLS_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/export/onnx/graph_inliner.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// `body` (LocalFunctions::BodyFor of `function` for `call`), built in `graph` on `inputs` (fewer
// than the function's inputs leave the rest omitted) at `opsets`: the results, one per output of
// `call`. Errors: a recursion or a nesting deeper than CallChain::kMaxDepth (hooks->call_chain;
// RecursesOrNestsTooDeep says which), and whatever stops the body from building.
absl::StatusOr<std::vector<Var>> BuildFunctionBody(
    Graph& graph, const onnx::FunctionProto& function, const onnx::GraphProto& body,
    const onnx::NodeProto& call, absl::Span<const Var> inputs,
    const std::map<std::string, int>& opsets, std::shared_ptr<const InlineHooks> hooks);

// Whether a call of `function` now would recurse or nest too deep.
bool RecursesOrNestsTooDeep(const CallChain& chain, const onnx::FunctionProto& function);

// The call node (op `call.op_type()` of domain `call.domain()` at `version`): an opaque node
// typed by `results`, holding their values where every input has one. Failed Vars if it cannot
// be made.
std::vector<Var> MakeCallNode(Graph& graph, const onnx::NodeProto& call,
                              absl::Span<const Var> inputs,
                              const std::vector<Attribute>& attributes, int version,
                              absl::Span<const Var> results);

}  // namespace graphgc::internal

#endif  // GRAPHGC_FUNCTION_CALLS_H_
