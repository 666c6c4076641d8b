#include "graphgc/export/fold/function_bodies.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/constant_node_types.h"
#include "graphgc/export/onnx/inline_model.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/export/onnx/node_visitor.h"
#include "graphgc/ir/graph.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/proto/tensor_proto.h"

namespace graphgc::internal {
namespace {

using Names = absl::flat_hash_set<std::string>;

// The model's functions, as "domain\0name\0overload".
std::string FunctionKey(absl::string_view domain, absl::string_view name,
                        absl::string_view overload) {
  return absl::StrCat(domain, std::string(1, '\0'), name, std::string(1, '\0'), overload);
}

Names FunctionsOf(const onnx::ModelProto& model) {
  Names functions;
  for (const onnx::FunctionProto& function : model.functions()) {
    functions.insert(FunctionKey(function.domain(), function.name(), function.overload()));
  }
  return functions;
}

bool CallsAFunction(const onnx::NodeProto& node, const Names& functions) {
  return functions.contains(FunctionKey(node.domain(), node.op_type(), node.overload()));
}

bool RefersToAttributes(const onnx::NodeProto& node) {
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (!attribute.ref_attr_name().empty()) return true;
  }
  return false;
}

bool HasBodies(const onnx::NodeProto& node) {
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.has_g() || attribute.graphs_size() > 0) return true;
  }
  return false;
}

// A node computed from constants alone: of ONNX's domains or a call of one of the model's
// functions, no attribute reference, no body (which may read the function's inputs by name),
// every input a constant.
bool FromConstantsAlone(const onnx::NodeProto& node, const Names& constants,
                        const Names& functions) {
  const bool computable = IsOnnxDefinedDomain(node.domain()) || CallsAFunction(node, functions);
  if (!computable || RefersToAttributes(node) || HasBodies(node)) return false;
  for (const std::string& input : node.input()) {
    if (!input.empty() && !constants.contains(input)) return false;
  }
  return true;
}

// Every name a node reads, its bodies' included (a body may read the function's values by name).
void ReadNames(const onnx::NodeProto& node, Names& read) {
  ForEachNode(node, [&read](const onnx::NodeProto& visited) {
    read.insert(visited.input().begin(), visited.input().end());
  });
}

struct ConstantPart {
  std::vector<int> nodes;            // indices in the body, in order
  std::vector<std::string> written;  // the values the rest of the body (or its outputs) reads
  bool only_constants = true;        // every node of it is a Constant already
  bool calls_functions = false;      // some node of it calls one of the model's functions
};

ConstantPart FindConstantPart(const onnx::FunctionProto& function, const Names& functions) {
  ConstantPart part;
  Names constants;
  std::vector<bool> in_part(static_cast<size_t>(function.node_size()), false);
  for (int i = 0; i < function.node_size(); ++i) {
    const onnx::NodeProto& node = function.node(i);
    if (!FromConstantsAlone(node, constants, functions)) continue;
    in_part[static_cast<size_t>(i)] = true;
    part.nodes.push_back(i);
    const bool call = !IsOnnxDefinedDomain(node.domain());
    part.only_constants = part.only_constants && !call && node.op_type() == "Constant";
    part.calls_functions = part.calls_functions || call;
    for (const std::string& output : node.output()) {
      if (!output.empty()) constants.insert(output);
    }
  }
  Names read(function.output().begin(), function.output().end());
  for (int i = 0; i < function.node_size(); ++i) {
    if (!in_part[static_cast<size_t>(i)]) ReadNames(function.node(i), read);
  }
  for (int i : part.nodes) {
    for (const std::string& output : function.node(i).output()) {
      if (!output.empty() && read.contains(output)) part.written.push_back(output);
    }
  }
  return part;
}

bool ImportsDomain(const onnx::FunctionProto& function, absl::string_view domain) {
  return absl::c_any_of(function.opset_import(), [&](const onnx::OperatorSetIdProto& opset) {
    return opset.domain() == domain;
  });
}

// The ai.onnx opset the function's Constants are written at: its own import, else the model's.
int OnnxOpsetOf(const onnx::ModelProto& model, const onnx::FunctionProto& function) {
  const int64_t own = OnnxOpsetIn(function.opset_import());
  return static_cast<int>(own != 0 ? own : OnnxOpsetIn(model.opset_import()));
}

