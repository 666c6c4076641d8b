#include "graphgc/export/fold/function_bodies.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_set.h"
#include "graphgc/export/onnx/inline_model.h"
#include "graphgc/ir/graph.h"
#include "graphgc/opset/build/onnx_domains.h"
#include "graphgc/opset/proto/tensor_proto.h"

namespace graphgc::internal {
namespace {

using Names = absl::flat_hash_set<std::string>;

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

// A node computed from constants alone: of ONNX's domains (not a call), no attribute reference, no
// body (which may read the function's inputs by name), every input a constant.
bool FromConstantsAlone(const onnx::NodeProto& node, const Names& constants) {
  if (!IsOnnxDefinedDomain(node.domain()) || RefersToAttributes(node) || HasBodies(node)) {
    return false;
  }
  for (const std::string& input : node.input()) {
    if (!input.empty() && !constants.contains(input)) return false;
  }
  return true;
}

// Every name a node reads, its bodies' included (a body may read the function's values by name).
void ReadNames(const onnx::NodeProto& node, Names& read) {
  for (const std::string& input : node.input()) read.insert(input);
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    const auto read_body = [&read](const onnx::GraphProto& body) {
      for (const onnx::NodeProto& inner : body.node()) ReadNames(inner, read);
    };
    if (attribute.has_g()) read_body(attribute.g());
    for (const onnx::GraphProto& body : attribute.graphs()) read_body(body);
  }
}

struct ConstantPart {
  std::vector<int> nodes;            // indices in the body, in order
  std::vector<std::string> written;  // the values the rest of the body (or its outputs) reads
  bool only_constants = true;        // every node of it is a Constant already
};

ConstantPart FindConstantPart(const onnx::FunctionProto& function) {
  ConstantPart part;
  Names constants;
  std::vector<bool> in_part(static_cast<size_t>(function.node_size()), false);
  for (int i = 0; i < function.node_size(); ++i) {
    const onnx::NodeProto& node = function.node(i);
    if (!FromConstantsAlone(node, constants)) continue;
    in_part[static_cast<size_t>(i)] = true;
    part.nodes.push_back(i);
    part.only_constants = part.only_constants && node.op_type() == "Constant";
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

// The constant part's values, by name; nullopt when one is unknown, not a tensor or too large.
std::optional<std::map<std::string, Tensor>> ComputeConstantPart(
    const onnx::ModelProto& model, const onnx::FunctionProto& function, const ConstantPart& part,
    int64_t max_fold_bytes) {
  onnx::ModelProto constant_model;
  constant_model.set_ir_version(model.ir_version());
  *constant_model.mutable_opset_import() = function.opset_import();
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
    if (!value.has_value() || static_cast<int64_t>(value->nbytes()) > max_fold_bytes) {
      return std::nullopt;
    }
    values.emplace(name, *std::move(value));
  }
  return values;
}

onnx::FunctionProto WithConstants(const onnx::FunctionProto& function, const ConstantPart& part,
                                  const std::map<std::string, Tensor>& values) {
  onnx::FunctionProto folded = function;
  folded.clear_node();
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

int64_t FoldFunctionBodies(onnx::ModelProto& model, int64_t max_fold_bytes) {
  int64_t removed = 0;
  for (onnx::FunctionProto& function : *model.mutable_functions()) {
    const ConstantPart part = FindConstantPart(function);
    if (part.only_constants) continue;  // nothing to compute
    std::optional<std::map<std::string, Tensor>> values =
        ComputeConstantPart(model, function, part, max_fold_bytes);
    if (!values.has_value()) continue;
    onnx::FunctionProto folded = WithConstants(function, part, *values);
    if (folded.ByteSizeLong() > function.ByteSizeLong()) continue;  // never grows the model
    removed += function.node_size() - folded.node_size();
    function = std::move(folded);
  }
  return removed;
}

}  // namespace graphgc::internal
