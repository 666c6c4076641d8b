#include "graphgc/export/onnx/opset_conversion.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "graphgc/export/onnx/down_conversion_guard.h"
#include "graphgc/export/onnx/external_data.h"
#include "graphgc/export/onnx/graph_inliner.h"
#include "graphgc/export/onnx/ir_version.h"
#include "graphgc/export/onnx/legacy_resampling.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/export/onnx/prelu_channel_slopes.h"
#include "graphgc/ir/graph.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/opset/proto/tensor_proto.h"
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

// The types the import at the model's own opset gave the main graph's node outputs, by name.
using InferredTypes = absl::flat_hash_map<std::string, VarType>;

// Whether the model imports at its own opset: every name defined, no cycle, every node valid for
// its schema, bodies included. Types only, into a graph of its own; `inferred` gets them.
absl::Status ImportsAsItIs(const onnx::ModelProto& model, const InitializerLoader& load_initializer,
                           InferredTypes& inferred) {
  GraphOptions options;
  options.propagate_values = false;
  Graph scratch(options);
  auto hooks = std::make_shared<InlineHooks>();
  hooks->load_initializer = load_initializer;
  hooks->after_node = [&inferred](const onnx::NodeProto& node, absl::Span<const Var>,
                                  absl::Span<const Var> outputs, bool) {
    for (int i = 0; i < node.output_size() && static_cast<size_t>(i) < outputs.size(); ++i) {
      if (!node.output(i).empty() && outputs[i].ok()) {
        inferred.insert_or_assign(node.output(i), outputs[i].type());
      }
    }
  };
  return InlineModel(scratch, model, {}, std::move(hooks)).status();
}

// The dims of a main-graph value (-1 for an unknown or symbolic one): inferred for node outputs,
// an initializer's own, declared for inputs.
ShapeOf ShapeFrom(const InferredTypes& inferred, const onnx::GraphProto& graph) {
  return [&inferred, &graph](const std::string& name) -> std::optional<std::vector<int64_t>> {
    if (auto it = inferred.find(name); it != inferred.end()) {
      const VarType& type = it->second;
      if (!type.is_tensor()) return std::nullopt;
      return type.shape();
    }
    for (const onnx::TensorProto& initializer : graph.initializer()) {
      if (initializer.name() == name) {
        return std::vector<int64_t>(initializer.dims().begin(), initializer.dims().end());
      }
    }
    for (const onnx::ValueInfoProto& input : graph.input()) {
      if (input.name() != name || !input.type().has_tensor_type() ||
          !input.type().tensor_type().has_shape()) {
        continue;
      }
      std::vector<int64_t> dims;
      for (const auto& dim : input.type().tensor_type().shape().dim()) {
        dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
      }
      return dims;
    }
    return std::nullopt;
  };
}

// The rank of a main-graph value, where ShapeFrom knows its dims.
RankOf RankFrom(ShapeOf shape_of) {
  return [shape_of = std::move(shape_of)](const std::string& name) -> std::optional<int64_t> {
    const std::optional<std::vector<int64_t>> dims = shape_of(name);
    if (!dims.has_value()) return std::nullopt;
    return static_cast<int64_t>(dims->size());
  };
}

// Whether a type tells what ONNX's converter may read of it: a tensor's rank.
bool Ranked(const VarType& type) { return !type.is_tensor() || type.shape().has_value(); }

// Leaves a type its element types only: the shapes in it, which nothing checked, go.
void ClearShapes(onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      type.mutable_tensor_type()->clear_shape();
      return;
    case onnx::TypeProto::kSparseTensorType:
      type.mutable_sparse_tensor_type()->clear_shape();
      return;
    case onnx::TypeProto::kSequenceType:
      if (type.sequence_type().has_elem_type()) {
        ClearShapes(*type.mutable_sequence_type()->mutable_elem_type());
      }
      return;
    case onnx::TypeProto::kOptionalType:
      if (type.optional_type().has_elem_type()) {
        ClearShapes(*type.mutable_optional_type()->mutable_elem_type());
      }
      return;
    case onnx::TypeProto::kMapType:
      if (type.map_type().has_value_type()) {
        ClearShapes(*type.mutable_map_type()->mutable_value_type());
      }
      return;
    default:
      return;
  }
}