// The constant part's values, by name; nullopt when one is unknown, not a tensor or too large.
std::optional<std::map<std::string, Tensor>> ComputeConstantPart(
    const onnx::ModelProto& model, const onnx::FunctionProto& function, const ConstantPart& part,
    int64_t max_fold_bytes) {
  onnx::ModelProto constant_model;
  constant_model.set_ir_version(model.ir_version());
  *constant_model.mutable_opset_import() = function.opset_import();
  if (part.calls_functions) {  // the callees, and the model's imports of the domains they need
    *constant_model.mutable_functions() = model.functions();
    for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
      if (!ImportsDomain(function, opset.domain())) *constant_model.add_opset_import() = opset;
    }
  }
  onnx::GraphProto* graph = constant_model.mutable_graph();
  graph->set_name(function.name());
  for (int i : part.nodes) *graph->add_node() = function.node(i);
  for (const std::string& name : part.written) graph->add_output()->set_name(name);

  Graph computed;
  absl::StatusOr<ImportedModel> imported = import_model(
      computed, constant_model, {}, InlineOptions{.opaque_unknown_ops = false, .opset = 0});
  if (!imported.ok()) return std::nullopt;
  std::map<std::string, Tensor> values;
  for (const std::string& name : part.written) {
    auto found = imported->outputs.find(name);
    if (found == imported->outputs.end()) return std::nullopt;
    std::optional<Tensor> value = found->second.value();
    if (!value.has_value() || static_cast<int64_t>(value->nbytes()) > max_fold_bytes ||
        !ConstantNodeHolds(value->dtype(), OnnxOpsetOf(model, function))) {
      return std::nullopt;
    }
    values.emplace(name, *std::move(value));
  }
  return values;
}

onnx::FunctionProto WithConstants(const onnx::ModelProto& model,
                                  const onnx::FunctionProto& function, const ConstantPart& part,
                                  const std::map<std::string, Tensor>& values) {
  onnx::FunctionProto folded = function;
  folded.clear_node();
  if (!part.written.empty() && OnnxOpsetIn(function.opset_import()) == 0) {
    onnx::OperatorSetIdProto* onnx_opset = folded.add_opset_import();
    onnx_opset->set_domain("");
    onnx_opset->set_version(OnnxOpsetOf(model, function));
  }
  for (const std::string& name : part.written) {
    onnx::NodeProto* constant = folded.add_node();
    constant->set_op_type("Constant");
    constant->add_output(name);
    onnx::AttributeProto* value = constant->add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    *value->mutable_t() = ToTensorProto(values.at(name));
  }
  size_t next = 0;
  for (int i = 0; i < function.node_size(); ++i) {
    if (next < part.nodes.size() && part.nodes[next] == i) {
      ++next;
      continue;
    }
    *folded.add_node() = function.node(i);
  }
  // value_info (IR 10) of values the body no longer has goes with them.
  Names produced;
  for (const onnx::NodeProto& node : folded.node())
    produced.insert(node.output().begin(), node.output().end());
  auto* infos = folded.mutable_value_info();
  infos->erase(std::remove_if(infos->begin(), infos->end(),
                              [&](const onnx::ValueInfoProto& info) {
                                return !produced.contains(info.name()) &&
                                       !absl::c_linear_search(function.input(), info.name());
                              }),
               infos->end());
  return folded;
}

}  // namespace

std::optional<onnx::FunctionProto> FoldFunctionBody(const onnx::ModelProto& model,
                                                    const onnx::FunctionProto& function,
                                                    int64_t max_fold_bytes) {
  const ConstantPart part = FindConstantPart(function, FunctionsOf(model));
  if (part.only_constants) return std::nullopt;  // nothing to compute
  std::optional<std::map<std::string, Tensor>> values =
      ComputeConstantPart(model, function, part, max_fold_bytes);
  if (!values.has_value()) return std::nullopt;
  onnx::FunctionProto folded = WithConstants(model, function, part, *values);
  if (folded.ByteSizeLong() > function.ByteSizeLong()) return std::nullopt;
  return folded;
}

int64_t FoldFunctionBodies(onnx::ModelProto& model, int64_t max_fold_bytes) {
  int64_t removed = 0;
  for (int i = 0; i < model.functions_size(); ++i) {
    std::optional<onnx::FunctionProto> folded =
        FoldFunctionBody(model, model.functions(i), max_fold_bytes);
    if (!folded.has_value()) continue;
    removed += model.functions(i).node_size() - folded->node_size();
    *model.mutable_functions(i) = *std::move(folded);
  }
  return removed;
}

}  // namespace graphgc::internal
