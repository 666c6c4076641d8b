#include "graphgc/export/onnx/function_calls.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/local_functions.h"
#include "graphgc/opset/build/opaque_node.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {

bool RecursesOrNestsTooDeep(const CallChain& chain, const onnx::FunctionProto& function) {
  return chain.Contains(&function) || chain.depth() >= CallChain::kMaxDepth;
}

absl::StatusOr<std::vector<Var>> BuildFunctionBody(
    Graph& graph, const onnx::FunctionProto& function, const onnx::GraphProto& body,
    const onnx::NodeProto& call, absl::Span<const Var> inputs,
    const std::map<std::string, int>& opsets, std::shared_ptr<const InlineHooks> hooks) {
  CallChain& chain = *hooks->call_chain;
  if (chain.Contains(&function)) {  // LocalFunctions::Index refuses cycles; this is the backstop
    return absl::InvalidArgumentError(
        absl::StrCat("a function calls itself: ", chain.Describe(&function)));
  }
  if (chain.depth() >= CallChain::kMaxDepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("function calls nest deeper than ", CallChain::kMaxDepth));
  }
  std::vector<Var> arguments(static_cast<size_t>(function.input_size()));
  std::copy(inputs.begin(), inputs.end(), arguments.begin());
  absl::StatusOr<std::vector<Var>> results;
  {
    const CallChain::Scope scope(chain, &function);
    results =
        GraphInliner(graph, body, opsets, /*outer=*/nullptr, std::move(hooks)).RunBody(arguments);
  }
  if (results.ok()) results->resize(static_cast<size_t>(call.output_size()));
  return results;
}

std::vector<Var> MakeCallNode(Graph& graph, const onnx::NodeProto& call,
                              absl::Span<const Var> inputs,
                              const std::vector<Attribute>& attributes, int version,
                              absl::Span<const Var> results) {
  OpaqueNodeOptions options;
  options.domain = call.domain();
  options.version = version;
  std::vector<std::optional<Value>> values;
  for (const Var& result : results) {
    options.output_types.push_back(result.type());
    values.push_back(result.any_value());
  }
  return MakeOpaqueNodeWithValues(graph, call.op_type(), inputs, attributes, options,
                                  std::move(values));
}

}  // namespace graphgc::internal