// Inside bodies graphgc records no types for the converter: their value_info goes, and their
// inputs and outputs keep only element types (a Loop body is built with the types the Loop
// carries, whatever its inputs declare: a body input declared a scalar where the Loop carries a
// matrix had Gemm 6 to 7 read past its shape).
void ClearBodyShapes(onnx::NodeProto& node) {
  for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
    std::vector<onnx::GraphProto*> bodies;
    if (attribute.has_g()) bodies.push_back(attribute.mutable_g());
    for (onnx::GraphProto& body : *attribute.mutable_graphs()) bodies.push_back(&body);
    for (onnx::GraphProto* body : bodies) {
      body->clear_value_info();
      for (auto* infos : {body->mutable_input(), body->mutable_output()}) {
        for (onnx::ValueInfoProto& info : *infos) {
          if (info.has_type()) ClearShapes(*info.mutable_type());
        }
      }
      for (onnx::NodeProto& inner : *body->mutable_node()) ClearBodyShapes(inner);
    }
  }
}

// A graph input named like an initializer is that initializer in the import (graphgc takes its
// tensor), so the converter reads the tensor's type, not the input's declared one: a declared
// scalar for Gemm's A, given a [2, 3] initializer, had Gemm 6 to 7 read past the scalar's shape.
void UseInitializerTypes(onnx::GraphProto& graph) {
  absl::flat_hash_map<std::string, onnx::TypeProto> types;
  auto add = [&types](const std::string& name, int32_t dtype, const auto& dims) {
    onnx::TypeProto::Tensor& tensor = *types[name].mutable_tensor_type();
    tensor.set_elem_type(dtype);
    onnx::TensorShapeProto& shape = *tensor.mutable_shape();
    for (int64_t dim : dims) shape.add_dim()->set_dim_value(dim);
  };
  for (const onnx::TensorProto& initializer : graph.initializer()) {
    add(initializer.name(), initializer.data_type(), initializer.dims());
  }
  for (const onnx::SparseTensorProto& initializer : graph.sparse_initializer()) {
    add(initializer.values().name(), initializer.values().data_type(), initializer.dims());
  }
  for (onnx::ValueInfoProto& input : *graph.mutable_input()) {
    auto it = types.find(input.name());
    if (it != types.end()) *input.mutable_type() = it->second;
  }
}

// The types ONNX's version converter is given: what graphgc inferred, not what the model declares.
// Its adapters read shapes unchecked (Gemm 6 to 7 reads A's dim 0), so a declared type the nodes
// contradict (a scalar where Relu makes a matrix) would have it read past a shape. The main
// graph's value_info and outputs take the inferred types where the rank is known; bodies keep no
// shapes (an adapter that needs a shape nobody inferred refuses the conversion). ONNX's checker
// wants a shape for every output of the main graph, so an output whose rank graphgc does not know
// (or that no node makes) is withheld from the converter and put back afterwards
// (RestoreWithheldOutputs). Returns whether any output is left to convert.
bool UseInferredTypes(const InferredTypes& inferred, onnx::ModelProto& model) {
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.clear_value_info();
  UseInitializerTypes(graph);
  absl::flat_hash_map<std::string, onnx::ValueInfoProto*> outputs;
  for (onnx::ValueInfoProto& output : *graph.mutable_output()) outputs[output.name()] = &output;
  absl::flat_hash_set<std::string> typed;  // the outputs given an inferred type
  for (onnx::NodeProto& node : *graph.mutable_node()) {
    for (const std::string& name : node.output()) {
      auto it = inferred.find(name);
      if (name.empty() || it == inferred.end() || !Ranked(it->second)) continue;
      auto output = outputs.find(name);
      onnx::ValueInfoProto* info =
          output != outputs.end() ? output->second : graph.add_value_info();
      info->set_name(name);
      *info->mutable_type() = ToTypeProto(it->second);
      if (output != outputs.end()) typed.insert(name);
    }
    ClearBodyShapes(node);
  }
  auto& kept = *graph.mutable_output();
  kept.erase(std::remove_if(kept.begin(), kept.end(),
                            [&typed](const onnx::ValueInfoProto& output) {
                              return !typed.contains(output.name());
                            }),
             kept.end());
  return !kept.empty();
}

