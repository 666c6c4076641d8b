// The function definitions an export writes into ModelProto.functions: those of the functions its
// call nodes call (the graph's FunctionLibrary, filled by inline_model), and of the functions
// those call in turn, each once. Internal to the export module; thread-compatible.
#ifndef GRAPHGC_FUNCTION_EXPORT_H_
#define GRAPHGC_FUNCTION_EXPORT_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/ir/graph_core.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// The definitions the nodes marked in `needed_nodes` call, callers before callees. Domains the
// functions import and `imports` (domain -> opset) lacks are added to it, and the ai.onnx opset
// is the functions' where no node of the graph decided it.
absl::StatusOr<std::vector<onnx::FunctionProto>> CalledFunctions(
    const GraphCore& core, const std::vector<bool>& needed_nodes,
    std::map<std::string, int>& imports);

// The lowest IR version a model holding `function` may declare: 8 (model-local functions), 9
// with attribute defaults, 10 with value_info or an overload.
int64_t IrVersionFor(const onnx::FunctionProto& function);

// Replaces every call of one of model.functions by the nodes of its body (ONNX's inliner, which
// renames the body's values and resolves attribute references), transitively; the model is then
// left with no functions, and no opset import of a domain none of its nodes use any more.
absl::Status InlineModelFunctions(onnx::ModelProto& model);

}  // namespace graphgc::internal

#endif  // GRAPHGC_FUNCTION_EXPORT_H_
