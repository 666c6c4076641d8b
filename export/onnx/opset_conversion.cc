#include "graphgc/export/onnx/opset_conversion.h"

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graphgc/export/onnx/external_data.h"
#include "graphgc/export/onnx/graph_inliner.h"
#include "graphgc/export/onnx/ir_version.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/export/onnx/prelu_channel_slopes.h"
#include "graphgc/ir/graph.h"
#include "onnx/checker.h"
#include "onnx/version_converter/convert.h"

namespace graphgc::internal {
namespace {

constexpr int64_t kPReluBroadcastsSince = 7;

// The types a graph declares for its names: inputs, outputs and value_info.
using DeclaredTypes = absl::flat_hash_map<std::string, const onnx::TypeProto*>;

void GatherTypes(const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos,
                 DeclaredTypes& types) {
  for (const onnx::ValueInfoProto& info : infos) {
    if (info.has_type()) types.try_emplace(info.name(), &info.type());
  }
}

void RestoreTypes(const DeclaredTypes& types,
                  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& infos) {
  for (onnx::ValueInfoProto& info : infos) {
    if (info.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) continue;
    auto it = types.find(info.name());
    if (it != types.end()) *info.mutable_type() = *it->second;
  }
}

// Puts back what ONNX 1.12's converter loses on the way (the types it cannot express in its IR,
// the model's functions): neither changes between opsets.
void RestoreDropped(const onnx::ModelProto& original, onnx::ModelProto& converted) {
  DeclaredTypes types;
  GatherTypes(original.graph().input(), types);
  GatherTypes(original.graph().output(), types);
  GatherTypes(original.graph().value_info(), types);
  onnx::GraphProto& graph = *converted.mutable_graph();
  RestoreTypes(types, *graph.mutable_input());
  RestoreTypes(types, *graph.mutable_output());
  RestoreTypes(types, *graph.mutable_value_info());
  if (converted.functions_size() == 0) *converted.mutable_functions() = original.functions();
}

// Whether the model imports at its own opset: every name defined, no cycle, every node valid for
// its schema, bodies included. Types only, into a graph of its own.
absl::Status ImportsAsItIs(const onnx::ModelProto& model,
                           const InitializerLoader& load_initializer) {
  GraphOptions options;
  options.propagate_values = false;
  Graph scratch(options);
  auto hooks = std::make_shared<InlineHooks>();
  hooks->load_initializer = load_initializer;
  return InlineModel(scratch, model, {}, std::move(hooks)).status();
}

}  // namespace

std::string KeptAtOwnOpset(int64_t from, int target, absl::string_view why) {
  return absl::StrCat("the model was kept at ai.onnx opset ", from, ", not converted to ", target,
                      ": ", why);
}

int64_t OnnxOpsetOf(const onnx::ModelProto& model) {
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    if (IsOnnxDomain(opset.domain())) return opset.version();
  }
  return 0;
}

OpsetConversion ConvertOnnxOpset(const onnx::ModelProto& original, int target,
                                 const InitializerLoader& load_initializer) {
  OpsetConversion result;
  const int64_t from = OnnxOpsetOf(original);
  // An opset out of range is not this module's to report: the import refuses it.
  if (from < 1 || from > kNewestOnnxOpset || from == target) return result;
  // Copied only for the rare model that needs its PRelu slopes rewritten.
  std::optional<onnx::ModelProto> rewritten;
  if (target > from && from < kPReluBroadcastsSince) {
    rewritten = original;
    if (UnsqueezeChannelSlopes(*rewritten) == 0) rewritten.reset();
  }
  const onnx::ModelProto& model = rewritten.has_value() ? *rewritten : original;
  if (absl::Status imports = ImportsAsItIs(model, load_initializer); !imports.ok()) {
    result.warning = KeptAtOwnOpset(from, target, imports.message());
    return result;
  }
  std::optional<onnx::ModelProto> known_ir;  // ONNX's checker and converter refuse newer IRs
  const onnx::ModelProto& checked = AtKnownIrVersion(model, known_ir);
  if (!UsesExternalData(model)) {
    try {
      onnx::checker::check_model(checked);
    } catch (const std::exception& e) {
      result.warning =
          KeptAtOwnOpset(from, target, absl::StrCat("ONNX's checker refuses it: ", e.what()));
      return result;
    }
  }
  try {
    result.model = onnx::version_conversion::ConvertVersion(checked, target);
  } catch (const std::exception& e) {
    result.warning =
        KeptAtOwnOpset(from, target, absl::StrCat("ONNX's version converter says: ", e.what()));
    return result;
  }
  RestoreDropped(original, *result.model);
  return result;
}

}  // namespace graphgc::internal
