#include "graphgc/export/onnx/inline_model.h"

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/external_data.h"
#include "graphgc/export/onnx/graph_inliner.h"
#include "graphgc/export/onnx/ir_version.h"
#include "graphgc/export/onnx/local_functions.h"
#include "graphgc/export/onnx/opset_conversion.h"
#include "graphgc/ir/graph_core.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {
namespace {

absl::Status ModelError(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("inline_model: ", why));
}

// Domain -> opset version the model imports, each one this library supports.
absl::StatusOr<std::map<std::string, int>> ReadOpsetImports(const onnx::ModelProto& model) {
  std::map<std::string, int> opsets;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    const bool reserved = domain.empty() || domain == "ai.onnx.ml";
    const int supported = SupportedOpsetVersion(domain);
    if (!reserved && supported == 0 && opset.version() >= 1 &&
        opset.version() <= std::numeric_limits<int>::max()) {
      opsets[domain] = static_cast<int>(opset.version());  // a domain for opaque nodes
      continue;
    }
    if (opset.version() < 1 || opset.version() > supported) {
      const std::string name = domain.empty() ? "ai.onnx" : domain;
      return ModelError(absl::StrCat(
          "the model uses ", name, " opset ", opset.version(), "; graphgc reads ", name,
          supported == 0 ? std::string(" at no opset") : absl::StrCat(" opsets 1 to ", supported),
          opset.version() > supported
              ? " (a newer opset may change what its ops mean, so the model is not read; opset "
                "conversion needs the model read at its own opset first)"
              : ""));
    }
    opsets[domain] = static_cast<int>(opset.version());
  }
  return opsets;
}

}  // namespace

namespace internal {
namespace {

// The definitions of the model's functions, in the graph's library, so that an export of the
// calls writes them; an overloaded function's calls are inlined (the arena keeps no overload).
// A function the graph already defines otherwise is an error when calls are kept (`strict`),
// checked before any is added; inlining calls needs the definitions only for a call whose body
// does not build, and skips such a function.
absl::Status KeepDefinitions(Graph& graph, const onnx::ModelProto& model, bool strict) {
  FunctionLibrary& library = graph.core()->functions();
  std::vector<std::string> definitions;
  for (const onnx::FunctionProto& function : model.functions()) {
    definitions.push_back(function.overload().empty() ? function.SerializeAsString() : "");
    const std::string* held = library.Find(function.domain(), function.name());
    if (held != nullptr && !definitions.back().empty() && *held != definitions.back()) {
      if (!strict) {
        definitions.back().clear();
        continue;
      }
      return ModelError(absl::StrCat(
          "the graph already holds another function ", LocalFunctions::NameOf(function),
          " (from an earlier import); import this model with InlineOptions::inline_functions"));
    }
  }
  for (int i = 0; i < model.functions_size(); ++i) {
    if (definitions[i].empty()) continue;
    const onnx::FunctionProto& function = model.functions(i);
    library.Add(function.domain(), function.name(), std::move(definitions[i]));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::map<std::string, Var>> InlineModel(Graph& graph, const onnx::ModelProto& model,
                                                       const std::map<std::string, Var>& inputs,
                                                       std::shared_ptr<InlineHooks> hooks) {
  if (graph.core() == nullptr) {
    return absl::FailedPreconditionError("inline_model: the Graph was moved from");
  }
  using Opsets = std::map<std::string, int>;
  GRAPHGC_ASSIGN_OR_RETURN(Opsets opsets, ReadOpsetImports(model));
  if (opsets.empty()) opsets[""] = kNewestOnnxOpset;
  if (model.functions_size() > 0) {
    GRAPHGC_ASSIGN_OR_RETURN(LocalFunctions functions, LocalFunctions::Index(model, opsets));
    hooks->functions = std::make_shared<const LocalFunctions>(std::move(functions));
    GRAPHGC_RETURN_IF_ERROR(KeepDefinitions(graph, model, /*strict=*/!hooks->inline_functions));
  }
  try {
    return GraphInliner(graph, model.graph(), std::move(opsets), nullptr, std::move(hooks))
        .RunMain(inputs);
  } catch (const std::exception& e) {  // the public API never throws
    return absl::InternalError(absl::StrCat("inline_model: ", e.what()));
  }
}

}  // namespace internal

absl::StatusOr<ImportedModel> import_model(Graph& graph, const onnx::ModelProto& model,
                                           const std::map<std::string, Var>& inputs,
                                           const InlineOptions& options) {
  if (options.opset < 0 || options.opset > kNewestOnnxOpset) {
    return ModelError(absl::StrCat("InlineOptions::opset is ", options.opset,
                                   "; it must be 0 (keep the model's) or 1 to ", kNewestOnnxOpset));
  }
  auto hooks = std::make_shared<internal::InlineHooks>();
  hooks->opaque_unknown_ops = options.opaque_unknown_ops;
  hooks->inline_functions = options.inline_functions;
  hooks->argument_prefix = options.prefix;
  hooks->keep_dim_names = true;
  auto reader = std::make_shared<internal::ExternalDataReader>(options.model_dir);
  hooks->load_initializer = [reader](const onnx::TensorProto& tensor) {
    return reader->Load(tensor);
  };
  ImportedModel imported;
  if (std::string newer = internal::NewerIrVersionWarning(model); !newer.empty()) {
    imported.warnings.push_back(std::move(newer));
  }
  const int64_t own_opset = internal::OnnxOpsetOf(model);
  // ONNX's version converter leaves a model's functions as they are, at the old opset, which the
  // converted model's would then contradict: such a model keeps its own.
  const bool has_functions = model.functions_size() > 0;
  if (has_functions && options.opset != 0 && own_opset != 0 && own_opset != options.opset) {
    imported.warnings.push_back(internal::KeptAtOwnOpset(
        own_opset, options.opset,
        "ONNX's version converter does not convert the model's functions"));
  }
  if (options.opset != 0 && !has_functions) {
    internal::OpsetConversion conversion =
        internal::ConvertOnnxOpset(model, options.opset, hooks->load_initializer);
    if (!conversion.warning.empty()) imported.warnings.push_back(std::move(conversion.warning));
    if (conversion.model.has_value()) {
      absl::StatusOr<std::map<std::string, Var>> outputs =
          internal::InlineModel(graph, *conversion.model, inputs, hooks);
      if (outputs.ok()) {
        imported.outputs = *std::move(outputs);
        imported.onnx_opset = options.opset;
        return imported;
      }
      // The converter's output is not always importable (an adapter may write what the new
      // opset's schema refuses): the model's own opset is still a way to get it in.
      imported.warnings.push_back(internal::KeptAtOwnOpset(
          own_opset, options.opset,
          absl::StrCat("the converted model does not import: ", outputs.status().message())));
    }
  }
  GRAPHGC_ASSIGN_OR_RETURN(imported.outputs,
                           internal::InlineModel(graph, model, inputs, std::move(hooks)));
  // The import checked the opset: 1 to kNewestOnnxOpset, or none (the newest).
  imported.onnx_opset = own_opset == 0 ? kNewestOnnxOpset : static_cast<int>(own_opset);
  return imported;
}

absl::StatusOr<std::map<std::string, Var>> inline_model(Graph& graph, const onnx::ModelProto& model,
                                                        const std::map<std::string, Var>& inputs,
                                                        const InlineOptions& options) {
  GRAPHGC_ASSIGN_OR_RETURN(ImportedModel imported, import_model(graph, model, inputs, options));
  return std::move(imported.outputs);
}

}  // namespace graphgc