// The converted model's outputs in the original's order, each withheld one (UseInferredTypes)
// back with its declared type.
void RestoreWithheldOutputs(const onnx::ModelProto& original, onnx::ModelProto& converted) {
  auto& outputs = *converted.mutable_graph()->mutable_output();
  absl::flat_hash_map<std::string, onnx::ValueInfoProto> converted_outputs;
  for (onnx::ValueInfoProto& output : outputs) {
    converted_outputs.try_emplace(output.name(), std::move(output));
  }
  outputs.Clear();
  for (const onnx::ValueInfoProto& output : original.graph().output()) {
    auto it = converted_outputs.find(output.name());
    *outputs.Add() = it != converted_outputs.end() ? it->second : output;
  }
}

// ONNX's ConvertVersion builds a DefaultVersionConverter for every call, and that constructor
// copies every schema of every operator and version and registers hundreds of adapters: most of a
// small model's conversion time, paid again by every call (about 4 ms in Release here).
// Converting is a const member that reads only what the constructor built, so one converter,
// built on first use and never destroyed (no order-of-destruction hazard at exit), serves every
// conversion on every thread; the call below is the rest of ConvertVersion's body.
onnx::ModelProto ConvertWithOnnx(const onnx::ModelProto& model, int64_t from, int target) {
  static const auto* const converter = new onnx::version_conversion::DefaultVersionConverter();
  return converter->convert_version(model, onnx::OpSetID(from), onnx::OpSetID(target));
}

}  // namespace

std::string KeptAtOwnOpset(int64_t from, int target, absl::string_view why) {
  return absl::StrCat("the model was kept at ai.onnx opset ", from, ", not converted to ", target,
                      ": ", why);
}

int64_t OnnxOpsetOf(const onnx::ModelProto& model) { return OnnxOpsetIn(model.opset_import()); }

OpsetConversion ConvertOnnxOpset(const onnx::ModelProto& original, int target,
                                 const InitializerLoader& load_initializer) {
  OpsetConversion result;
  const int64_t from = OnnxOpsetOf(original);
  // An opset out of range is not this module's to report: the import refuses it.
  if (from < 1 || from > kNewestOnnxOpset || from == target) return result;
  std::optional<onnx::ModelProto> rewritten;
  if (target > from && from < kPReluBroadcastsSince) {
    rewritten = original;
    if (UnsqueezeChannelSlopes(*rewritten) == 0) rewritten.reset();
  }
  onnx::ModelProto model = rewritten.has_value() ? *std::move(rewritten) : original;
  InferredTypes inferred;
  if (absl::Status imports = ImportsAsItIs(model, load_initializer, inferred); !imports.ok()) {
    result.warning = KeptAtOwnOpset(from, target, imports.message());
    return result;
  }
  if (std::optional<std::string> hazard =
          DownConversionHazard(model, from, target, RankFrom(ShapeFrom(inferred, model.graph())))) {
    result.warning = KeptAtOwnOpset(from, target, *hazard);
    return result;
  }
  if (!UseInferredTypes(inferred, model)) {
    result.warning = KeptAtOwnOpset(
        from, target,
        "graphgc cannot infer the rank of any of its outputs, and ONNX's converter would read "
        "their declared shapes unchecked");
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
    result.model = ConvertWithOnnx(checked, from, target);
  } catch (const std::exception& e) {
    result.warning =
        KeptAtOwnOpset(from, target, absl::StrCat("ONNX's version converter says: ", e.what()));
    return result;
  }
  RestoreWithheldOutputs(original, *result.model);
  RestoreDropped(original, *result.model);
  if (CrossesLegacyResampling(from, target)) {
    if (std::optional<std::string> why = PinLegacyResampling(*result.model, load_initializer,
                                                             ShapeFrom(inferred, model.graph()))) {
      result.model.reset();
      result.warning = KeptAtOwnOpset(from, target, *why);
    }
  }
  return result;
}

}  // namespace graphgc::internal
