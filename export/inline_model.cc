#include "graphgc/export/inline_model.h"

#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/export/graph_inliner.h"
#include "graphgc/opset/node.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {
namespace {

absl::Status ModelError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("inline_model: ", why));
}

// Domain -> opset version the model imports, each one this library supports.
absl::StatusOr<std::map<std::string, int>> ImportedOpsets(const onnx::ModelProto& model) {
  std::map<std::string, int> opsets;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    const int supported = SupportedOpsetVersion(domain);
    if (opset.version() < 1 || opset.version() > supported) {
      return ModelError(
          absl::StrCat("the model imports opset ", opset.version(), " of domain '", domain,
                       "'; this library supports ",
                       supported == 0 ? std::string("none") : absl::StrCat("1 to ", supported)));
    }
    opsets[domain] = static_cast<int>(opset.version());
  }
  return opsets;
}

}  // namespace

absl::StatusOr<std::map<std::string, Var>> inline_model(Graph& graph, const onnx::ModelProto& model,
                                                        const std::map<std::string, Var>& inputs) {
  if (graph.core() == nullptr) {
    return absl::FailedPreconditionError("inline_model: the Graph was moved from");
  }
  using Opsets = std::map<std::string, int>;
  GRAPHGC_ASSIGN_OR_RETURN(Opsets opsets, ImportedOpsets(model));
  if (opsets.empty()) opsets[""] = kNewestOnnxOpset;
  try {
    return internal::GraphInliner(graph, model.graph(), std::move(opsets)).RunMain(inputs);
  } catch (const std::exception& e) {  // the public API never throws
    return absl::InternalError(absl::StrCat("inline_model: ", e.what()));
  }
}

}  // namespace graphgc
